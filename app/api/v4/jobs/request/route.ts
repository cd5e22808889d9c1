// POST /api/v4/jobs/request: gitlab-runner's job poll and heartbeat.
import { routes } from '@/lib/api/handler';
import { jobRequestEndpoint } from '@/lib/runners/agent-api';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: jobRequestEndpoint });
