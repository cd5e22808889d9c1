// GET, PUT, DELETE /api/v4/projects/:id (numeric id or URL-encoded full path)
import { endpoint, routes } from '@/lib/api/handler';
import { showProjectHandler } from '@/lib/projects/handlers';
import { deleteProjectHandler, updateProjectHandler } from '@/lib/projects/handlers';
import { updateProjectParams, updateProjectRules } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', handle: showProjectHandler }),
  PUT: endpoint({ params: updateProjectParams, rules: updateProjectRules, handle: updateProjectHandler }),
  DELETE: endpoint({ handle: deleteProjectHandler }),
});
