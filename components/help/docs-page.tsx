// /help/docs/<page>: a page of docs/ of this installation, rendered from its Markdown (docs-markdown.tsx), under
// the dashboard's breadcrumb and page header.
import type { DocsDocument } from '@/lib/meta/docs';
import { docsHref, DOCS_PAGES } from '@/lib/meta/docs-pages';
import { Breadcrumbs, type Crumb } from '@/components/ui/breadcrumbs';
import { PageHeader } from '@/components/ui/page-header';
import { DocsMarkdown } from './docs-markdown';

export function DocsPageView({ doc }: { doc: DocsDocument }) {
  const index = DOCS_PAGES[0];
  const crumbs: Crumb[] =
    doc.page.slug === index.slug
      ? [{ label: 'Help' }, { label: index.label }]
      : [{ label: 'Help' }, { label: index.label, href: docsHref(index) }, { label: doc.page.label }];
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <Breadcrumbs items={crumbs} />
      <PageHeader
        title={doc.title}
        description={
          <>
            From <code className="font-mono text-[0.8125rem]">docs/{doc.page.file}</code> of this installation.
          </>
        }
      />
      <DocsMarkdown markdown={doc.markdown} title={doc.title} />
    </div>
  );
}
