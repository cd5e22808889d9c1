// A page of docs/ rendered from its Markdown on the server (react-markdown, GitHub's flavour: tables and bare
// addresses as links), as the rest of the dashboard looks:
// - headings carry GitHub's ids (rehype-slug), so /help/docs/configuration#the-sign-in-lock finds its section;
// - links between the pages lead to their /help/docs/<slug> (docsLink), an address leaves as written, and a
//   file of the repository that the dashboard does not serve (../README.md) is named as text, never a dead link;
// - HTML written in the Markdown is never HTML here: comments are dropped, anything else shows as its text;
// - a table or code block keeps its width and scrolls sideways in a region of its own, focusable (a keyboard
//   scrolls it) and named after its section; the page itself never scrolls sideways.
import Link from 'next/link';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import rehypeSlug from 'rehype-slug';
import remarkGfm from 'remark-gfm';
import { docsLink } from '@/lib/meta/docs-pages';
import { cn } from '@/components/ui/cn';
import { InlineCode } from '@/components/ui/inline-code';
import { Scroller } from '@/components/ui/scroller';

/** The little of hast (the HTML tree react-markdown renders) that the plugin below reads. */
interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

const textOf = (node: HastNode): string => node.value ?? node.children?.map(textOf).join('') ?? '';
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

/**
 * Drops HTML comments (Markdown shows none; react-markdown would print them as text), names each table and
 * code block after the heading above it ("Table: Settings", "Code: nginx", numbered when a section has more),
 * in `dataRegion`, for the scrolling region around it, and readies each table's cells (tableCells).
 */
function docsTree({ title }: { title: string }) {
  return (tree: HastNode) => {
    let section = title;
    const used = new Map<string, number>();
    const walk = (node: HastNode) => {
      const children = node.children ?? [];
      for (let i = 0; i < children.length; i++) {
        const child = children[i];
        if (child.type === 'raw') {
          child.value = (child.value ?? '').replace(COMMENT, '');
          if (!child.value.trim()) children.splice(i--, 1);
          continue;
        }
        if (child.type !== 'element') continue;
        if (/^h[1-6]$/.test(child.tagName ?? '')) section = textOf(child).trim() || section;
        else if (child.tagName === 'table' || child.tagName === 'pre') {
          const base = `${child.tagName === 'table' ? 'Table' : 'Code'}: ${section}`;
          const n = (used.get(base) ?? 0) + 1;
          used.set(base, n);
          child.properties = { ...child.properties, dataRegion: n > 1 ? `${base} (${n})` : base };
          if (child.tagName === 'table') tableCells(child);
        }
        walk(child);
      }
    };
    walk(tree);
  };
}

const elements = (node: HastNode) => (node.children ?? []).filter((c) => c.type === 'element');

/**
 * A table's cells, readied so that its text columns stay readable on a phone (where the table scrolls) and the
 * table fits a wide screen: a column of sentences (`dataWidth` `prose`, by its cells' average length) keeps a
 * reading width, one with a few words in a cell (`words`) a narrower one, and a short value such as
 * `18 / 67 / 119` (`value`) stays on one line; in every column but the first
 * (a row's key, a setting's name, kept whole) a path may break after a `/`, and code after `_`, `/`, `.`, `,`,
 * `=` and `:` too (a <wbr>), as a forge's tables do, so that one long name does not set its column's width.
 */
function tableCells(table: HastNode) {
  const rows = elements(table).flatMap((part) => (part.tagName === 'tr' ? [part] : elements(part).filter((r) => r.tagName === 'tr')));
  const columns: { longest: number; longestValue: number; total: number; cells: number }[] = [];
  for (const row of rows)
    elements(row).forEach((cell, col) => {
      const length = textOf(cell).trim().length;
      const column = (columns[col] ??= { longest: 0, longestValue: 0, total: 0, cells: 0 });
      column.longest = Math.max(column.longest, length);
      if (cell.tagName === 'td') column.longestValue = Math.max(column.longestValue, length);
      column.total += length;
      column.cells++;
    });
  for (const row of rows)
    elements(row).forEach((cell, col) => {
      const { longest, longestValue, total, cells } = columns[col];
      const width = total / cells > 60 ? 'prose' : longest > 30 ? 'words' : cell.tagName === 'td' && longestValue <= 16 && col > 0 ? 'value' : undefined;
      if (width) cell.properties = { ...cell.properties, dataWidth: width };
      if (col > 0) breakJoints(cell, false);
    });
}

function breakJoints(node: HastNode, inCode: boolean) {
  const children = node.children ?? [];
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.type === 'text') {
      const parts = (child.value ?? '').split(inCode ? /(?<=[_/.,=:])(?=[^_/.,=:])/ : /(?<=\/)(?=[^/\s])/);
      if (parts.length < 2) continue;
      const pieces = parts.flatMap((value, n): HastNode[] => [
        ...(n ? [{ type: 'element', tagName: 'wbr', properties: {}, children: [] }] : []),
        { type: 'text', value },
      ]);
      children.splice(i, 1, ...pieces);
      i += pieces.length - 1;
    } else if (child.type === 'element') breakJoints(child, inCode || child.tagName === 'code');
  }
}

const CELL_WIDTH: Record<string, string> = { prose: 'min-w-72', words: 'min-w-40', value: 'whitespace-nowrap' };
const cellWidth = (node: ExtraProps['node']) => CELL_WIDTH[String(node?.properties?.dataWidth)];

const regionOf = (node: ExtraProps['node']) => String(node?.properties?.dataRegion ?? '');

const LINK = 'rounded-sm text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700';
const HEADING = 'scroll-mt-20 break-words font-semibold text-slate-900';

const COMPONENTS: Components = {
  // The page's title is its one h1 (the page header); a first-level heading further down (performance.md has
  // several) starts a part of the page, drawn larger than a section but named as one.
  h1: ({ id, children }) => (
    <h2 id={id} className={cn(HEADING, 'mt-10 border-b border-slate-200 pb-1 text-xl')}>
      {children}
    </h2>
  ),
  h2: ({ id, children }) => (
    <h2 id={id} className={cn(HEADING, 'mt-10 border-b border-slate-200 pb-1 text-lg')}>
      {children}
    </h2>
  ),
  h3: ({ id, children }) => (
    <h3 id={id} className={cn(HEADING, 'mt-8 text-base')}>
      {children}
    </h3>
  ),
  h4: ({ id, children }) => (
    <h4 id={id} className={cn(HEADING, 'mt-6 text-sm')}>
      {children}
    </h4>
  ),
  h5: ({ id, children }) => (
    <h5 id={id} className={cn(HEADING, 'mt-6 text-sm')}>
      {children}
    </h5>
  ),
  h6: ({ id, children }) => (
    <h6 id={id} className={cn(HEADING, 'mt-6 text-sm text-slate-700')}>
      {children}
    </h6>
  ),
  p: ({ children }) => <p className="mt-4">{children}</p>,
  ul: ({ children, className }) => (
    <ul className={cn('mt-4 space-y-1.5', className?.includes('contains-task-list') ? 'list-none pl-1' : 'list-disc pl-6')}>{children}</ul>
  ),
  ol: ({ children, start }) => (
    <ol start={start} className="mt-4 list-decimal space-y-1.5 pl-6">
      {children}
    </ol>
  ),
  // A list item's paragraphs and nested lists sit closer than the page's.
  li: ({ children }) => <li className="pl-1 marker:text-slate-400 [&>ol]:mt-1.5 [&>p]:mt-2 [&>p:first-child]:mt-0 [&>ul]:mt-1.5">{children}</li>,
  blockquote: ({ children }) => <blockquote className="mt-4 border-l-4 border-slate-200 pl-4 text-slate-600">{children}</blockquote>,
  hr: () => <hr className="mt-8 border-slate-200" />,
  a: ({ href, children, node }) => {
    const target = docsLink(href ?? '');
    if (target.kind === 'page')
      return (
        <Link href={target.href} className={LINK}>
          {children}
        </Link>
      );
    if (target.kind !== 'file')
      return (
        <a href={target.href} className={LINK}>
          {children}
        </a>
      );
    // Not in the dashboard: the words, and where the file is in the installation unless they say it already.
    const words = node ? textOf(node as HastNode).trim() : '';
    return (
      <span>
        {children}
        {target.path && target.path !== words && (
          <>
            {' '}
            (<InlineCode>{target.path}</InlineCode>)
          </>
        )}
      </span>
    );
  },
  // Images are not served either: their description stands in for them.
  img: ({ alt }) => <span>{alt}</span>,
  // Inline code only: a block's code is drawn by `pre`.
  code: ({ children }) => <InlineCode>{children}</InlineCode>,
  pre: ({ node }) => {
    const code = node?.children.find((c) => c.type === 'element' && c.tagName === 'code');
    return (
      <Scroller label={regionOf(node)} className="bg-slate-50">
        <pre className="w-max min-w-full p-3 font-mono text-xs leading-5 text-slate-800">
          <code>{textOf((code ?? node ?? { type: 'text' }) as HastNode).replace(/\n$/, '')}</code>
        </pre>
      </Scroller>
    );
  },
  table: ({ node, children }) => (
    <Scroller label={regionOf(node)}>
      <table className="min-w-full border-collapse text-left text-sm">{children}</table>
    </Scroller>
  ),
  thead: ({ children }) => <thead className="bg-slate-50">{children}</thead>,
  tr: ({ children }) => <tr className="border-t border-slate-200 first:border-t-0">{children}</tr>,
  th: ({ children, style, node }) => (
    <th scope="col" style={style} className={cn('border-b border-slate-200 px-3 py-2 align-bottom font-semibold text-slate-900', cellWidth(node))}>
      {children}
    </th>
  ),
  td: ({ children, style, node }) => (
    <td style={style} className={cn('px-3 py-2 align-top', cellWidth(node))}>
      {children}
    </td>
  ),
  // GitHub's task lists: a checkbox that shows, and is not, a control.
  input: ({ type, checked }) => (type === 'checkbox' ? <input type="checkbox" checked={!!checked} disabled readOnly className="mr-1.5 align-middle" /> : null),
};

/** `markdown`: a page of docs/ without its title, which heads the page (`title`, named by the regions before the first section). */
export function DocsMarkdown({ markdown, title }: { markdown: string; title: string }) {
  return (
    // Text keeps a reading width; a table or code block may take the page's whole width before it scrolls, and
    // a heading's rule spans it.
    <div className="min-w-0 text-sm leading-6 text-slate-700 [&>:first-child]:mt-0 [&>:is(p,ul,ol,blockquote)]:max-w-3xl">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSlug, [docsTree, { title }]]} components={COMPONENTS}>
        {markdown}
      </Markdown>
    </div>
  );
}
