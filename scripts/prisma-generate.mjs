#!/usr/bin/env node
// Generates the Prisma client. The CLI insists on a schema-engine binary even though `generate`
// never runs it, and that binary cannot be downloaded here: point it at any existing file.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
const result = spawnSync(process.execPath, [cli, 'generate', '--schema', 'prisma/schema.prisma'], {
  cwd: root,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
process.exit(result.status ?? 1);
