// Every /api path outside v4, v3 and next-auth (`/api`, `/api/v4.json`, `/api/v5/...`): GitLab's JSON 404, not
// the dashboard's HTML page.
import { routes } from '@/lib/api/handler';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({});
