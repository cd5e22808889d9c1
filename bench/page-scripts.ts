// The scripts a page loads, each gzipped (zlib's default level, as the server's compression): what the
// page benchmarks report as first-load JavaScript.
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';

export interface ScriptSize {
  url: string;
  raw: number;
  gzip: number;
}

/** Starts collecting the page's script responses; the returned function sizes them, largest first. */
export function collectScripts(page: Page): () => Promise<ScriptSize[]> {
  const scripts = new Map<string, Promise<Buffer>>();
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script' && r.ok()) scripts.set(r.url(), r.body());
  });
  return async () => {
    const rows: ScriptSize[] = [];
    for (const [url, body] of scripts) {
      const b = await body;
      rows.push({ url: new URL(url).pathname, raw: b.length, gzip: gzipSync(b).length });
    }
    return rows.sort((a, b) => b.gzip - a.gzip);
  };
}
