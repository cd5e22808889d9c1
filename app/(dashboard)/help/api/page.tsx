// /help/api: the browsable reference of /api/v4 (GitLab's API docs live under /help/api too).
import type { Metadata } from 'next';
import { ApiReference } from '@/components/help/api-reference';

export const metadata: Metadata = { title: 'API reference · Runway' };

export default function ApiReferencePage() {
  return <ApiReference />;
}
