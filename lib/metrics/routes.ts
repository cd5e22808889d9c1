// Route templates for the request-duration histogram, read from the app/ folder at start: a label per
// route file or page (`/api/v4/runners/:id`), never per URL, so the series stay bounded.
import { readdirSync } from 'node:fs';
import path from 'node:path';

interface Template {
  label: string;
  segments: string[];
}

const ENTRY_FILES = /^(route|page)\.(ts|tsx|js|jsx)$/;

/**
 * Folder names under app/ that hold a route or page, as URL segment patterns, plus `served` paths the
 * http wrapper answers itself (the monitoring endpoints), each its own label.
 */
export function scanTemplates(appDir: string, served: readonly string[] = []): Template[] {
  const out: Template[] = served.map((p) => ({ label: p, segments: p.split('/').filter(Boolean) }));
  const walk = (dir: string, segments: string[]) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.isFile() && ENTRY_FILES.test(e.name))) out.push(toTemplate(segments));
    for (const e of entries) {
      if (!e.isDirectory() || e.name.startsWith('_') || e.name.startsWith('@')) continue;
      // Route groups `(dashboard)` add no URL segment.
      walk(path.join(dir, e.name), /^\(.*\)$/.test(e.name) ? segments : [...segments, e.name]);
    }
  };
  walk(appDir, []);
  return out.sort(bySpecificity);
}

// `[...path]` and the optional `[[...path]]` both label as `*`; `[id]` as `:id`.
const CATCH_ALL = /^\[\[?\.\.\.[^\]]+\]\]?$/;
function toTemplate(segments: string[]): Template {
  const label = '/' + segments.map((s) => (CATCH_ALL.test(s) ? '*' : s.replace(/^\[(.+)\]$/, ':$1'))).join('/');
  return { label, segments };
}

// Static segments before dynamic ones before catch-alls, as Next.js matches them.
const rank = (s: string) => (s.startsWith('[...') || s.startsWith('[[...') ? 2 : s.startsWith('[') ? 1 : 0);
function bySpecificity(a: Template, b: Template): number {
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const ra = a.segments[i] === undefined ? -1 : rank(a.segments[i]);
    const rb = b.segments[i] === undefined ? -1 : rank(b.segments[i]);
    if (ra !== rb) return ra - rb;
  }
  return b.segments.length - a.segments.length;
}

/** The template a path is served by, or `other` (static files, unknown paths). */
export function matchTemplate(templates: Template[], urlPath: string): string {
  const parts = urlPath.split('/').filter(Boolean);
  for (const t of templates) if (matches(t.segments, parts)) return t.label;
  return 'other';
}

function matches(segments: string[], parts: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s.startsWith('[[...')) return true;
    if (s.startsWith('[...')) return parts.length > i;
    if (i >= parts.length) return false;
    if (s.startsWith('[')) continue;
    if (s !== parts[i]) return false;
  }
  return parts.length === segments.length;
}
