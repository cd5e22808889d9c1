'use client';
// A JSON schema of the API reference as a list of fields (name, type, required, description, allowed values),
// references resolved; a field holding an object (or a list of them) opens its own fields on demand, so a
// large entity costs nothing until it is read.
import { ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { fieldsOf, objectShapes, typeLabel, type JsonSchema, type OpenApiDocument, type SchemaField } from '@/lib/client/openapi-reference';
import { Badge } from '@/components/ui/badge';
import { InlineCode, TextWithCode } from '@/components/ui/inline-code';
import { cn } from '@/components/ui/cn';

export function SchemaView({ doc, schema, name }: { doc: OpenApiDocument; schema: JsonSchema; name: string }) {
  const shapes = objectShapes(doc, schema);
  const type = typeLabel(schema);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-600">
        Type: <InlineCode>{type}</InlineCode>
      </p>
      {shapes.length > 0 && <Shapes doc={doc} shapes={shapes} name={name} />}
    </div>
  );
}

function Shapes({ doc, shapes, name }: { doc: OpenApiDocument; shapes: JsonSchema[]; name: string }) {
  if (shapes.length === 1) return <FieldList doc={doc} shape={shapes[0]} name={name} />;
  return (
    <div className="flex flex-col gap-3">
      {shapes.map((shape, i) => (
        <div key={i} className="flex flex-col gap-1">
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">
            {i === 0 ? 'One of' : 'or'}
            {shape.description && <span className="ml-2 font-normal normal-case tracking-normal">{shape.description}</span>}
          </p>
          <FieldList doc={doc} shape={shape} name={`${name} (${i + 1})`} />
        </div>
      ))}
    </div>
  );
}

function FieldList({ doc, shape, name }: { doc: OpenApiDocument; shape: JsonSchema; name: string }) {
  const fields = fieldsOf(doc, shape);
  return (
    <ul aria-label={`Fields of ${name}`} className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
      {fields.map((field) => (
        <FieldRow key={field.name} doc={doc} field={field} />
      ))}
    </ul>
  );
}

function FieldRow({ doc, field }: { doc: OpenApiDocument; field: SchemaField }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const nested = objectShapes(doc, field.schema);
  return (
    <li className="px-3 py-2 text-sm">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <code className="break-all font-mono text-[0.8125rem] font-semibold text-slate-900">{field.name}</code>
        <span className="font-mono text-xs text-slate-600">{field.type}</span>
        {field.required && <span className="text-xs font-medium text-amber-800">required</span>}
        {field.extension && <Badge tone="info">Runway extension</Badge>}
      </div>
      {field.description && (
        <p className="mt-0.5 text-slate-600">
          <TextWithCode text={field.description} />
        </p>
      )}
      <Allowed values={field.enum} fallback={field.default} />
      {nested.length > 0 && (
        <>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={panel}
            onClick={() => setOpen(!open)}
            className="mt-1 inline-flex items-center gap-1 rounded text-xs font-medium text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            <ChevronRight aria-hidden className={cn('size-3.5 transition-transform', open && 'rotate-90')} />
            {open ? 'Hide' : 'Show'} the fields of {field.name}
          </button>
          <div id={panel} hidden={!open} className="mt-2 border-l-2 border-slate-200 pl-3">
            {open && <Shapes doc={doc} shapes={nested} name={field.name} />}
          </div>
        </>
      )}
    </li>
  );
}

/** "Allowed values: `a`, `b`. Default: `a`." as GitLab's API docs say them. */
export function Allowed({ values, fallback }: { values?: unknown[]; fallback?: unknown }) {
  if (!values?.length && fallback === undefined) return null;
  return (
    <p className="mt-0.5 text-slate-600">
      {values?.length ? (
        <>
          Possible values:{' '}
          {values.map((v, i) => (
            <span key={i}>
              {i > 0 && ', '}
              <InlineCode>{typeof v === 'string' ? v : JSON.stringify(v)}</InlineCode>
            </span>
          ))}
          .{' '}
        </>
      ) : null}
      {fallback !== undefined && (
        <>
          Default: <InlineCode>{typeof fallback === 'string' ? fallback : JSON.stringify(fallback)}</InlineCode>.
        </>
      )}
    </p>
  );
}
