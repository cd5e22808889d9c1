// The configuration reference's settings table, from lib/config/env.ts alone: each setting's name and schema (allowed values),
// and its JSDoc (description, `@default` as an operator reads it, `@values` where the type does not say).
// `npm run docs:generate` writes docs/configuration.md's settings table and .env.example with it, and copies the
// deploy/ files docs/operations.md includes into it; a unit test fails when any is stale, so none can drift.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import ts from 'typescript';
import type { z } from 'zod';
import { settingsSchema } from '../lib/config/env';

export const ROOT = path.resolve(import.meta.dirname, '..');
const ENV_FILE = 'lib/config/env.ts';
export const GENERATED = { reference: 'docs/configuration.md', example: '.env.example', operations: 'docs/operations.md' } as const;

export interface Setting {
  name: string;
  description: string;
  /** As written in `@default`; undefined when unset by default. */
  default?: string;
  values: string;
}

/** The JSDoc above each property of `const schema = z.object({...})`, by property name. */
function jsdocByKey(): Map<string, string> {
  const text = readFileSync(path.join(ROOT, ENV_FILE), 'utf8');
  const source = ts.createSourceFile(ENV_FILE, text, ts.ScriptTarget.Latest, true);
  const docs = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText() === 'schema' && node.initializer && ts.isCallExpression(node.initializer)) {
      const [shape] = node.initializer.arguments;
      if (shape && ts.isObjectLiteralExpression(shape)) {
        for (const prop of shape.properties) {
          const ranges = ts.getLeadingCommentRanges(text, prop.getFullStart()) ?? [];
          const doc = ranges.map((r) => text.slice(r.pos, r.end)).findLast((c) => c.startsWith('/**'));
          if (prop.name && doc) docs.set(prop.name.getText(), doc);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return docs;
}

function parseJsdoc(doc: string): { description: string; tags: Record<string, string> } {
  const lines = doc
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, '').trimEnd());
  const description: string[] = [];
  const tags: Record<string, string> = {};
  let current: string | undefined;
  for (const line of lines) {
    const tag = /^@(\w+)\s*(.*)$/.exec(line);
    if (tag) {
      current = tag[1];
      tags[current] = tag[2];
    } else if (current) tags[current] += line ? ` ${line.trim()}` : '';
    else if (line.trim()) description.push(line.trim());
  }
  return { description: description.join(' '), tags };
}

type Zod = z.ZodType & { _zod: { def: { type: string; innerType?: Zod; entries?: Record<string, string> } } };

/** The allowed values the schema itself states: integer ranges, enums, booleans. */
function valuesFromSchema(field: Zod): string | undefined {
  let t = field;
  while (t._zod.def.type === 'optional' || t._zod.def.type === 'default') t = t._zod.def.innerType!;
  if (t._zod.def.type === 'number') {
    const n = t as unknown as z.ZodNumber;
    return `integer from ${n.minValue} to ${n.maxValue}`;
  }
  if (t._zod.def.type === 'enum')
    return Object.values(t._zod.def.entries!)
      .map((v) => `\`${v}\``)
      .join(', ');
  const accepts = (v: string) => field.safeParse(v).success;
  if (accepts('true') && accepts('false') && !accepts('maybe')) return '`true` or `false` (also `1`/`0`, `yes`/`no`)';
  return undefined;
}

export function settings(): Setting[] {
  const docs = jsdocByKey();
  return Object.entries(settingsSchema.shape).map(([name, field]) => {
    const doc = docs.get(name);
    if (!doc) throw new Error(`${ENV_FILE}: ${name} has no JSDoc comment (its description in the configuration reference)`);
    const { description, tags } = parseJsdoc(doc);
    const values = tags.values ?? valuesFromSchema(field as Zod);
    if (!values) throw new Error(`${ENV_FILE}: ${name} needs an @values tag (its type does not say which values it takes)`);
    return { name, description, default: tags.default, values };
  });
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/**
 * The settings table's place in docs/configuration.md: `npm run docs:generate` rewrites what lies between these
 * two lines and keeps the page's written sections (imports, the secret, limits, the sign-in lock) as they are.
 */
export const TABLE_START = '<!-- settings: generated from lib/config/env.ts by `npm run docs:generate`; edit the JSDoc there, not this table -->';
export const TABLE_END = '<!-- end of settings -->';

/** docs/configuration.md (`text`) with its settings table written afresh from the schema's JSDoc. */
export function renderReference(text: string, list = settings()): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${GENERATED.reference} has lost the lines around its settings table: ${TABLE_START} ... ${TABLE_END}`);
  const table = [
    '| variable | default | allowed values | description |',
    '| --- | --- | --- | --- |',
    ...list.map((s) => `| \`${s.name}\` | ${cell(s.default ?? 'unset')} | ${cell(s.values)} | ${cell(s.description)} |`),
  ];
  return `${text.slice(0, start + TABLE_START.length)}\n\n${table.join('\n')}\n\n${text.slice(end)}`;
}

/** Values that make .env.example the settings file of compose.yaml (its `postgres` service) as it is. */
const EXAMPLE_VALUES: Record<string, string> = {
  DATABASE_URL: 'postgresql://runway:change-me-database-password@postgres:5432/runway',
  RUNWAY_SECRET: 'change-me-to-32-or-more-random-characters',
  RUNWAY_EXTERNAL_URL: 'http://localhost:3000',
};

/** A default as a value to write after `=`: a single literal in backquotes, else nothing. */
function literalDefault(text: string | undefined): string {
  const m = /^`([^`]*)`(?:\s|$)/.exec(text ?? '');
  return m && !m[1].includes('$') && !/^[A-Z_]+$/.test(m[1]) ? m[1] : '';
}

function wrap(text: string, width = 110): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > width && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** `<!-- include: <file> -->`, a blank line and a fenced block: the block holds that file of the repository. */
const INCLUDE = /(<!-- include: (\S+) -->\n\n```[a-z]*\n)([\s\S]*?)(```\n)/g;

/** The files docs/operations.md includes. */
export function includedFiles(text: string): string[] {
  return [...text.matchAll(INCLUDE)].map((m) => m[2]);
}

/** docs/operations.md with every included file's block refreshed from the file itself. */
export function renderIncludes(text: string): string {
  return text.replace(INCLUDE, (_all, head: string, file: string, _body: string, tail: string) => {
    const content = readFileSync(path.join(ROOT, file), 'utf8');
    return `${head}${content.endsWith('\n') ? content : `${content}\n`}${tail}`;
  });
}

/** The files `npm run docs:generate` writes, as they are to be on disk (Markdown in the repository's Prettier style). */
export async function renderAll(list = settings()): Promise<Record<string, string>> {
  const file = path.join(ROOT, GENERATED.reference);
  const options = { ...(await prettier.resolveConfig(file)), filepath: file };
  return {
    [GENERATED.reference]: await prettier.format(renderReference(readFileSync(file, 'utf8'), list), options),
    [GENERATED.example]: renderExample(list),
    [GENERATED.operations]: renderIncludes(readFileSync(path.join(ROOT, GENERATED.operations), 'utf8')),
  };
}

export function renderExample(list = settings()): string {
  const out = [
    "# Runway's settings, every one with its default (generated from lib/config/env.ts by `npm run docs:generate`;",
    '# docs/configuration.md is the reference). The one settings file of the systemd unit, compose.yaml, the',
    '# Kubernetes Secret and every `runway` command (`runway --config <file>`, else /etc/runway/runway.env): copy',
    '# it to runway.env and replace every change-me. Lines starting with # are unset: Runway uses the default.',
    '# Write values without quotes: systemd, Docker and Runway read this file alike only then.',
    '#',
    "# With compose.yaml, DATABASE_URL's password is postgres.env's POSTGRES_PASSWORD (postgres.env.example).",
  ];
  for (const s of list) {
    out.push('', ...wrap(s.description), `# Default: ${s.default ?? 'unset'}. Values: ${s.values}.`.replace(/\.\.$/, '.'));
    out.push(s.name in EXAMPLE_VALUES ? `${s.name}=${EXAMPLE_VALUES[s.name]}` : `#${s.name}=${literalDefault(s.default)}`);
  }
  return `${out.join('\n')}\n`;
}
