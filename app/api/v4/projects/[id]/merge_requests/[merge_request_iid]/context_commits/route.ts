// GET, POST, DELETE /api/v4/projects/:id/merge_requests/:merge_request_iid/context_commits
// (merge_request_iid is not declared an Integer here, as in GitLab: a bad iid is a 404, not a 400).
import { endpoint, routes } from '@/lib/api/handler';
import { addContextCommitsHandler, contextCommitsParams, listContextCommitsHandler, removeContextCommitsHandler } from '@/lib/merge-requests/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', handle: listContextCommitsHandler }),
  POST: endpoint({ params: contextCommitsParams, handle: addContextCommitsHandler }),
  DELETE: endpoint({ params: contextCommitsParams, handle: removeContextCommitsHandler }),
});
