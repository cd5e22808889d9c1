// The configuration reference's settings table and .env.example are generated from lib/config/env.ts: they
// fail here when stale (run `npm run docs:generate`), and the generation itself is checked against the schema.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEnv, settingsSchema } from '../lib/config/env';
import { GENERATED, includedFiles, renderAll, ROOT, settings, TABLE_END, TABLE_START } from './config-reference';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('[OPS] configuration reference', () => {
  it.each(Object.values(GENERATED))('%s is what `npm run docs:generate` writes now', async (file) => {
    const expected = (await renderAll())[file];
    expect(read(file), `${file} is stale: run npm run docs:generate`).toBe(expected);
  });

  it("documents every setting with a description, and a default that is the schema's", () => {
    const list = settings();
    expect(list.map((s) => s.name)).toEqual(Object.keys(settingsSchema.shape));
    for (const s of list) {
      expect(s.description.length, s.name).toBeGreaterThan(15);
      const value = (settingsSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>)[s.name].safeParse(undefined);
      const data = value.success ? value.data : undefined;
      if (['number', 'string', 'boolean'].includes(typeof data) && data !== '') expect(s.default, s.name).toContain(`\`${String(data)}\``);
      // Optional settings whose default code elsewhere applies (RUNWAY_DB_POOL_MAX, ...) say it in words.
    }
  });

  it(".env.example's active lines are a valid configuration, and every other setting is there commented out", () => {
    const text = read(GENERATED.example);
    const active = Object.fromEntries(
      text
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(() => readEnv(active)).not.toThrow();
    for (const name of Object.keys(settingsSchema.shape)) expect(text).toMatch(new RegExp(`^#?${name}=`, 'm'));
  });

  it("lists every setting in the reference's table, which the README and the docs index link", () => {
    const reference = read(GENERATED.reference);
    const table = reference.slice(reference.indexOf(TABLE_START), reference.indexOf(TABLE_END));
    const names = [...table.matchAll(/^\| `([A-Z_]+)`/gm)].map((m) => m[1]);
    expect(names).toEqual(Object.keys(settingsSchema.shape));
    const readme = read('README.md');
    expect(readme).toContain('(docs/configuration.md)');
    expect(readme).toContain('(.env.example)');
    expect(read('docs/index.md')).toContain('(configuration.md)');
  });

  it("includes every proxy and pooler file of deploy/ in the operator's guide", () => {
    const included = includedFiles(read(GENERATED.operations));
    expect(included.sort()).toEqual(['deploy/haproxy/haproxy.cfg', 'deploy/nginx/runway.conf', 'deploy/pgbouncer/pgbouncer.ini']);
  });

  it("uses only real settings, with valid values, in the guide's settings blocks", () => {
    const blocks = [...read(GENERATED.operations).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    const settingsBlocks = blocks.filter((b) => b.split('\n').every((l) => !l.trim() || /^[A-Z_]+=/.test(l)));
    expect(settingsBlocks.length).toBeGreaterThanOrEqual(2);
    for (const block of settingsBlocks) {
      const vars = Object.fromEntries(
        block
          .replace(/#.*$/gm, '')
          .replace(/<password>/g, 'secret')
          .split(/\s+/)
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      );
      for (const name of Object.keys(vars)) expect(Object.keys(settingsSchema.shape), name).toContain(name);
      expect(() => readEnv(vars), block).not.toThrow();
    }
  });
});
