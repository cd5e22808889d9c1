// GET /api/v4/projects/:id (numeric id or URL-encoded full path); PUT: the project's runner settings.
import { endpoint, routes } from '@/lib/api/handler';
import { showProjectHandler, updateProjectHandler } from '@/lib/namespaces/handlers';
import { updateProjectParams, updateProjectRules } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', handle: showProjectHandler }),
  PUT: endpoint({ params: updateProjectParams, rules: updateProjectRules, handle: updateProjectHandler }),
});
