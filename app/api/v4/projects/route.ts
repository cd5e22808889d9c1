// GET, POST /api/v4/projects
import { endpoint, routes } from '@/lib/api/handler';
import { createProjectHandler, listProjectsHandler } from '@/lib/projects/handlers';
import { createProjectParams, createProjectRules, listProjectsParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listProjectsParams, handle: listProjectsHandler }),
  POST: endpoint({ params: createProjectParams, rules: createProjectRules, handle: createProjectHandler }),
});
