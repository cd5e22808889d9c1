import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NAVIGATION } from '../../components/dashboard/navigation';
import { DocsPageView } from '../../components/help/docs-page';
import { DOCS_DIR, readDocsPage, type DocsDocument } from './docs';
import { docsLink, docsPage, DOCS_PAGES, splitTitle } from './docs-pages';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the documentation pages', () => {
  it('are every Markdown file of docs/, each once', () => {
    const files = readdirSync(path.join(ROOT, DOCS_DIR)).filter((f) => f.endsWith('.md'));
    expect(DOCS_PAGES.map((p) => p.file).sort()).toEqual(files.sort());
    expect(new Set(DOCS_PAGES.map((p) => p.slug)).size).toBe(DOCS_PAGES.length);
    expect(new Set(DOCS_PAGES.map((p) => p.label)).size).toBe(DOCS_PAGES.length);
  });

  it('are each linked from the README, from docs/index.md and from the Help menu', () => {
    const readme = read('README.md');
    const index = read('docs/index.md');
    const help = NAVIGATION.filter((item) => item.section === 'help');
    for (const page of DOCS_PAGES) {
      expect(readme, page.file).toContain(`(docs/${page.file})`);
      if (page.slug !== 'index') expect(index, page.file).toContain(`(${page.file})`);
      expect(help, page.file).toContainEqual(expect.objectContaining({ label: page.label, href: `/help/docs/${page.slug}` }));
    }
    expect(help.map((item) => item.label)).toEqual(['API reference', ...DOCS_PAGES.map((p) => p.label)]);
  });

  it('each read from the installation, titled by its first heading', async () => {
    for (const page of DOCS_PAGES) {
      const doc = await readDocsPage(page.slug);
      const title = /^# (.+)$/m.exec(read(`docs/${page.file}`))?.[1];
      expect(doc?.title, page.file).toBe(title?.replace(/`/g, ''));
      expect(doc?.markdown.trim(), page.file).not.toBe('');
      expect(doc?.markdown, page.file).not.toContain(`# ${title}\n`);
    }
  });

  it('are the only files served: another name or a path is no page', async () => {
    for (const slug of ['', 'missing', '../package', '..%2Fpackage', 'index.md', 'INDEX', 'constructor', 'toString']) {
      expect(docsPage(slug), slug).toBeUndefined();
      expect(await readDocsPage(slug), slug).toBeNull();
    }
  });

  describe('read from the folder the running Runway was started in (RUNWAY_ROOT)', () => {
    let dir: string | undefined;
    afterEach(() => {
      delete process.env.RUNWAY_ROOT;
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("so a packaged artifact shows the docs/ it carries; a page without a title heading takes the menu's label", async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'runway-docs-'));
      mkdirSync(path.join(dir, DOCS_DIR));
      writeFileSync(path.join(dir, DOCS_DIR, 'install.md'), '# Installing the artifact\n\nCopy `dist/`.\n');
      writeFileSync(path.join(dir, DOCS_DIR, 'api.md'), 'No heading here.\n');
      process.env.RUNWAY_ROOT = dir;
      expect(await readDocsPage('install')).toEqual({
        page: docsPage('install'),
        title: 'Installing the artifact',
        markdown: '\nCopy `dist/`.\n',
      });
      expect(await readDocsPage('api')).toMatchObject({ title: 'API guide', markdown: 'No heading here.\n' });
    });
  });
});

describe("a page's title", () => {
  it('is the first-level heading that opens it, inline code marks dropped, and the rest is the page', () => {
    expect(splitTitle('# Operating `Runway`\n\nText.\n')).toEqual({ title: 'Operating Runway', body: '\nText.\n' });
    expect(splitTitle('<!-- generated -->\n\n# Title #\r\nText')).toEqual({ title: 'Title', body: '<!-- generated -->\n\nText' });
  });

  it('is none when the page opens with anything else, and the page is kept whole', () => {
    for (const text of ['Intro.\n\n# Later', '## Section\n', '#hashtag\n', '    # indented code\n', '#\n', ''])
      expect(splitTitle(text), JSON.stringify(text)).toEqual({ body: text });
  });
});

describe('a link on a page of docs/', () => {
  it('to another page (or this one), however written, leads to its /help/docs page and section', () => {
    expect(docsLink('operations.md#tls')).toEqual({ kind: 'page', href: '/help/docs/operations#tls' });
    expect(docsLink('./install.md')).toEqual({ kind: 'page', href: '/help/docs/install' });
    expect(docsLink('install.md#exposing-runway-on-a-network')).toEqual({ kind: 'page', href: '/help/docs/install#exposing-runway-on-a-network' });
    expect(docsLink('../docs/api.md?plain=1#the-openapi-reference')).toEqual({ kind: 'page', href: '/help/docs/api#the-openapi-reference' });
    expect(docsLink('/docs/permission-table.md')).toEqual({ kind: 'page', href: '/help/docs/permission-table' });
    expect(docsLink('permission%2Dtable.md')).toEqual({ kind: 'page', href: '/help/docs/permission-table' });
    expect(docsLink('./')).toEqual({ kind: 'page', href: '/help/docs/index' });
    expect(docsLink('../docs/')).toEqual({ kind: 'page', href: '/help/docs/index' });
  });

  it('to a section of the same page keeps its anchor; an address leaves as written', () => {
    expect(docsLink('#the-sign-in-lock')).toEqual({ kind: 'anchor', href: '#the-sign-in-lock' });
    expect(docsLink('https://docs.gitlab.com/runner/')).toEqual({ kind: 'external', href: 'https://docs.gitlab.com/runner/' });
    expect(docsLink('HTTP://example.com/a.md')).toEqual({ kind: 'external', href: 'HTTP://example.com/a.md' });
    expect(docsLink('mailto:ops@example.com')).toEqual({ kind: 'external', href: 'mailto:ops@example.com' });
    expect(docsLink('//example.com/x')).toEqual({ kind: 'external', href: 'https://example.com/x' });
  });

  it('to a file the dashboard does not serve names it from the installation, as text: never a dead dashboard link', () => {
    expect(docsLink('../README.md')).toEqual({ kind: 'file', path: 'README.md' });
    expect(docsLink('../CHANGELOG.md#010')).toEqual({ kind: 'file', path: 'CHANGELOG.md' });
    expect(docsLink('../deploy/nginx/runway.conf')).toEqual({ kind: 'file', path: 'deploy/nginx/runway.conf' });
    expect(docsLink('/deploy/systemd/')).toEqual({ kind: 'file', path: 'deploy/systemd' });
    expect(docsLink('missing.md#x')).toEqual({ kind: 'file', path: 'docs/missing.md' });
    expect(docsLink('images/flow.png')).toEqual({ kind: 'file', path: 'docs/images/flow.png' });
    expect(docsLink('../../elsewhere.md')).toEqual({ kind: 'file', path: '../../elsewhere.md' });
    // Nothing to open: shown as its words alone.
    for (const href of ['', '  ', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd'])
      expect(docsLink(href), href).toEqual({ kind: 'file', path: '' });
  });
});

describe('a page as the dashboard renders it', () => {
  const render = (doc: DocsDocument) => renderToStaticMarkup(createElement(DocsPageView, { doc }));
  const pages = new Map<string, string>();
  const rendered = (slug: string) => pages.get(slug)!;
  // Every page once, with the time a loaded machine needs (performance.md alone is 1,300 lines).
  beforeAll(async () => {
    for (const page of DOCS_PAGES) pages.set(page.slug, render((await readDocsPage(page.slug))!));
  }, 60_000);
  const ids = (html: string) => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  const hrefs = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
  const regions = (html: string) => [...html.matchAll(/<div role="region" aria-label="([^"]*)" tabindex="0"[^>]*>\s*<(table|pre)\b/g)].map((m) => m[1]);

  it("gives headings GitHub's ids, so the anchors the pages and the dashboard use find their sections", () => {
    expect(ids(rendered('configuration'))).toEqual(expect.arrayContaining(['settings', 'the-sign-in-lock']));
    expect(ids(rendered('install'))).toContain('exposing-runway-on-a-network');
    expect(ids(rendered('performance'))).toEqual(
      expect.arrayContaining(['measured-2026-11-21-second-session-prepared-statements-direct-reads-tag-intersection', 'what-changed', 'what-changed-1']),
    );
    expect(ids(rendered('architecture'))).toContain('choices-a-library-or-our-own-code');
    for (const page of DOCS_PAGES) {
      const html = rendered(page.slug);
      expect(new Set(ids(html)).size, page.file).toBe(ids(html).length);
    }
  });

  it('links only to pages and sections that exist, or out by an address: no .md, no file of the repository', () => {
    let between = 0;
    for (const page of DOCS_PAGES) {
      for (const href of hrefs(rendered(page.slug))) {
        if (/^https?:\/\//.test(href)) continue;
        const [, slug, anchor] = /^(?:\/help\/docs\/([a-z-]+))?(?:#(.+))?$/.exec(href) ?? [];
        expect(slug ?? anchor, `${page.file}: ${href}`).toBeDefined();
        expect(docsPage(slug ?? page.slug), `${page.file}: ${href}`).toBeDefined();
        if (anchor) expect(ids(rendered(slug ?? page.slug)), `${page.file}: ${href}`).toContain(anchor);
        between++;
      }
    }
    // The index alone links every other page.
    expect(between).toBeGreaterThan(DOCS_PAGES.length);
  });

  it('names the files it cannot link, and shows no HTML comment', () => {
    const index = rendered('index');
    expect(index).toContain('Start with the <span>README (<code');
    expect(index).toMatch(/>README\.md<\/code>\)<\/span>: what Runway is/);
    expect(index).toMatch(/>CHANGELOG\.md<\/code>\)/);
    expect(hrefs(index)).toContain('/help/docs/configuration');
    for (const page of DOCS_PAGES) {
      const html = rendered(page.slug);
      expect(html, page.file).not.toMatch(/&lt;!--|<!--/);
      expect(html, page.file).not.toMatch(/href="[^"]*\.md\b/);
    }
    expect(read('docs/configuration.md')).toContain('<!-- settings:');
  });

  it('puts each table and code block in a focusable, named region of its own that scrolls sideways', () => {
    for (const page of DOCS_PAGES) {
      const html = rendered(page.slug);
      const names = regions(html);
      expect(names.length, page.file).toBe((html.match(/<table\b/g)?.length ?? 0) + (html.match(/<pre\b/g)?.length ?? 0));
      expect(new Set(names).size, page.file).toBe(names.length);
    }
    expect(regions(rendered('configuration'))).toContain('Table: Settings');
    expect(regions(rendered('operations'))).toEqual(expect.arrayContaining(['Code: nginx', 'Code: HAProxy']));
  });

  it("keeps a table's text columns readable: sentences keep a width, long paths and code break at their joints but in the first column", () => {
    const html = render({
      page: docsPage('configuration')!,
      title: 'Configuration',
      markdown: [
        '| variable | default | p50 / p99 ms | description |',
        '| --- | --- | --: | --- |',
        `| \`RUNWAY_DATABASE_DIRECT_URL\` | \`repositories/a_b.git\` | 18 / 119 | ${'A sentence long enough to read as one. '.repeat(3)}Names version/revision/IP. |`,
      ].join('\n'),
    });
    expect(html).toMatch(/<td class="px-3 py-2 align-top"><code[^>]*>RUNWAY_DATABASE_DIRECT_URL<\/code>/);
    expect(html).toMatch(/<td class="px-3 py-2 align-top"><code[^>]*>repositories\/<wbr\/>a_<wbr\/>b.<wbr\/>git<\/code>/);
    expect(html).toMatch(/<td style="text-align:right" class="px-3 py-2 align-top whitespace-nowrap">18 \/ 119<\/td>/);
    expect(html).toMatch(/<th scope="col" class="[^"]* min-w-72">description<\/th>/);
    expect(html).toMatch(/<td class="px-3 py-2 align-top min-w-72">A sentence/);
    expect(html).toContain('Names version/<wbr/>revision/<wbr/>IP.');
    // The page's own table: its first column unbroken, and its description column readable on a phone.
    const settings = rendered('configuration');
    expect(settings).toMatch(/<td class="[^"]*"><code[^>]*>RUNWAY_DATABASE_DIRECT_URL<\/code>/);
    expect(settings).toMatch(/<th scope="col" class="[^"]* min-w-72">description<\/th>/);
  });

  it('renders Markdown, never the HTML written in it', () => {
    const markdown = [
      'Text <!-- hidden --> with <b>bold</b> written as HTML, **strong**, `code` and https://example.com/x.',
      '',
      '<!--',
      'a comment over lines',
      '-->',
      '<script>alert(1)</script>',
      '',
      '[run](javascript:alert(1)) and ![a diagram](flow.png) and [the unit](../deploy/systemd/runway.service)',
      '',
      '| n | right |',
      '| - | ----: |',
      '| 1 | 2     |',
      '',
      '```sh',
      'npm ci',
      '```',
      '',
      '- [x] done',
    ].join('\n');
    const html = render({ page: docsPage('install')!, title: 'Install', markdown });
    expect(html).not.toMatch(/<b>|<script>|hidden -->|a comment over lines|javascript:/);
    expect(html).toContain('Text  with ');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toMatch(/<strong>strong<\/strong>/);
    expect(html).toContain('href="https://example.com/x"');
    expect(html).toMatch(/<span>run<\/span> and <span>a diagram<\/span> and <span>the unit \(<code[^>]*>deploy\/systemd\/runway\.service<\/code>\)<\/span>/);
    expect(regions(html)).toEqual(['Table: Install', 'Code: Install']);
    expect(html).toMatch(/<td style="text-align:right"[^>]*>2<\/td>/);
    expect(html).toMatch(/<li[^>]*><input type="checkbox" disabled=""[^>]*checked=""\/> done<\/li>/);
  });
});
