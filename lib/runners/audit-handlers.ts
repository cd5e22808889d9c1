// GET /runners/:id/audit_events (a Runway extension behind a runner page's Activity tab): the runner's own
// trail, paginated as every audit event list (lib/audit/handlers.ts); who may read it is runners' policy.
import { endpoint } from '../api/handler';
import { param } from '../api/params';
import { dateParams, dates, page } from '../audit/handlers';
import { canReadRunnerAuditEvents } from './policy';
import { findRunnerOr404, noAccess } from './service';

/** GET /runners/:id/audit_events (Runway extension): the runner's own trail, for those who may edit it. */
export const listRunnerAuditEvents = endpoint({
  scopes: ['manage_runner'],
  params: { id: param.integer().required(), ...dateParams },
  handle: async (ctx) => {
    const actor = ctx.user();
    const runner = await findRunnerOr404(ctx.input.id);
    if (!(await canReadRunnerAuditEvents(actor, runner))) throw noAccess();
    return page(ctx, { runnerId: runner.id, ...dates(ctx.input) });
  },
});
