// GET /api/v4/projects/:id/merge_requests/:merge_request_iid/commits
import { endpoint, routes } from '@/lib/api/handler';
import { mrCommitsHandler, mrIidParams } from '@/lib/merge-requests/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: mrIidParams, handle: mrCommitsHandler }),
});
