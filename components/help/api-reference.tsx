'use client';
// /help/api: the OpenAPI document (GET /api/v4/openapi.json) in openapi-explorer, a maintained viewer
// (a web component). Loaded only on this page; "Try it" calls the API with the signed-in session.
import { createElement, useEffect, useState } from 'react';
import { ErrorState, LoadingState } from '@/components/ui/states';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { PageHeader } from '@/components/ui/page-header';

const SPEC_URL = '/api/v4/openapi.json';

export function ApiReference() {
  const [state, setState] = useState<'loading' | 'ready' | Error>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    import('openapi-explorer').then(
      () => live && setState('ready'),
      (err: unknown) => live && setState(err instanceof Error ? err : new Error(String(err))),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  return (
    <div className="flex flex-col gap-4">
      <Breadcrumbs items={[{ label: 'Help' }, { label: 'API reference' }]} />
      <PageHeader
        title="API reference"
        description={
          <>
            Every <code>/api/v4</code> endpoint, generated from the same declarations the API validates with. GitLab clients work unchanged; Runway&apos;s
            additions are marked <code>x-runway-extension</code>. Raw document:{' '}
            <a className="text-indigo-700 underline" href={SPEC_URL}>
              openapi.json
            </a>
            .
          </>
        }
      />
      {state === 'loading' && <LoadingState label="Loading the API reference…" />}
      {state instanceof Error && (
        <ErrorState
          title="The API reference could not be loaded"
          error={state}
          onRetry={() => {
            setState('loading');
            setAttempt((n) => n + 1);
          }}
        />
      )}
      {state === 'ready' && (
        <div className="overflow-hidden rounded-md border border-slate-200">
          {createElement('openapi-explorer', {
            'spec-url': SPEC_URL,
            'server-url': `${window.location.origin}/api/v4`,
            'hide-server-selection': 'true',
            'fetch-credentials': 'same-origin',
            // The dashboard's palette and type scale (slate text, indigo accents, 14 px body).
            'primary-color': '#4338ca',
            'secondary-color': '#3730a3',
            'bg-color': '#ffffff',
            'text-color': '#0f172a',
            'nav-bg-color': '#f8fafc',
            'nav-text-color': '#1e293b',
            'nav-hover-bg-color': '#e0e7ff',
            'nav-hover-text-color': '#312e81',
            'header-bg-color': '#f8fafc',
            'header-color': '#0f172a',
            'schema-expand-level': '2',
            style: {
              height: 'calc(100vh - 12rem)',
              minHeight: '32rem',
              display: 'block',
              // The dashboard's type faces (Tailwind's sans and mono stacks), not the viewer's own.
              '--font-regular': 'ui-sans-serif, system-ui, sans-serif',
              '--font-mono': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              '--font-size-regular': '14px',
              '--font-size-small': '13px',
              '--font-size-mono': '13px',
            },
          })}
        </div>
      )}
    </div>
  );
}
