// Endpoint declarations (parameters, authentication, domain call) of the runner-facing API gitlab-runner
// calls with its token (GitLab's runner.rb): register, unregister, verify, manager removal, token reset
// and the job poll. The user-facing creation and token resets are lib/runners/registration-handlers.ts.
import { endpoint } from '../api/handler';
import { paramError, validationError } from '../api/errors';
import { param } from '../api/params';
import { created, noContent, retryLater } from '../api/response';
import {
  heartbeat,
  heartbeatFlushSeconds,
  heartbeatIfDue,
  LEGACY_SYSTEM_XID,
  recordContact,
  runnerInfo,
  SYSTEM_XID_MAX_LENGTH,
  lastUpdateValue,
} from './heartbeat';
import {
  deleteRunnerManager,
  registerRunner,
  registrationDetails,
  resetTokenByToken,
  resetTokenResult,
  unregisterRunner,
  type NewRunnerAttributes,
} from '../runners/registration';
import { checkUnmodifiedSince } from '../api/preconditions';
import { parseTagList } from '../runners/tags';
import { findRunnerForContact } from '../runners/tokens';
import { runnerAttributeParams } from '../runners/registration-handlers';
import { findPollingRunner, type PollingRunner } from './contact-cache';
import { forbidden } from '../api/errors';
import type { RequestContext } from '../api/handler';
import { auditIp } from '../audit/service';
import { holdWhileUnchanged, longPollingSeconds, TOO_MANY_HELD_POLLS } from './long-poll';

/** Runner-facing endpoints authenticate with the runner token, not a user: user credentials are not read at all. */
const RUNNER_AUTH = { auth: 'none' } as const;

/**
 * The runner token: the `token` parameter (body or query), else the RUNNER-TOKEN header (gitlab-runner 17.11+).
 * Grape's 400 when neither is there.
 */
function runnerToken(ctx: RequestContext): string {
  const raw = ctx.raw.token;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number') return String(raw);
  const header = ctx.req.headers.get('runner-token');
  if (header !== null) return header.trim();
  throw paramError([raw === undefined ? 'token is missing' : 'token is invalid']);
}

function systemXid(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') return LEGACY_SYSTEM_XID;
  const s = String(raw);
  if (s.length > SYSTEM_XID_MAX_LENGTH) throw validationError({ system_xid: [`is too long (maximum is ${SYSTEM_XID_MAX_LENGTH} characters)`] });
  return s;
}

/** POST /runners: register with a registration token. */
export const registerEndpoint = endpoint({
  ...RUNNER_AUTH,
  params: {
    token: param.string().required(),
    ...runnerAttributeParams,
    maintainer_note: param.string(),
    info: param.hash(),
    active: param.boolean(),
  },
  rules: {
    mutuallyExclusive: [
      ['maintainer_note', 'maintenance_note'],
      ['active', 'paused'],
    ],
  },
  async handle(ctx) {
    const i = ctx.input;
    const name = i.info && typeof i.info.name === 'string' ? i.info.name : null;
    const attrs: NewRunnerAttributes = {
      description: i.description ?? null,
      name,
      maintenanceNote: i.maintenance_note ?? i.maintainer_note ?? null,
      active: i.paused !== undefined && i.paused !== null ? !i.paused : (i.active ?? true),
      locked: i.locked ?? undefined,
      runUntagged: i.run_untagged ?? undefined,
      tagList: i.tag_list !== undefined ? parseTagList(ctx.raw.tag_list) : undefined,
      accessLevel: i.access_level ?? undefined,
      maximumTimeout: i.maximum_timeout ?? null,
    };
    return created(await registerRunner(i.token ?? '', attrs, auditIp(ctx.req)));
  },
});

/** DELETE /runners: unregister by authentication token (body or query). */
export const unregisterEndpoint = endpoint({
  ...RUNNER_AUTH,
  async handle(ctx) {
    await unregisterRunner(runnerToken(ctx), auditIp(ctx.req), (updatedAt) => checkUnmodifiedSince(ctx.req, updatedAt));
    return noContent();
  },
});

/**
 * Authenticates a polling runner (403 for an unknown or expired token) and records its contact: the runner
 * read from the runner cache (lib/runner-agent/contact-cache), what is new written at once and the rest
 * buffered (recordContact), so a poll of a known runner costs no statement; or, with
 * RUNWAY_HEARTBEAT_FLUSH_SECONDS=0, read and written when due, per poll.
 * A too-long system_id answers 400 only after the token was accepted, and before anything is recorded.
 */
async function pollingRunner(ctx: RequestContext, token: string, finish: boolean): Promise<PollingRunner> {
  let xid: string | undefined;
  let invalid: unknown;
  try {
    xid = systemXid(ctx.input.system_id);
  } catch (err) {
    invalid = err;
  }
  const contact = { systemXid: xid ?? LEGACY_SYSTEM_XID, info: runnerInfo(ctx.input.info), ip: auditIp(ctx.req), finish };
  if (!heartbeatFlushSeconds()) {
    const runner = await findRunnerForContact(token, contact.systemXid);
    if (!runner) throw forbidden();
    if (invalid !== undefined) throw invalid;
    await heartbeatIfDue(runner, contact);
    return runner;
  }
  const runner = await findPollingRunner(token, { systemXid: contact.systemXid });
  if (!runner) throw forbidden();
  if (invalid !== undefined) throw invalid;
  await recordContact(token, runner, contact);
  return runner;
}

/** The runner of a poll now (a held poll re-reads it): `fresh` skips the runner cache. */
async function currentRunner(token: string, fresh: boolean): Promise<PollingRunner | null> {
  if (!heartbeatFlushSeconds()) return findRunnerForContact(token, LEGACY_SYSTEM_XID);
  return findPollingRunner(token, { fresh });
}

/** POST /runners/verify: 200 with the runner's id and token; records the contact and the manager. */
export const verifyEndpoint = endpoint({
  ...RUNNER_AUTH,
  params: { system_id: param.string(), info: param.hash() },
  async handle(ctx) {
    const token = runnerToken(ctx);
    const runner = await pollingRunner(ctx, token, false);
    return registrationDetails(runner.id, token, runner.tokenExpiresAt);
  },
});

/** DELETE /runners/managers: unregister one runner manager (glrt- runners). */
export const deleteManagerEndpoint = endpoint({
  ...RUNNER_AUTH,
  async handle(ctx) {
    const hasToken = ctx.raw.token !== undefined || ctx.req.headers.get('runner-token') !== null;
    const sid = ctx.raw.system_id;
    const missing = [...(hasToken ? [] : ['token is missing']), ...(sid === undefined ? ['system_id is missing'] : [])];
    if (missing.length) throw paramError(missing);
    await deleteRunnerManager(runnerToken(ctx), String(sid));
    return noContent();
  },
});

/** POST /runners/reset_authentication_token: rotate with the current token. */
export const resetByTokenEndpoint = endpoint({
  ...RUNNER_AUTH,
  params: { token: param.string().required(), system_id: param.string() },
  async handle(ctx) {
    const result = await resetTokenByToken(ctx.input.token ?? '', auditIp(ctx.req));
    // GitLab authenticates (and so heartbeats) the runner before rotating.
    await heartbeat(result.runnerId, { systemXid: systemXid(ctx.input.system_id), info: {}, ip: auditIp(ctx.req), finish: false });
    return created(resetTokenResult(result.token, result.tokenExpiresAt));
  },
});

/** POST /jobs/request: the runner's poll. Runway schedules no jobs, so a healthy runner always gets 204. */
export const jobRequestEndpoint = endpoint({
  ...RUNNER_AUTH,
  params: { system_id: param.string(), last_update: param.string(), info: param.hash(), session: param.hash() },
  async handle(ctx) {
    const token = runnerToken(ctx);
    const runner = await pollingRunner(ctx, token, true);
    // Paused or not, there is no job to hand out: 204 with the queue value, held first while it still
    // equals last_update (long polling; a change re-authenticates the runner).
    const value = await holdWhileUnchanged({
      runnerId: runner.id,
      lastUpdate: ctx.input.last_update,
      value: lastUpdateValue(runner),
      signal: ctx.req.signal,
      reread: async (fresh) => {
        const now = await currentRunner(token, fresh);
        return now ? lastUpdateValue(now) : null;
      },
    });
    if (value === null) throw forbidden();
    // Retried after as long as the poll would have been held: the runner's held polls learn any change.
    if (value === TOO_MANY_HELD_POLLS) return retryLater(longPollingSeconds());
    return noContent({ 'X-GitLab-Last-Update': value });
  },
});
