'use client';
// .../runners/:id/register: "Runner created.", the platform choice, the `gitlab-runner register` command with
// the new token (shown once: it came through sessionStorage and is gone on reload; leaving warns), and the
// switch to "You've registered a new runner!" when the runner first contacts Runway. The runner's first
// contact is written when it arrives and announced on the live runner events, which refetch the runner at
// once; until then the page also polls GET /runners/:id every few seconds (a stream that cannot open).
import Link from 'next/link';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { buttonClass } from '../ui/button';
import { ExternalLink } from 'lucide-react';
import { CopyField } from '../ui/copy-field';
import { CodeBlock } from './code-block';
import { LoadingState } from '../ui/states';
import { takeNewRunnerToken } from '@/lib/client/new-runner-token';
import { runnerHref, runnersListHref, type RunnerScope } from '@/lib/client/runner-paths';
import { installStep, PLATFORMS, registerCommand, runCommand, RUNNER_DOCS, type Platform } from '@/lib/client/runner-install';
import { useUrlState } from '@/lib/client/url-state';
import type { RunnerDetails, RunnerDetailsWithPermissions } from '@/lib/client/types';
import { RunnerCrumbs, RunnerLoadError } from './runner-detail';
import { useRunner } from './use-runners';
import { useRunnerEvents } from './use-runner-events';

export const REGISTRATION_POLL_MS = 3_000;

/** The runner has contacted Runway (verify or a job request) at least once. */
export const isRegistered = (r: Pick<RunnerDetails, 'contacted_at' | 'status'> | undefined) =>
  !!r && (r.contacted_at !== null || r.status !== 'never_contacted');

function PlatformChoice({ value, onChange }: { value: Platform; onChange: (p: Platform) => void }) {
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-900">Platform</legend>
      {/* One radio group (one tab stop, arrow keys), laid out as a segmented control that wraps on a phone. */}
      <div className="mt-2 flex flex-wrap gap-2">
        {PLATFORMS.map((p) => (
          <label
            key={p.id}
            className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 has-[:checked]:border-indigo-600 has-[:checked]:bg-indigo-50 has-[:checked]:font-medium has-[:checked]:text-indigo-800 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600"
          >
            <input type="radio" name="platform" value={p.id} checked={value === p.id} onChange={() => onChange(p.id)} className="accent-indigo-600" />
            {p.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The token from the create form, once; a ref keeps it across React's double effect run in development. */
function useNewRunnerToken(id: number): { token: string | null; read: boolean } {
  const [state, setState] = useState<{ token: string | null; read: boolean }>({ token: null, read: false });
  const taken = useRef(false);
  useEffect(() => {
    if (taken.current) return;
    taken.current = true;
    setState({ token: takeNewRunnerToken(id), read: true });
  }, [id]);
  return state;
}

const docsLink = 'inline-flex items-center gap-1 font-medium text-indigo-700 hover:underline';

function DocsLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noreferrer" className={docsLink}>
      {children}
      <ExternalLink aria-hidden className="size-3.5" />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <h2 className="text-base font-semibold text-slate-900">
        Step {n}: {title}
      </h2>
      {children}
    </div>
  );
}

/** Install, register (with the token while it is on screen), choose an executor, and optionally run. */
function Steps({
  platform,
  externalUrl,
  token,
  runner,
  scope,
}: {
  platform: Platform;
  externalUrl: string;
  token: string | null;
  runner: RunnerDetailsWithPermissions;
  scope: RunnerScope;
}) {
  const install = installStep(platform);
  const run = runCommand(platform);
  const container = platform === 'docker' || platform === 'kubernetes';
  return (
    <>
      <Step n={1} title={container ? (platform === 'docker' ? 'Start GitLab Runner' : 'Prepare Helm') : 'Install GitLab Runner'}>
        <p className="text-sm text-slate-700">{install.title}.</p>
        <CodeBlock label={`${platform === 'osx' ? 'macOS' : PLATFORMS.find((p) => p.id === platform)?.label} install commands`} code={install.commands} />
        <p className="text-sm text-slate-700">
          <DocsLink href={install.docs}>How do I install GitLab Runner?</DocsLink>
        </p>
      </Step>
      <Step n={2} title={platform === 'kubernetes' ? 'Install the chart, which registers the runner' : 'Register the runner'}>
        {token ? (
          <>
            <p className="text-sm text-slate-700">Copy and paste the following command into your command line to register the runner.</p>
            <CopyField label="Registration command" value={registerCommand(platform, externalUrl, token)} multiline />
            <p className="text-sm font-medium text-amber-800" role="note">
              The runner authentication token is shown here once. After you register the runner, the token is stored in the runner&apos;s config.toml and cannot
              be shown again: leaving this page loses it.
            </p>
            <CopyField label="Runner authentication token" value={token} />
          </>
        ) : (
          <div className="flex flex-col gap-2 text-sm text-slate-700">
            <p>The runner authentication token is no longer visible: it is shown only once, right after the runner is created.</p>
            {runner._runway_permissions.update_runner && (
              <p>
                To register a machine, reset the token on the{' '}
                <Link href={runnerHref(scope, runner.id, 'edit')} className="font-medium text-indigo-700 hover:underline">
                  runner&apos;s edit page
                </Link>{' '}
                and use the new one: <code className="rounded bg-slate-100 px-1 text-xs break-all">{registerCommand(platform, externalUrl, '<token>')}</code>
              </p>
            )}
          </div>
        )}
      </Step>
      <Step n={3} title="Choose an executor">
        <p className="text-sm text-slate-700">
          {platform === 'kubernetes'
            ? 'The chart runs every job in its own pod (the Kubernetes executor).'
            : 'Choose an executor when prompted by the command line. Executors run builds in different environments.'}{' '}
          <DocsLink href={RUNNER_DOCS.executors}>Not sure which one to select?</DocsLink>
        </p>
      </Step>
      {run && (
        <Step n={4} title="Check the runner (optional)">
          <p className="text-sm text-slate-700">Manually verify that the runner is available to pick up jobs.</p>
          <CopyField label="Run command" value={run} />
        </Step>
      )}
    </>
  );
}

function Registered({ scope, runner }: { scope: RunnerScope; runner: RunnerDetails }) {
  return (
    <section aria-labelledby="runner-registered-heading" role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-6">
      <h2 id="runner-registered-heading" className="text-lg font-semibold text-emerald-900">
        You&apos;ve registered a new runner!
      </h2>
      <p className="mt-1 text-sm text-emerald-900">Your runner is online and ready to run jobs.</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Link href={runnerHref(scope, runner.id)} className={buttonClass('primary')}>
          View runner
        </Link>
        <Link href={runnersListHref(scope)} className={buttonClass('secondary')}>
          {scope.kind === 'project' ? 'Go to CI/CD settings' : 'View runners'}
        </Link>
      </div>
    </section>
  );
}

export function RunnerRegisterPage({ id, scope, externalUrl }: { id: number; scope: RunnerScope; externalUrl: string }) {
  const runner = useRunner(id, { refetchInterval: (r) => (r && isRegistered(r) ? false : REGISTRATION_POLL_MS) });
  useRunnerEvents();
  const { token, read } = useNewRunnerToken(id);
  const { params, update } = useUrlState();
  // Local state answers the click at once; the URL (?platform=) follows, so a reload keeps the choice.
  const [platform, setPlatform] = useState<Platform>(() => PLATFORMS.find((p) => p.id === params.get('platform'))?.id ?? 'linux');
  const choosePlatform = (p: Platform) => {
    setPlatform(p);
    update({ platform: p === 'linux' ? undefined : p }, { replace: true });
  };
  const registered = isRegistered(runner.data);

  // Leaving while the token is on screen loses it for good: the browser asks first.
  useEffect(() => {
    if (!token || registered) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [token, registered]);

  if (runner.isPending || !read) return <LoadingState />;
  if (runner.error) return <RunnerLoadError scope={scope} error={runner.error} onRetry={() => runner.refetch()} />;
  const r = runner.data;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <RunnerCrumbs scope={scope} trail={[{ label: `#${r.id}`, href: runnerHref(scope, r.id) }, { label: 'Register' }]} />
        {token && !registered && (
          <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-900">
            Runner created.
          </p>
        )}
        <h1 className="break-words text-2xl font-semibold tracking-tight text-slate-900">
          Register runner #{r.id}
          {r.description && <span className="ml-2 font-normal text-slate-700">{r.description}</span>}
        </h1>
      </div>

      {registered ? (
        <Registered scope={scope} runner={r} />
      ) : (
        <section aria-label="Registration" className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
          <PlatformChoice value={platform} onChange={choosePlatform} />
          <Steps platform={platform} externalUrl={externalUrl} token={token} runner={r} scope={scope} />
          <p className="flex items-center gap-2 text-sm text-slate-600" aria-live="polite">
            <span className="inline-block size-2 animate-pulse rounded-full bg-amber-500" aria-hidden="true" />
            Waiting for the runner to connect…
          </p>
        </section>
      )}
    </div>
  );
}
