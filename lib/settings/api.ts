// GET/PUT /application/settings (admin): the runner-related instance settings and the local-network switch for imports.
import { endpoint } from '../api/handler';
import { ANY_SAFE_INTEGER, param } from '../api/params';
import { RUNNER_TYPES } from './runner-constants';
import { currentSettings, requireAdmin, settingsEntity, updateSettings, VALID_RUNNER_REGISTRAR_TYPES } from './application';

export const getSettingsEndpoint = endpoint({
  async handle(ctx) {
    requireAdmin(ctx.user());
    return settingsEntity(await currentSettings());
  },
});

const FIELDS = {
  allow_local_requests_from_web_hooks_and_services: param.boolean(),
  allow_runner_registration_token: param.boolean(),
  valid_runner_registrars: param.array().values(VALID_RUNNER_REGISTRAR_TYPES as unknown as string[][]),
  // updateSettings validates these and stale_runner_cleanup_days with GitLab's messages.
  runner_token_expiration_interval: param.integer().range(ANY_SAFE_INTEGER),
  group_runner_token_expiration_interval: param.integer().range(ANY_SAFE_INTEGER),
  project_runner_token_expiration_interval: param.integer().range(ANY_SAFE_INTEGER),
  // Runway extension: the daily stale-runner cleanup (documented in docs/api.md).
  stale_runner_cleanup_enabled: param.boolean(),
  stale_runner_cleanup_days: param.integer().range(ANY_SAFE_INTEGER),
  stale_runner_cleanup_runner_type: param.string().values(RUNNER_TYPES),
  stale_runner_cleanup_owner_group_id: param.integer(),
  stale_runner_cleanup_owner_project_id: param.integer(),
  // GitLab's runner version management; Runway's default is off (docs/api.md).
  update_runner_versions_enabled: param.boolean(),
  public_runner_releases_url: param.string(),
};

export const updateSettingsEndpoint = endpoint({
  // GitLab checks admin before parameters (before { authenticated_as_admin! }).
  before: (ctx) => requireAdmin(ctx.user()),
  params: FIELDS,
  rules: { atLeastOneOf: [Object.keys(FIELDS)] },
  async handle(ctx) {
    return settingsEntity(await updateSettings(ctx.user(), ctx.input));
  },
});
