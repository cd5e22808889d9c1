// Endpoint declarations of the runner tokens a user manages (GitLab's runners.rb and user runners API):
// POST /user/runners, POST /runners/:id/reset_authentication_token and the registration-token resets.
// The endpoints gitlab-runner calls with its own token are lib/runner-agent/handlers.ts.
import { endpoint } from '../api/handler';
import { paramError } from '../api/errors';
import { ANY_SAFE_INTEGER, param } from '../api/params';
import { created } from '../api/response';
import { auditIp } from '../audit/service';
import { createUserRunner, resetGroupRegistrationToken, resetInstanceRegistrationToken, resetProjectRegistrationToken, resetTokenById } from './registration';
import { parseTagList } from './tags';

const ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;
const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;

/** The runner attributes POST /runners and POST /user/runners both take. */
export const runnerAttributeParams = {
  description: param.string(),
  maintenance_note: param.string(),
  paused: param.boolean(),
  locked: param.boolean(),
  access_level: param.string().values(ACCESS_LEVELS),
  run_untagged: param.boolean(),
  tag_list: param.array(),
  // lib/runners/validation.ts names its limits (GitLab's model validation) before the column sees it.
  maximum_timeout: param.integer().range(ANY_SAFE_INTEGER),
};

/** POST /runners/:id/reset_authentication_token (user with update permission; `manage_runner` scope). */
export const resetByIdEndpoint = endpoint({
  scopes: ['manage_runner'],
  params: { id: param.integer().required() },
  async handle(ctx) {
    return created(await resetTokenById(ctx.user(), ctx.input.id as number, auditIp(ctx.req)));
  },
});

/** POST /user/runners: create a runner owned by the instance, a group or a project. */
export const createUserRunnerEndpoint = endpoint({
  scopes: ['create_runner'],
  params: {
    runner_type: param.string().required().values(RUNNER_TYPES),
    group_id: param.integer(),
    project_id: param.integer(),
    ...runnerAttributeParams,
    locked: param.boolean().default(false),
    run_untagged: param.boolean().default(true),
  },
  async handle(ctx) {
    const i = ctx.input;
    const type = i.runner_type as (typeof RUNNER_TYPES)[number];
    // Grape's `given runner_type:` blocks.
    if (type === 'group_type' && (i.group_id === undefined || i.group_id === null)) throw paramError(['group_id is missing']);
    if (type === 'project_type' && (i.project_id === undefined || i.project_id === null)) throw paramError(['project_id is missing']);
    return created(
      await createUserRunner(
        ctx.user(),
        {
          runnerType: type,
          groupId: i.group_id ?? undefined,
          projectId: i.project_id ?? undefined,
          description: i.description ?? null,
          maintenanceNote: i.maintenance_note ?? null,
          active: i.paused === undefined || i.paused === null ? true : !i.paused,
          locked: i.locked ?? false,
          runUntagged: i.run_untagged ?? true,
          tagList: i.tag_list !== undefined ? parseTagList(ctx.raw.tag_list) : undefined,
          accessLevel: i.access_level ?? undefined,
          maximumTimeout: i.maximum_timeout ?? null,
        },
        auditIp(ctx.req),
      ),
    );
  },
});

/** POST /runners/reset_registration_token (instance). */
export const resetInstanceRegistrationTokenEndpoint = endpoint({
  async handle(ctx) {
    return created(await resetInstanceRegistrationToken(ctx.user(), auditIp(ctx.req)));
  },
});

/** POST /projects/:id/runners/reset_registration_token */
export const resetProjectRegistrationTokenEndpoint = endpoint({
  params: { id: param.string().required() },
  async handle(ctx) {
    return created(await resetProjectRegistrationToken(ctx.user(), ctx.input.id as string, auditIp(ctx.req)));
  },
});

/** POST /groups/:id/runners/reset_registration_token */
export const resetGroupRegistrationTokenEndpoint = endpoint({
  params: { id: param.string().required() },
  async handle(ctx) {
    return created(await resetGroupRegistrationToken(ctx.user(), ctx.input.id as string, auditIp(ctx.req)));
  },
});
