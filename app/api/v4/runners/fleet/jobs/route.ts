// GET /api/v4/runners/fleet/jobs?days=7: jobs per day, queued duration, busiest and longest-queued runners (Runway extension, admins).
import { routes } from '@/lib/api/handler';
import { fleetJobs } from '@/lib/fleet/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: fleetJobs });
