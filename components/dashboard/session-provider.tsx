'use client';
// The dashboard's client state: the TanStack Query cache, the API client (holding the session's CSRF
// token, computed by the server layout) and who is signed in.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { signInPath } from '@/lib/auth/callback-path';
import { ApiError, createApiClient, type ApiClient } from '@/lib/client/api';
import { RenderedAtProvider } from '@/components/shared/relative-time';
import { Toaster } from '@/components/ui/toast';

export interface SessionUser {
  id: number;
  username: string;
  name: string;
  admin: boolean;
}

interface DashboardContext {
  api: ApiClient;
  user: SessionUser;
}

const Context = createContext<DashboardContext | null>(null);

// A 401 means the session ended (expired, signed out elsewhere, user blocked): back to the sign-in page,
// which returns here afterwards.
function signInAgainOn401(error: unknown) {
  if (error instanceof ApiError && error.status === 401) window.location.assign(signInPath(`${window.location.pathname}${window.location.search}`));
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: signInAgainOn401 }),
    mutationCache: new MutationCache({ onError: signInAgainOn401 }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // 4xx answers will not change on a retry; network blips and 5xx may.
        retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
}

/** `renderedAt`: when the server rendered the page (relative times hydrate counting from it). */
export function DashboardProviders({
  csrfToken,
  user,
  renderedAt,
  children,
}: {
  csrfToken: string;
  user: SessionUser;
  renderedAt: number;
  children: ReactNode;
}) {
  const [queryClient] = useState(makeQueryClient);
  const value = useMemo(() => ({ api: createApiClient(csrfToken), user }), [csrfToken, user]);
  return (
    <QueryClientProvider client={queryClient}>
      <Context.Provider value={value}>
        <RenderedAtProvider at={renderedAt}>{children}</RenderedAtProvider>
        <Toaster />
      </Context.Provider>
    </QueryClientProvider>
  );
}

function useDashboard(): DashboardContext {
  const ctx = useContext(Context);
  if (!ctx) throw new Error('useApi/useCurrentUser must be used inside the dashboard layout');
  return ctx;
}

export const useApi = () => useDashboard().api;
export const useCurrentUser = () => useDashboard().user;
