'use client';
// One operation of the API reference: its row (method, path, summary; a button that opens it, a link to it)
// and, once opened, what GitLab's API docs say of an endpoint (authentication, attributes, request body,
// responses with their fields) and "Try it", which sends the request with the signed-in session.
import { ChevronDown, Link2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { ApiClient } from '@/lib/client/api';
import { parseBody, tryItUrl, type ApiOperation, type ApiParameter, type OpenApiDocument } from '@/lib/client/openapi-reference';
import { Allowed, SchemaView } from './api-schema';
import { useApi } from '@/components/dashboard/session-provider';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { InlineCode, TextWithCode } from '@/components/ui/inline-code';
import { inputClass } from '@/components/ui/input';
import { Scroller } from '@/components/ui/scroller';

const METHOD_TONES: Record<string, string> = {
  GET: 'bg-sky-50 text-sky-800 ring-sky-200',
  POST: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  PUT: 'bg-amber-50 text-amber-800 ring-amber-200',
  PATCH: 'bg-amber-50 text-amber-800 ring-amber-200',
  DELETE: 'bg-red-50 text-red-800 ring-red-200',
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={cn('inline-flex w-16 shrink-0 justify-center rounded px-1.5 py-0.5 font-mono text-xs font-semibold ring-1 ring-inset', METHOD_TONES[method])}
    >
      {method}
    </span>
  );
}

export const operationLabel = (op: ApiOperation) => `${op.method} ${op.path}`;

export function OperationRow({ doc, op, open, onToggle }: { doc: OpenApiDocument; op: ApiOperation; open: boolean; onToggle: () => void }) {
  const panel = `${op.id}-details`;
  return (
    <li id={op.id} className="scroll-mt-20">
      <h3 className="flex items-stretch">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panel}
          onClick={onToggle}
          className="flex min-w-0 flex-1 items-start gap-3 px-3 py-2.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 sm:px-4"
        >
          <MethodBadge method={op.method} />
          <span className="flex min-w-0 flex-1 flex-col gap-0.5 lg:flex-row lg:items-baseline lg:gap-3">
            <code className="break-all font-mono text-[0.8125rem] font-medium text-slate-900">{op.path}</code>
            <span className="text-sm font-normal text-slate-600">{op.summary}</span>
          </span>
          {op.extension && (
            <span className="hidden shrink-0 sm:inline-flex">
              <Badge tone="info">Runway extension</Badge>
            </span>
          )}
          <ChevronDown aria-hidden className={cn('mt-0.5 size-4 shrink-0 text-slate-500 transition-transform', open && 'rotate-180')} />
        </button>
        <a
          href={`#${op.id}`}
          aria-label={`Link to ${operationLabel(op)}`}
          title="Link to this endpoint"
          className="grid w-10 shrink-0 place-items-center text-slate-500 hover:bg-slate-50 hover:text-indigo-700 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
        >
          <Link2 aria-hidden className="size-4" />
        </a>
      </h3>
      <div id={panel} hidden={!open}>
        {open && <OperationDetails doc={doc} op={op} />}
      </div>
    </li>
  );
}

const SECTION = 'text-sm font-semibold text-slate-900';

function OperationDetails({ doc, op }: { doc: OpenApiDocument; op: ApiOperation }) {
  const fields = op.parameters.filter((p) => p.in !== 'header');
  return (
    <div className="flex flex-col gap-5 border-t border-slate-100 bg-slate-50/60 px-3 py-4 text-sm leading-6 text-slate-700 sm:px-4">
      <div className="flex flex-col gap-2">
        <p className="font-mono text-[0.8125rem] text-slate-900 break-all">
          {op.method} /api/v4{op.path}
        </p>
        {op.extension && (
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone="info">Runway extension</Badge>
            <span>{op.description ?? 'Not in GitLab: an addition of Runway.'}</span>
          </p>
        )}
        {!op.extension && op.description && (
          <p>
            <TextWithCode text={op.description} />
          </p>
        )}
        <Authentication op={op} />
      </div>

      {/* The table's scrolling region carries the name ("Attributes of GET /path"). */}
      <div className="flex flex-col">
        <h4 className={SECTION}>Attributes</h4>
        {fields.length === 0 ? <p className="mt-1 text-slate-600">None.</p> : <ParameterTable op={op} params={fields} />}
      </div>

      {op.requestBody && (
        <section aria-label={`Request body of ${operationLabel(op)}`} className="flex flex-col gap-2">
          <h4 className={SECTION}>Request body {op.requestBody.required ? <span className="font-normal text-amber-800">(required)</span> : null}</h4>
          {op.requestBody.description && <p className="text-slate-600">{op.requestBody.description}</p>}
          {op.requestBody.schema && <SchemaView doc={doc} schema={op.requestBody.schema} name={`the request body of ${operationLabel(op)}`} />}
        </section>
      )}

      <section aria-label={`Responses of ${operationLabel(op)}`} className="flex flex-col gap-2">
        <h4 className={SECTION}>Responses</h4>
        <ul className="flex flex-col gap-2">
          {op.responses.map((r, i) => (
            <ResponseItem key={r.status} doc={doc} op={op} response={r} initiallyOpen={i === 0} />
          ))}
        </ul>
      </section>

      <TryIt op={op} />
    </div>
  );
}

function Authentication({ op }: { op: ApiOperation }) {
  const { need, accepts } = op.auth;
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
      <dt className="font-medium text-slate-900">Authentication</dt>
      <dd>
        {need === 'none' ? 'None: anyone may call it.' : need === 'optional' ? 'Optional: anonymous callers get the public part.' : 'Required.'}
        {accepts.length > 0 && (
          <>
            {' '}
            Accepts{' '}
            {accepts.map((a, i) => (
              <span key={a}>
                {i > 0 && (i === accepts.length - 1 ? ' or ' : ', ')}
                {a}
              </span>
            ))}
            .
          </>
        )}
      </dd>
      {op.scopes.length > 0 && (
        <>
          <dt className="font-medium text-slate-900">Token scopes</dt>
          <dd>
            Any of{' '}
            {op.scopes.map((s, i) => (
              <span key={s}>
                {i > 0 && ', '}
                <InlineCode>{s}</InlineCode>
              </span>
            ))}
            .
          </dd>
        </>
      )}
    </dl>
  );
}

function ParameterTable({ op, params }: { op: ApiOperation; params: ApiParameter[] }) {
  return (
    <Scroller label={`Attributes of ${operationLabel(op)}`} className="mt-2 w-full bg-white">
      <table className="min-w-full border-collapse text-left text-sm">
        <thead className="bg-slate-50">
          <tr>
            {['Attribute', 'In', 'Type', 'Required', 'Description'].map((h) => (
              <th key={h} scope="col" className="border-b border-slate-200 px-3 py-2 align-bottom font-semibold text-slate-900">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {params.map((p) => (
            <tr key={`${p.in}:${p.name}`} className="border-t border-slate-200 first:border-t-0">
              <td className="px-3 py-2 align-top">
                <code className="whitespace-nowrap font-mono text-[0.8125rem] font-semibold text-slate-900">{p.name}</code>
              </td>
              <td className="px-3 py-2 align-top text-slate-600">{p.in}</td>
              <td className="px-3 py-2 align-top">
                <span className="font-mono text-xs text-slate-700">{typeOfParameter(p)}</span>
              </td>
              <td className="px-3 py-2 align-top">{p.required ? 'Yes' : 'No'}</td>
              <td className="min-w-64 px-3 py-2 align-top text-slate-600">
                {p.extension && (
                  <span className="mr-1.5">
                    <Badge tone="info">Runway extension</Badge>
                  </span>
                )}
                <TextWithCode text={p.description.replace(/\s*Runway extension\.$/, '')} />
                <Allowed values={p.schema.enum ?? p.schema.items?.enum} fallback={p.schema.default} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroller>
  );
}

function typeOfParameter(p: ApiParameter): string {
  const s = p.schema;
  if (s.oneOf || s.anyOf) return (s.oneOf ?? s.anyOf)!.map((v) => (Array.isArray(v.type) ? v.type.join(' or ') : (v.type ?? 'any'))).join(' or ');
  if (s.type === 'array') return `array of ${s.items?.type ?? 'any'}`;
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}

const statusTone = (status: string): BadgeTone => (status.startsWith('2') ? 'success' : status.startsWith('5') ? 'danger' : 'warning');

function ResponseItem({
  doc,
  op,
  response,
  initiallyOpen,
}: {
  doc: OpenApiDocument;
  op: ApiOperation;
  response: ApiOperation['responses'][number];
  initiallyOpen: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const panel = useId();
  return (
    <li className="rounded-md border border-slate-200 bg-white">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen(!open)}
        className="flex w-full items-start gap-3 px-3 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
      >
        <span className="shrink-0 font-mono">
          <Badge tone={statusTone(response.status)}>{response.status}</Badge>
        </span>
        <span className="min-w-0 flex-1 text-slate-700">
          <TextWithCode text={response.description} />
        </span>
        <ChevronDown aria-hidden className={cn('mt-1 size-4 shrink-0 text-slate-500 transition-transform', open && 'rotate-180')} />
      </button>
      <div id={panel} hidden={!open} className="flex flex-col gap-2 border-t border-slate-100 px-3 py-3">
        {open && (
          <>
            {response.mediaType && (
              <p className="text-slate-600">
                Content type: <InlineCode>{response.mediaType}</InlineCode>
              </p>
            )}
            {response.headers.length > 0 && (
              <p className="text-slate-600">
                Headers:{' '}
                {response.headers.map((h, i) => (
                  <span key={h}>
                    {i > 0 && ', '}
                    <InlineCode>{h}</InlineCode>
                  </span>
                ))}
              </p>
            )}
            {response.schema ? (
              <SchemaView doc={doc} schema={response.schema} name={`the ${response.status} response of ${operationLabel(op)}`} />
            ) : (
              <p className="text-slate-600">No body.</p>
            )}
          </>
        )}
      </div>
    </li>
  );
}

interface Outcome {
  status: number;
  statusText: string;
  ms: number;
  url: string;
  body: string;
}

/** "Try it": the operation's path and query parameters as fields, a JSON body for writes, and the answer. */
function TryIt({ op }: { op: ApiOperation }) {
  const api = useApi();
  const id = useId();
  const params = op.parameters.filter((p) => p.in === 'path' || p.in === 'query');
  const writes = op.method !== 'GET';
  // Every write may carry a body, declared or not (a handler that validates its own parameters declares none).
  const takesBody = op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH';
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(op.requestBody ? '{\n  \n}' : '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const url = tryItUrl(op, values);
    if (!url)
      return setProblem(
        `Fill in ${params
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .join(', ')}.`,
      );
    const parsed = takesBody ? parseBody(body) : ({ ok: true, body: undefined } as const);
    if (!parsed.ok) return setProblem(parsed.message);
    setProblem(null);
    setBusy(true);
    try {
      setOutcome(await exchange(api, op.method, url, parsed.body));
    } catch {
      setProblem('Could not reach the server. Check your connection and try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label={`Try ${operationLabel(op)}`} className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-3">
      <h4 className={SECTION}>Try it</h4>
      <p className="text-slate-600">Sends the request as you, with your session{writes ? ': it changes data as the dashboard would' : ''}.</p>
      <form onSubmit={send} className="flex flex-col gap-3" noValidate>
        {params.length > 0 && (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {params.map((p) => (
              <ParamField
                key={`${p.in}:${p.name}`}
                id={`${id}-${p.in}-${p.name}`}
                param={p}
                value={values[p.name] ?? ''}
                onChange={(v) => setValues({ ...values, [p.name]: v })}
              />
            ))}
          </div>
        )}
        {takesBody && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-body`} className="text-sm font-medium text-slate-900">
              Request body (JSON)
            </label>
            <textarea
              id={`${id}-body`}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              rows={5}
              spellCheck={false}
              className={cn(inputClass, 'font-mono text-xs')}
            />
          </div>
        )}
        {problem && (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        )}
        <div>
          <Button type="submit" size="sm" disabled={busy}>
            {busy ? 'Sending…' : 'Send request'}
          </Button>
        </div>
      </form>
      {outcome && (
        <div role="status" className="flex flex-col gap-1">
          <p>
            <Badge tone={statusTone(String(outcome.status))}>
              {outcome.status} {outcome.statusText}
            </Badge>{' '}
            <span className="text-slate-600">
              in {outcome.ms} ms from <InlineCode>{outcome.url}</InlineCode>
            </span>
          </p>
          <Scroller label={`Response of ${operationLabel(op)}`} className="mt-1 max-h-96 w-full overflow-y-auto bg-slate-50">
            <pre className="w-max min-w-full p-3 font-mono text-xs leading-5 text-slate-800">{outcome.body || '(empty body)'}</pre>
          </Scroller>
        </div>
      )}
    </section>
  );
}

/** The request sent and its answer, timed. */
async function exchange(api: ApiClient, method: string, url: string, body: string | undefined): Promise<Outcome> {
  const started = performance.now();
  const res = await api.exchange(method, url, body);
  const stream = res.headers.get('content-type')?.includes('text/event-stream');
  // An event stream never ends: say what it is rather than wait for it.
  if (stream) await res.body?.cancel();
  const text = stream ? '(a stream of Server-Sent Events: read it with EventSource)' : await res.text();
  return { status: res.status, statusText: res.statusText, ms: Math.round(performance.now() - started), url, body: pretty(text) };
}

/** JSON indented for reading; anything else as it came. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function ParamField({ id, param, value, onChange }: { id: string; param: ApiParameter; value: string; onChange: (v: string) => void }) {
  const choices = param.schema.enum ?? (param.schema.type === 'boolean' ? [true, false] : undefined);
  const hint = param.schema.type === 'array' ? 'comma-separated' : param.in === 'path' ? 'path' : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-mono text-[0.8125rem] font-medium text-slate-900">
        {param.name}
        {param.required && <span className="ml-1 font-sans text-xs font-normal text-amber-800">required</span>}
        {hint && <span className="ml-1 font-sans text-xs font-normal text-slate-500">({hint})</span>}
      </label>
      {choices ? (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={inputClass}>
          <option value="">(not sent)</option>
          {choices.map((c) => (
            <option key={String(c)} value={String(c)}>
              {String(c)}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="off"
          placeholder={param.schema.default !== undefined ? String(param.schema.default) : undefined}
          className={inputClass}
        />
      )}
    </div>
  );
}
