// `npm run docs:generate`: writes the configuration reference (docs/configuration.md) and .env.example from
// lib/config/env.ts (scripts/config-reference.ts). Run it after changing a setting; a unit test fails until then.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderAll, ROOT } from './config-reference';

for (const [file, text] of Object.entries(await renderAll())) {
  writeFileSync(path.join(ROOT, file), text);
  console.log(`wrote ${file}`);
}
