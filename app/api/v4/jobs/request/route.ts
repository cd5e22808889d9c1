// POST /api/v4/jobs/request: gitlab-runner's job poll and heartbeat (also served by the fast path).
import { jobRequestRoute } from '@/lib/runner-agent/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = jobRequestRoute;
