// JSON Schemas of the response entities, read off the entity functions' inferred return types with the
// TypeScript checker: the document describes what the code returns, with no second copy to keep in step.
// Run by scripts/openapi-entities.ts (output: entities.generated.json); a test fails when it is stale.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type JsonSchema = Record<string, unknown>;

/** PascalCase of an entity function's name: runnerDetails -> RunnerDetails. */
export const schemaName = (fn: string) => fn[0].toUpperCase() + fn.slice(1);

/** Response shapes defined outside an entity.ts (file, exported function). */
export const EXTRA_ENTITIES: ReadonlyArray<[string, string]> = [
  ['lib/settings/application.ts', 'settingsEntity'],
  ['lib/runners/registration.ts', 'registrationDetails'],
  ['lib/runners/registration.ts', 'resetTokenResult'],
  ['lib/meta/version.ts', 'metadata'],
  ['lib/repositories/handlers.ts', 'branchEntity'],
  ['lib/runners/registration.ts', 'resetInstanceRegistrationToken'],
  ['lib/fleet/queries.ts', 'statusHistory'],
  ['lib/fleet/queries.ts', 'versionsInUse'],
];

/** Every `lib/<domain>/entity.ts` of the checkout. */
export function entityFiles(root: string): string[] {
  return readdirSync(path.join(root, 'lib'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(root, 'lib', d.name, 'entity.ts'))
    .filter((f) => ts.sys.fileExists(f))
    .sort();
}

export function entitySchemas(root: string): Record<string, JsonSchema> {
  const entityTs = entityFiles(root);
  const extras = new Map<string, Set<string>>();
  for (const [file, name] of EXTRA_ENTITIES) {
    const abs = path.join(root, file);
    if (!extras.has(abs)) extras.set(abs, new Set());
    extras.get(abs)!.add(name);
  }
  const files = [...new Set([...entityTs, ...extras.keys()])];
  const configPath = path.join(root, 'tsconfig.json');
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, root);
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out: Record<string, JsonSchema> = {};
  for (const file of files) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const decl = exported.valueDeclaration;
      const wanted = extras.get(file);
      if (wanted ? !wanted.has(exported.name) : !entityTs.includes(file)) continue;
      const isFunction =
        decl && (ts.isFunctionDeclaration(decl) || (ts.isVariableDeclaration(decl) && decl.initializer && ts.isArrowFunction(decl.initializer)));
      if (!decl || !isFunction) continue;
      const signature = checker.getSignaturesOfType(checker.getTypeOfSymbolAtLocation(exported, decl), ts.SignatureKind.Call)[0];
      if (!signature) continue;
      let returned = checker.getReturnTypeOfSignature(signature);
      // An async read answers what its promise resolves to.
      if (returned.symbol?.name === 'Promise') returned = checker.getTypeArguments(returned as ts.TypeReference)[0] ?? returned;
      // Only functions that shape JSON objects (not helpers returning a URL string).
      if (!(returned.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) && !returned.isUnion()) continue;
      if (returned.symbol?.name === 'Response') continue;
      out[schemaName(exported.name)] = toSchema(checker, returned, 0);
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

const MAX_DEPTH = 12;

// Types being described on the current path: a recursive type (Prisma's JsonValue) is described as any
// JSON value where it recurs, rather than unrolled to MAX_DEPTH.
const inProgress = new Set<ts.Type>();

function toSchema(checker: ts.TypeChecker, type: ts.Type, depth: number): JsonSchema {
  if (depth > MAX_DEPTH || inProgress.has(type)) return {};
  inProgress.add(type);
  try {
    return describe(checker, type, depth);
  } finally {
    inProgress.delete(type);
  }
}

function describe(checker: ts.TypeChecker, type: ts.Type, depth: number): JsonSchema {
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
  if (f & ts.TypeFlags.Null) return { type: 'null' };
  if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: (type as ts.StringLiteralType).value };
  if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (type as ts.NumberLiteralType).value };
  if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: checker.typeToString(type) === 'true' };
  if (f & ts.TypeFlags.String) return { type: 'string' };
  if (f & ts.TypeFlags.Number) return { type: 'number' };
  if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
  if (type.isUnion()) return unionSchema(checker, type, depth);
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const args = checker.getTypeArguments(type as ts.TypeReference);
    const items = checker.isTupleType(type) ? { anyOf: args.map((a) => toSchema(checker, a, depth + 1)) } : toSchema(checker, args[0], depth + 1);
    return { type: 'array', items };
  }
  if (type.symbol?.name === 'Date') return { type: 'string', format: 'date-time' };
  // An interface extending Array (Prisma's JsonArray) is a list of its element type.
  const element = f & ts.TypeFlags.Object ? checker.getIndexTypeOfType(type, ts.IndexKind.Number) : undefined;
  if (element && checker.getPropertyOfType(type, 'length')) return { type: 'array', items: toSchema(checker, element, depth + 1) };
  if (f & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return objectSchema(checker, type, depth);
  return {};
}

function unionSchema(checker: ts.TypeChecker, type: ts.UnionType, depth: number): JsonSchema {
  const members = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
  // `boolean` is the union true | false.
  const bools = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
  const rest = members.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
  const parts: JsonSchema[] = [];
  if (bools.length === 2) parts.push({ type: 'boolean' });
  else parts.push(...bools.map((b) => toSchema(checker, b, depth + 1)));
  const strings = rest.filter((t) => t.flags & ts.TypeFlags.StringLiteral).map((t) => (t as ts.StringLiteralType).value);
  if (strings.length) parts.push({ type: 'string', enum: strings.sort() });
  for (const t of rest) if (!(t.flags & ts.TypeFlags.StringLiteral)) parts.push(toSchema(checker, t, depth + 1));
  if (parts.length === 1) return parts[0];
  // T | null as one `type` list when T is a plain scalar, the form most OpenAPI tools render best.
  const scalar = parts.filter((p) => p.type !== 'null');
  if (scalar.length === 1 && parts.length === 2 && typeof scalar[0].type === 'string' && Object.keys(scalar[0]).length === 1) {
    return { type: [scalar[0].type, 'null'] };
  }
  return { anyOf: parts };
}

/**
 * The properties in the order the object is built: an entity written `Object.assign(base(x), { more })`
 * has the type `Base & More`, whose properties TypeScript lists in no useful order; walking the
 * intersection's members in order gives base's keys, then the new ones, as the JSON has them.
 */
function orderedProperties(checker: ts.TypeChecker, type: ts.Type): ts.Symbol[] {
  if (!type.isIntersection()) return checker.getPropertiesOfType(type);
  const names: string[] = [];
  const walk = (t: ts.Type) => {
    if (t.isIntersection()) t.types.forEach(walk);
    else for (const p of checker.getPropertiesOfType(t)) if (!names.includes(p.name)) names.push(p.name);
  };
  walk(type);
  return names.map((n) => checker.getPropertyOfType(type, n)).filter((p): p is ts.Symbol => p !== undefined);
}

function objectSchema(checker: ts.TypeChecker, type: ts.Type, depth: number): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const prop of orderedProperties(checker, type)) {
    const decl = prop.valueDeclaration ?? prop.declarations?.[0];
    const propType = decl ? checker.getTypeOfSymbolAtLocation(prop, decl) : checker.getTypeOfSymbol(prop);
    if (checker.getSignaturesOfType(propType, ts.SignatureKind.Call).length) continue;
    properties[prop.name] = refineByName(prop.name, toSchema(checker, propType, depth + 1), decl);
    if (!(prop.flags & ts.SymbolFlags.Optional)) required.push(prop.name);
  }
  const index = checker.getIndexInfosOfType(type)[0];
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length) schema.required = required;
  schema.additionalProperties = index ? toSchema(checker, index.type, depth + 1) : false;
  return schema;
}

// What a TypeScript `number` or `string` cannot say, read off the property's name as GitLab's entities name
// them: ids are integers, `*_at` and `*_date` are RFC 3339 date-times, `*_on` (and an `*_at` the entity cuts
// to its day) are dates. Code generators type them from this; the API tests validate every answer's
// formats against the served document, so a wrong rule fails there.
const ID_NAME = /^(id|iid)$|_(id|iid)$/;
const DATE_TIME_NAME = /_(at|date)$/;
const DATE_NAME = /_on$/;

function refineByName(name: string, schema: JsonSchema, decl: ts.Declaration | undefined): JsonSchema {
  if (ID_NAME.test(name)) return retype(schema, 'number', 'integer');
  if (/_ids$/.test(name) && schema.type === 'array' && schema.items) return { ...schema, items: retype(schema.items as JsonSchema, 'number', 'integer') };
  if (!hasType(schema, 'string') || schema.format) return schema;
  const initializer = decl && ts.isPropertyAssignment(decl) ? decl.initializer.getText() : '';
  const dayOnly = /isoDate\(|slice\(0, 10\)/.test(initializer);
  if (DATE_NAME.test(name) || (DATE_TIME_NAME.test(name) && dayOnly)) return { ...schema, format: 'date' };
  if (DATE_TIME_NAME.test(name)) return { ...schema, format: 'date-time' };
  return schema;
}

const hasType = (schema: JsonSchema, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

function retype(schema: JsonSchema, from: string, to: string): JsonSchema {
  if (schema.type === from) return { ...schema, type: to };
  if (Array.isArray(schema.type)) return { ...schema, type: schema.type.map((t: string) => (t === from ? to : t)) };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: (schema.anyOf as JsonSchema[]).map((s) => retype(s, from, to)) };
  return schema;
}
