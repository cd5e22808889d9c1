// The documentation pages of this installation, read from its docs/ folder (a checkout's, or the one the
// packaged artifact carries), for the dashboard's /help/docs/<page>. Read at each request, never built in: the
// page shows what the running installation ships.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../config/paths';
import { docsPage, splitTitle, type DocsPage } from './docs-pages';

export interface DocsDocument {
  page: DocsPage;
  /** The page's first-level heading (its label when it has none). */
  title: string;
  /** The page's Markdown, the title left out. */
  markdown: string;
}

export const DOCS_DIR = 'docs';

/** The listed page at `slug`, or null for any other address (no path reaches another file). */
export async function readDocsPage(slug: string): Promise<DocsDocument | null> {
  const page = docsPage(slug);
  if (!page) return null;
  const { title, body } = splitTitle(await readFile(path.join(projectRoot(), DOCS_DIR, page.file), 'utf8'));
  return { page, title: title ?? page.label, markdown: body };
}
