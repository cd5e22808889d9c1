// /api/v4/runners: GET lists the caller's runners (runners-admin's handler); POST registers a runner with
// a registration token; DELETE unregisters the runner holding the token.
import { routes } from '@/lib/api/handler';
import { registerEndpoint, unregisterEndpoint } from '@/lib/runner-agent/handlers';
import { listOwnedRunners } from '@/lib/runners/list-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: listOwnedRunners,
  POST: registerEndpoint,
  DELETE: unregisterEndpoint,
});
