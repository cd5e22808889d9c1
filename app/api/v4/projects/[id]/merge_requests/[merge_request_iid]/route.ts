// GET, PUT, DELETE /api/v4/projects/:id/merge_requests/:merge_request_iid
import { endpoint, routes } from '@/lib/api/handler';
import { deleteMrHandler, mrIidParams, showMrHandler, updateMrHandler, updateMrParams, updateMrRules } from '@/lib/merge-requests/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: mrIidParams, handle: showMrHandler }),
  PUT: endpoint({ params: updateMrParams, rules: updateMrRules, handle: updateMrHandler }),
  DELETE: endpoint({ params: mrIidParams, handle: deleteMrHandler }),
});
