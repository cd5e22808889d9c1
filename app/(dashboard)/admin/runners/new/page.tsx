// /admin/runners/new: "New instance runner".
import type { Metadata } from 'next';
import { RunnerRoute } from '@/components/runners/runner-route';
import { externalUrl } from '@/lib/config/env';
import { ADMIN_SCOPE } from '@/lib/client/runner-paths';

export const metadata: Metadata = { title: 'New instance runner · Runway' };

export default function NewInstanceRunnerPage() {
  return <RunnerRoute sub={{ page: 'new' }} scope={ADMIN_SCOPE} externalUrl={externalUrl()} />;
}
