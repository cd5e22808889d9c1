// /help/docs/<page>: one page of the documentation (docs/<page>.md of this installation); the Help menu links
// each. Any other name is the dashboard's 404.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DocsPageView } from '@/components/help/docs-page';
import { readDocsPage } from '@/lib/meta/docs';
import { docsPage } from '@/lib/meta/docs-pages';

type Props = { params: Promise<{ page: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = docsPage((await params).page);
  return { title: page ? `${page.label} · Runway` : 'Page not found · Runway' };
}

export default async function HelpDocsPage({ params }: Props) {
  const doc = await readDocsPage((await params).page);
  if (!doc) notFound();
  return <DocsPageView doc={doc} />;
}
