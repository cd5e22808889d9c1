// `npm run openapi:generate`: writes what the OpenAPI document is built from and cannot read at run time:
// the index of route files (lib/openapi/route-index.generated.ts) and the entity schemas read off the
// entity functions' types (lib/openapi/entities.generated.json). A test fails when either is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { entitySchemas } from '../lib/openapi/entity-schemas';
import { routeIndexSource } from '../lib/openapi/route-files';

const root = path.resolve(import.meta.dirname, '..');
const write = (rel: string, text: string) => {
  writeFileSync(path.join(root, rel), text);
  console.log(`wrote ${rel}`);
};
write('lib/openapi/route-index.generated.ts', routeIndexSource(root));
write('lib/openapi/entities.generated.json', JSON.stringify(entitySchemas(root), null, 1) + '\n');
