// GET /api/v4/openapi.json: the OpenAPI 3.1 document of every /api/v4 route (Runway extension). The
// document describes this route too: it is handed this route's handlers, since the route index leaves
// this file out (importing it there would close an import circle).
import { endpoint, routes } from '@/lib/api/handler';
import { externalUrl } from '@/lib/config/env';
import { openApiDocument } from '@/lib/openapi/document';

const handlers = routes({
  GET: endpoint({ auth: 'optional', handle: () => openApiDocument(externalUrl(), { path: '/openapi.json', module: handlers }) }),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = handlers;
