// /-/user_settings/personal_access_tokens: GitLab's path for the user's access tokens.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PersonalAccessTokens } from '@/components/tokens/personal-access-tokens';
import { LoadingState } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Personal access tokens · Runway' };

export default function PersonalAccessTokensPage() {
  return (
    <Suspense fallback={<LoadingState />}>
      <PersonalAccessTokens />
    </Suspense>
  );
}
