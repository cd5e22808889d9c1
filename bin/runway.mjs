#!/usr/bin/env node
// The `runway` command. It runs the TypeScript sources directly (through tsx), from the package root.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
process.env.RUNWAY_ROOT ??= root;
register();
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2));
