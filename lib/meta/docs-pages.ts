// The pages of docs/ the dashboard's Help menu links (/help/docs/<slug>), in reading order, where a link
// written between the files of the repository leads in the dashboard, and a page's title. Plain data and pure
// functions, no file system: the menu (components/dashboard/navigation.ts, which the CLI's start message reads
// too) imports this module.

export interface DocsPage {
  /** The page's address: /help/docs/<slug>. */
  slug: string;
  /** Its file in docs/. */
  file: string;
  /** Its entry in the Help menu. */
  label: string;
}

export const DOCS_PAGES: readonly DocsPage[] = [
  { slug: 'index', file: 'index.md', label: 'Overview' },
  { slug: 'dashboard', file: 'dashboard.md', label: 'Dashboard and demo' },
  { slug: 'install', file: 'install.md', label: 'Install' },
  { slug: 'configuration', file: 'configuration.md', label: 'Configuration' },
  { slug: 'operations', file: 'operations.md', label: 'Operations' },
  { slug: 'api', file: 'api.md', label: 'API guide' },
  { slug: 'permission-table', file: 'permission-table.md', label: 'Permission table' },
  { slug: 'architecture', file: 'architecture.md', label: 'Architecture' },
  { slug: 'performance', file: 'performance.md', label: 'Performance' },
];

export const docsHref = (page: DocsPage) => `/help/docs/${page.slug}`;

/** The page at /help/docs/<slug>, or undefined: only the listed pages are served, never another file. */
export function docsPage(slug: string): DocsPage | undefined {
  return DOCS_PAGES.find((p) => p.slug === slug);
}

/**
 * Where a link of a docs/ page leads in the dashboard. The pages are written to be read in the repository too
 * (on a forge, in an editor), so their links are relative to docs/:
 * - `page`: another page (or this one) of docs/, `operations.md#tls`, `./install.md`, `../docs/api.md`:
 *   `/help/docs/<slug>`, the section's anchor kept (the dashboard's heading ids are GitHub's);
 * - `anchor`: a section of this page, `#the-sign-in-lock`, as written;
 * - `external`: an http(s) or mailto address, as written;
 * - `file`: any other file of the repository (`../README.md`, `../deploy/nginx/runway.conf`), which the
 *   dashboard does not serve: `path` names it from the installation's folder (`README.md`) so a reader can
 *   find it there, and the page shows it as text, not as a link that would lead to "Page not found". `path` is
 *   empty for an address that names nothing to open (an empty link, or another scheme such as `javascript:`).
 */
export type DocsLink = { kind: 'page' | 'anchor' | 'external'; href: string } | { kind: 'file'; path: string };

const SCHEME = /^([a-z][a-z\d+.-]*):/i;
const DOCS_DIR = 'docs';

/** `href` as written on a page of docs/, resolved to where the dashboard shows it. */
export function docsLink(href: string): DocsLink {
  const written = href.trim();
  if (!written) return { kind: 'file', path: '' };
  if (written.startsWith('#')) return { kind: 'anchor', href: written };
  const scheme = SCHEME.exec(written)?.[1].toLowerCase();
  if (scheme) return ['http', 'https', 'mailto'].includes(scheme) ? { kind: 'external', href: written } : { kind: 'file', path: '' };
  if (written.startsWith('//')) return { kind: 'external', href: `https:${written}` };
  const hash = written.indexOf('#');
  const fragment = hash < 0 ? '' : written.slice(hash);
  const target = (hash < 0 ? written : written.slice(0, hash)).replace(/\?.*$/, '');
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // A stray % is part of the name.
  }
  // A leading slash is the repository's root, as a forge reads it; anything else is relative to docs/.
  const parts = decoded.startsWith('/') ? [] : [DOCS_DIR];
  for (const segment of decoded.split('/')) {
    if (segment === '..') {
      // Above the repository: nothing the installation has.
      if (!parts.length) return { kind: 'file', path: decoded };
      parts.pop();
    } else if (segment && segment !== '.') parts.push(segment);
  }
  const resolved = parts.join('/');
  // The folder itself is its index.
  const file = resolved === DOCS_DIR ? 'index.md' : resolved.startsWith(`${DOCS_DIR}/`) ? resolved.slice(DOCS_DIR.length + 1) : undefined;
  const page = DOCS_PAGES.find((p) => p.file === file);
  if (page) return { kind: 'page', href: `${docsHref(page)}${fragment}` };
  return { kind: 'file', path: resolved };
}

const BLANK_OR_COMMENT = /^\s*(<!--.*-->\s*)?$/;
const TITLE = /^ {0,3}#\s+(.*?)(?:\s+#+)?\s*$/;

/**
 * A page's title and the rest of it: the first-level heading that opens the page (blank lines and HTML
 * comments may stand before it), its inline code marks dropped, and the Markdown without that line. A page
 * that opens with anything else has no title here (the dashboard takes its menu label) and is kept whole.
 */
export function splitTitle(markdown: string): { title?: string; body: string } {
  const lines = markdown.split(/\r?\n/);
  const first = lines.findIndex((line) => !BLANK_OR_COMMENT.test(line));
  const heading = first < 0 ? null : TITLE.exec(lines[first]);
  if (!heading?.[1].trim()) return { body: markdown };
  return { title: heading[1].replace(/`/g, ''), body: [...lines.slice(0, first), ...lines.slice(first + 1)].join('\n') };
}
