// The audit events endpoints in GitLab's shape: GET /audit_events (admins), /groups/:id/audit_events,
// /projects/:id/audit_events and their single-event forms (a runner's trail, GET /runners/:id/audit_events,
// is lib/runners/audit-handlers.ts, paginated by page() here). Offset pagination (with X-Total), or keyset pagination
// (`pagination=keyset`, newest first, a `cursor` in the rel="next" Link) as GitLab offers for audit events.
import { endpoint, paginated, type RequestContext } from '../api/handler';
import { forbidden, paramError, recordNotFound } from '../api/errors';
import { param } from '../api/params';
import { json } from '../api/response';
import { externalUrl } from '../config/env';
import { clampToInt4 } from '../db/ids';
import { findGroup, findProject } from '../namespaces/resolve';
import { auditEventEntity } from './entity';
import {
  canReadGroupAuditEvent,
  canReadInstanceAuditEvents,
  canReadProjectAuditEvent,
  groupAuditReach,
  groupReader,
  projectAuditReach,
  projectReader,
} from './policy';
import { countAuditEvents, findAuditEvent, listAuditEvents, type AuditFilter } from './queries';
import { INSTANCE_ENTITY_TYPE } from './service';

/** GitLab's AuditEventFinder::VALID_ENTITY_TYPES. */
export const ENTITY_TYPES = ['Project', 'User', 'Group', INSTANCE_ENTITY_TYPE] as const;

/** The date and cursor parameters of every audit event list. */
export const dateParams = { created_after: param.dateTime(), created_before: param.dateTime(), cursor: param.string() };

/** The date filter of a list's parameters. */
export function dates(i: { created_after?: Date | null; created_before?: Date | null }): AuditFilter {
  return { createdAfter: i.created_after ?? undefined, createdBefore: i.created_before ?? undefined };
}

function decodeCursor(cursor: string | null | undefined): number | undefined {
  if (!cursor) return undefined;
  try {
    const id = Number(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')).id);
    return Number.isSafeInteger(id) && id > 0 ? clampToInt4(id) : undefined;
  } catch {
    return undefined;
  }
}

async function keysetPage(ctx: RequestContext, filter: AuditFilter): Promise<Response> {
  const { perPage } = ctx.page();
  const rows = await listAuditEvents({ ...filter, beforeId: decodeCursor(ctx.input.cursor as string | undefined) }, 0, perPage + 1);
  const items = rows.slice(0, perPage);
  const headers: Record<string, string> = { 'X-Per-Page': String(perPage) };
  if (rows.length > perPage) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(ctx.linkParams)) if (k !== 'cursor' && k !== 'id' && k !== 'page' && typeof v === 'string') params.set(k, v);
    params.set('cursor', Buffer.from(JSON.stringify({ id: items[items.length - 1].id })).toString('base64url'));
    params.set('per_page', String(perPage));
    const base = new URL(externalUrl());
    headers.Link = `<${base.origin}${base.pathname.replace(/\/+$/, '')}${ctx.path}?${params}>; rel="next"`;
  }
  return json(items.map(auditEventEntity), 200, headers);
}

/** One page of events matching `filter`, offset or keyset as the request asks. */
export async function page(ctx: RequestContext, filter: AuditFilter): Promise<Response> {
  if (ctx.raw.pagination === 'keyset') return keysetPage(ctx, filter);
  const result = await ctx.paginate({
    fetch: (offset, limit) => listAuditEvents(filter, offset, limit),
    count: () => countAuditEvents(filter),
  });
  return paginated(result, auditEventEntity);
}

async function oneOr404(id: unknown, filter: AuditFilter) {
  const event = typeof id === 'number' ? await findAuditEvent(id, filter) : null;
  if (!event) throw recordNotFound();
  return auditEventEntity(event);
}

/** GET /audit_events: every event, for administrators. */
export const listInstanceAuditEvents = endpoint({
  params: { entity_type: param.string().values(ENTITY_TYPES), entity_id: param.integer(), ...dateParams },
  handle: async (ctx) => {
    if (!canReadInstanceAuditEvents(ctx.user().user)) throw forbidden();
    const i = ctx.input;
    // Grape's `given :entity_id { requires :entity_type }`.
    if (i.entity_id !== undefined && i.entity_id !== null && !i.entity_type) throw paramError(['entity_type is missing']);
    return page(ctx, { entityType: i.entity_type ?? undefined, entityId: i.entity_id ?? undefined, ...dates(i) });
  },
});

/** GET /audit_events/:id */
export const showInstanceAuditEvent = endpoint({
  params: { id: param.integer().required() },
  handle: async (ctx) => {
    if (!canReadInstanceAuditEvents(ctx.user().user)) throw forbidden();
    return oneOr404(ctx.input.id, {});
  },
});

/** The group and how much of its trail the actor sees (404 when the group is not visible, 403 below Developer). */
async function groupScope(ctx: RequestContext): Promise<AuditFilter> {
  const actor = ctx.user();
  const group = await findGroup(actor, ctx.pathParams.id);
  const reach = groupAuditReach(await groupReader(actor, group.id));
  if (reach === 'none') throw forbidden();
  return { groupId: group.id, authorId: reach === 'own' ? actor.user.id : undefined };
}

async function projectScope(ctx: RequestContext): Promise<AuditFilter> {
  const actor = ctx.user();
  const project = await findProject(actor, ctx.pathParams.id);
  const reach = projectAuditReach(await projectReader(actor, project.id));
  if (reach === 'none') throw forbidden();
  return { projectId: project.id, authorId: reach === 'own' ? actor.user.id : undefined };
}

/** GET /groups/:id/audit_events */
export const listGroupAuditEvents = endpoint({
  params: dateParams,
  handle: async (ctx) => page(ctx, { ...(await groupScope(ctx)), ...dates(ctx.input) }),
});

/** GET /groups/:id/audit_events/:audit_event_id (Owners). */
export const showGroupAuditEvent = endpoint({
  params: { audit_event_id: param.integer().required() },
  handle: async (ctx) => {
    const actor = ctx.user();
    const group = await findGroup(actor, ctx.pathParams.id);
    if (!canReadGroupAuditEvent(await groupReader(actor, group.id))) throw forbidden();
    return oneOr404(ctx.input.audit_event_id, { groupId: group.id });
  },
});

/** GET /projects/:id/audit_events */
export const listProjectAuditEvents = endpoint({
  params: dateParams,
  handle: async (ctx) => page(ctx, { ...(await projectScope(ctx)), ...dates(ctx.input) }),
});

/** GET /projects/:id/audit_events/:audit_event_id (Maintainers and above). */
export const showProjectAuditEvent = endpoint({
  params: { audit_event_id: param.integer().required() },
  handle: async (ctx) => {
    const actor = ctx.user();
    const project = await findProject(actor, ctx.pathParams.id);
    if (!canReadProjectAuditEvent(await projectReader(actor, project.id))) throw forbidden();
    return oneOr404(ctx.input.audit_event_id, { projectId: project.id });
  },
});
