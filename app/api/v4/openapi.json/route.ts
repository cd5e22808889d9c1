// GET /api/v4/openapi.json: the OpenAPI 3.1 document of every /api/v4 route (Runway extension).
import { endpoint, routes } from '@/lib/api/handler';
import { externalUrl } from '@/lib/config/env';
import { openApiDocument } from '@/lib/openapi/document';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', handle: () => openApiDocument(externalUrl()) }),
});
