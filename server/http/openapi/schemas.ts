// The schemas of the OpenAPI description, built from the JSON Schema files in schemas/ (the single source of truth):
// their definitions become components, their references are rewritten, our own `notAccepted` keyword becomes the
// plain schema it stands for, and the form bodies are derived from them as flat string fields with bracket keys.
// Must not describe operations or responses (../openapi.ts and responses.ts do).
import type { SchemaRegistry } from '../../documents/schema-registry';
import { DOCUMENT_TYPES } from '../../documents/model';
import { ERROR_CATALOGUE } from '../error-catalogue';

export type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What `notAccepted: true` admits: an absent-like value only. */
const ABSENT_ONLY = {
  description: 'Not accepted for this type: only null, an empty value or zero may be sent.',
  anyOf: [{ type: 'null' }, { const: '' }, { const: 0 }, { const: '0' }, { const: false }, { type: 'array', maxItems: 0 }],
};

const definitionName = (ref: string) => ref.replace(/^(common\.json)?#\/definitions\//, '');

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (!isNode(node)) return node;
  if (node.notAccepted === true) return ABSENT_ONLY;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id' || key === 'definitions') continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = `#/components/schemas/${definitionName(value)}`;
      continue;
    }
    out[key] = rewrite(value);
  }
  return out;
}

/** The definitions of common.json and one schema per document type, named as the type. */
export function documentSchemas(registry: SchemaRegistry): Node {
  const raw = registry.raw();
  const schemas: Node = {};
  const common = raw.get('common') as { definitions?: Node } | undefined;
  for (const [name, def] of Object.entries(common?.definitions ?? {})) schemas[name] = rewrite(def);
  for (const type of DOCUMENT_TYPES) {
    const s = rewrite(raw.get(type)) as Node;
    const props = { ...((s.properties as Node | undefined) ?? {}), type: { enum: [type], description: 'Document type' } };
    schemas[type] = { ...s, properties: props, ...(type === 'invoice' ? {} : { required: ['type'] }) };
  }
  return schemas;
}

/** The one error body; `code` is the enum of every code in the catalogue. */
export function errorSchema(): Node {
  const codes = Object.keys(ERROR_CATALOGUE);
  return {
    type: 'object',
    required: ['error', 'message', 'type', 'code', 'request_id'],
    description:
      'Every error has this shape (docs/errors.md). `error` is the code on a 401 (`invalid_request` for a missing key) and the sentence elsewhere, as in the reference.',
    properties: {
      error: { type: 'string', description: 'The reference field: a code on 401, else what failed and how to fix it' },
      message: { type: 'string', description: 'What failed and how to fix it' },
      type: {
        enum: ['invalid_request', 'api_error'],
        description: '`invalid_request` when the request must change, `api_error` when the service failed',
      },
      code: {
        enum: codes,
        description: codes.map((c) => `\`${c}\`: ${ERROR_CATALOGUE[c as keyof typeof ERROR_CATALOGUE].meaning}`).join('\n'),
      },
      request_id: { type: 'string', description: 'The X-Request-Id of the request, which finds it in the logs' },
      details: {
        type: 'array',
        description: 'Every bad field, by its path (`items[3].quantity`; `documents[3].items[0].quantity` in a batch)',
        items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
      },
      report: {
        $ref: '#/components/schemas/ValidationReport',
        description: '`invalid_e_invoice` only: the /validate report of the received e-invoice (or of the output a `profile` asked for)',
      },
    },
  };
}

/** schemas/status-request.json: the body of POST /status. */
export function statusRequestSchema(registry: SchemaRegistry): Node {
  return rewrite(registry.raw().get('status-request')) as Node;
}

/** schemas/brand.json: the body of PUT /brand and the answer of GET /brand. */
export function brandSchema(registry: SchemaRegistry): Node {
  return rewrite(registry.raw().get('brand')) as Node;
}

/** schemas/validation-report.json: the answer of POST /validate, its finding a component of its own. */
export function reportSchemas(registry: SchemaRegistry): Node {
  const raw = registry.raw().get('validation-report') as { definitions?: Node } | undefined;
  const report = rewrite(raw) as Node;
  const finding = rewrite(raw?.definitions?.finding) as Node;
  return {
    ValidationReport: JSON.parse(
      JSON.stringify(report).replace(/"#\/components\/schemas\/finding"/g, '"#/components/schemas/Finding"'),
    ) as Node,
    Finding: finding,
  };
}

/**
 * Every field path a form may send for these types, in qs bracket notation with index 0 for lists
 * (`items[0][name]`), with the description of the JSON field. Walks the raw schema files (references resolved in
 * common.json), so a field added to schemas/ appears in the form body without a change here.
 */
function formFields(registry: SchemaRegistry, types: readonly string[]): Map<string, string | undefined> {
  const raw = registry.raw();
  const definitions = ((raw.get('common') as { definitions?: Node } | undefined)?.definitions ?? {}) as Record<string, unknown>;
  const out = new Map<string, string | undefined>();
  const walk = (node: unknown, path: string, depth: number): void => {
    if (!isNode(node) || depth > 8 || node.notAccepted === true) return;
    if (typeof node.$ref === 'string') return walk(definitions[definitionName(node.$ref)], path, depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
      if (Array.isArray(node[key])) for (const sub of node[key]) walk(sub, path, depth + 1);
    const nested = isNode(node.properties) ? Object.entries(node.properties) : [];
    for (const [name, sub] of nested) walk(sub, path ? `${path}[${name}]` : name, depth + 1);
    if (node.items !== undefined) walk(node.items, `${path}[0]`, depth + 1);
    const scalar = nested.length === 0 && node.items === undefined && !['allOf', 'anyOf', 'oneOf'].some((k) => k in node);
    if (path && (scalar || node.type !== undefined || node.enum !== undefined) && nested.length === 0 && node.items === undefined)
      if (!out.has(path) || (out.get(path) === undefined && typeof node.description === 'string'))
        out.set(path, typeof node.description === 'string' ? node.description : undefined);
  };
  for (const type of types) walk(raw.get(type), '', 0);
  out.set('type', 'Document type');
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The form body (`application/x-www-form-urlencoded`) of an operation: every field a string, named in bracket
 * notation. Index 0 of each list is an explicit property; `patternProperties` admits every other index, so a
 * validating gateway checks `items[7][quantity]` as it checks `items[0][quantity]`. Unknown fields are strings too:
 * the service ignores them, as it does in JSON.
 */
export function formSchema(registry: SchemaRegistry, types: readonly string[], title: string): { schema: Node; encoding: Node } {
  return formOf(formFields(registry, types), title, FORM_DESCRIPTION);
}

const FORM_DESCRIPTION =
  'The same document as the JSON body, as form fields in qs bracket notation: `items[0][name]=Consulting&items[0][quantity]=12`. ' +
  'Every value is a string (numbers as `12.5`, booleans as `true`); lists count from 0 (`items[1][name]` is the second line). ' +
  'The properties name index 0 of each list; patternProperties admit every index. The JSON schema of the type decides what is valid.';

/**
 * The form body of POST /batch: the top-level `format` and each document's fields under `documents[i]`
 * (`documents[0][items][0][name]`), every value a string, as formSchema describes a single document's.
 */
export function batchFormSchema(registry: SchemaRegistry): { schema: Node; encoding: Node } {
  const fields = new Map<string, string | undefined>([['format', 'The default format of every document (pdf, ubl, cii, factur-x)']]);
  for (const [path, description] of formFields(registry, DOCUMENT_TYPES)) {
    const bracket = path.indexOf('[');
    const name = bracket < 0 ? path : path.slice(0, bracket);
    fields.set(`documents[0][${name}]${bracket < 0 ? '' : path.slice(bracket)}`, description);
  }
  return formOf(
    fields,
    'Batch as form fields',
    'The same batch as the JSON body, as form fields in qs bracket notation: `format=pdf&documents[0][from]=Acme&documents[0][items][0][name]=Consulting`. ' +
      'Every value is a string; the documents and their lists count from 0. The properties name index 0 of each list; ' +
      'patternProperties admit every index. The JSON schema of each document decides what is valid.',
  );
}

function formOf(fields: Map<string, string | undefined>, title: string, description: string): { schema: Node; encoding: Node } {
  const properties: Node = {};
  const patternProperties: Node = {};
  const encoding: Node = {};
  for (const [path, description] of fields) {
    properties[path] = description ? { type: 'string', description } : { type: 'string' };
    encoding[path] = { style: 'form', explode: true };
    if (path.includes('[0]')) patternProperties[`^${escape(path).replace(/\\\[0\\\]/g, '\\[\\d+\\]')}$`] = { type: 'string' };
  }
  const schema = {
    title,
    type: 'object',
    description,
    properties,
    patternProperties,
    additionalProperties: { type: 'string' },
  };
  return { schema, encoding };
}
