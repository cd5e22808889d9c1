// GET /api/v4/projects/:id/merge_requests/:merge_request_iid
import { endpoint, routes } from '@/lib/api/handler';
import { mrIidParams, showMrHandler } from '@/lib/merge-requests/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: mrIidParams, handle: showMrHandler }),
});
