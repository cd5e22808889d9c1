#!/usr/bin/env node
// The `runway` command of a checkout. It runs the TypeScript sources directly (through tsx, a development
// dependency), from the package root. A production install runs the compiled artifact instead
// (`npm run package`, then dist/bin/runway): docs/install.md, "Production install".
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
  console.error(
    'runway: this checkout runs from its TypeScript sources, which need the development dependencies (npm ci).\n' +
      'For a production install, build the artifact with `npm run package` and run dist/bin/runway (docs/install.md: "Production install").',
  );
  process.exit(1);
}
process.chdir(root);
process.env.RUNWAY_ROOT ??= root;
register();
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2));
