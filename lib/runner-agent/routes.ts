// The route objects of the endpoints gitlab-runner calls on every poll. The route files under
// app/api/v4 export these (Next.js serves them), and the http wrapper's fast path calls the very same
// objects without Next.js's router (lib/runner-agent/fast-path.ts): one declaration, two ways in.
import { routes } from '../api/handler';
import { jobRequestEndpoint, verifyEndpoint } from './handlers';

/** POST /api/v4/jobs/request: the job poll and heartbeat. */
export const jobRequestRoute = routes({ POST: jobRequestEndpoint });

/** POST /api/v4/runners/verify: the runner checks its authentication token. */
export const verifyRoute = routes({ POST: verifyEndpoint });

/** Path -> route object, for the fast path. Every path here has a route file exporting the same object. */
export const RUNNER_AGENT_ROUTES: ReadonlyMap<string, ReturnType<typeof routes>> = new Map([
  ['/api/v4/jobs/request', jobRequestRoute],
  ['/api/v4/runners/verify', verifyRoute],
]);
