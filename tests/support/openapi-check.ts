// Every API test response is checked against the OpenAPI document the server publishes: a response whose
// status or JSON drifts from its documented shape fails the test that received it.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;
interface Compiled {
  doc: Json;
  ajv: InstanceType<typeof Ajv2020>;
  templates: Array<{ path: string; re: RegExp }>;
}

let loading: Promise<Compiled> | undefined;

function load(baseUrl: string): Promise<Compiled> {
  return (loading ??= (async () => {
    const res = await fetch(`${baseUrl}/api/v4/openapi.json`);
    if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
    const doc = (await res.json()) as Json;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: 'runway-openapi' });
    const templates = Object.keys(doc.paths)
      .map((path) => ({ path, re: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`) }))
      // Static segments first: /runners/all before /runners/{id}.
      .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
    return { doc, ajv, templates };
  })());
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Throws when a JSON response of a documented operation does not match the documented schema for its
 * status. Statuses the document lists without a body, undocumented statuses of error paths (a 400 from
 * the parser, a 413, a 429) and non-JSON bodies are not checked.
 */
export async function checkAgainstDocument(baseUrl: string, method: string, apiPath: string, status: number, body: unknown, contentType: string | null) {
  if (method === 'HEAD' || method === 'OPTIONS' || body === undefined || !contentType?.includes('application/json')) return;
  const { doc, ajv, templates } = await load(baseUrl);
  const path = apiPath.split('?')[0].replace(/\/+$/, '') || '/';
  const template = templates.find((t) => t.re.test(path));
  const operation = template && doc.paths[template.path][method.toLowerCase()];
  if (!operation) return;
  const response = operation.responses[String(status)];
  if (!response?.content?.['application/json']) return;
  const ref = `runway-openapi#/${pointer('paths', template.path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`${method} ${path} answered ${status} with a body that does not match the OpenAPI document:\n  ${errors.join('\n  ')}`);
  }
}
