// GET /openapi.json: an OpenAPI 3.1 description of POST / and POST /ubl, built at start-up from the JSON Schema files
// in schemas/ (the single source of truth): their definitions become components, their references are rewritten,
// and our own `notAccepted` keyword becomes the plain schema it stands for.
import type { SchemaRegistry } from '../documents/schema-registry';
import { DOCUMENT_TYPES, E_INVOICE_TYPES } from '../documents/model';
import { ERROR_CATALOGUE } from './error-catalogue';

type Node = Record<string, unknown>;

/** What `notAccepted: true` admits: an absent-like value only. */
const ABSENT_ONLY = {
  description: 'Not accepted for this type: only null, an empty value or zero may be sent.',
  anyOf: [{ type: 'null' }, { const: '' }, { const: 0 }, { const: '0' }, { const: false }, { type: 'array', maxItems: 0 }],
};

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node === null || typeof node !== 'object') return node;
  const n = node as Node;
  if (n.notAccepted === true) return ABSENT_ONLY;
  const out: Node = {};
  for (const [key, value] of Object.entries(n)) {
    if (key === '$schema' || key === '$id' || key === 'definitions') continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = `#/components/schemas/${value.replace(/^(common\.json)?#\/definitions\//, '')}`;
      continue;
    }
    out[key] = rewrite(value);
  }
  return out;
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ERROR = { $ref: '#/components/schemas/Error' };

export function buildOpenApi(registry: SchemaRegistry): Node {
  const raw = registry.raw();
  const schemas: Node = {};
  const common = raw.get('common') as { definitions?: Node } | undefined;
  for (const [name, def] of Object.entries(common?.definitions ?? {})) schemas[name] = rewrite(def);
  for (const type of DOCUMENT_TYPES) {
    const s = rewrite(raw.get(type)) as Node;
    const props = { ...((s.properties as Node | undefined) ?? {}), type: { enum: [type], description: 'Document type' } };
    schemas[type] = { ...s, properties: props, ...(type === 'invoice' ? {} : { required: ['type'] }) };
  }
  const codes = Object.keys(ERROR_CATALOGUE);
  schemas.Error = {
    type: 'object',
    required: ['error', 'message', 'type', 'code', 'request_id'],
    description:
      'Every error has this shape (README, "Errors"). `error` is the code on a 401 (`invalid_request` for a missing key) and the sentence elsewhere, as in the reference.',
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
        items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
      },
    },
  };

  const body = (types: readonly string[]) => {
    const schema = { anyOf: types.map((t) => ({ $ref: `#/components/schemas/${t}` })) };
    return { required: true, content: { ...json(schema), 'application/x-www-form-urlencoded': { schema } } };
  };
  const errors = {
    400: { description: 'The document could not be validated; every bad field is listed', content: json(ERROR) },
    401: { description: 'Missing, unknown or revoked API key', content: json(ERROR) },
    404: { description: 'No such endpoint', content: json(ERROR) },
    405: { description: 'Another method than POST', headers: { Allow: { schema: { type: 'string' } } }, content: json(ERROR) },
    408: { description: 'The whole request did not arrive within REQUEST_TIMEOUT_MS', content: json(ERROR) },
    413: { description: 'Body over the size limit', content: json(ERROR) },
    415: { description: 'Content type other than JSON or form fields', content: json(ERROR) },
    429: {
      description: 'Monthly plan limit reached',
      headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until 00:00 UTC on the 1st of next month' } },
      content: json(ERROR),
    },
    500: { description: 'A defect of the service; `request_id` finds it in the logs', content: json(ERROR) },
    503: {
      description: 'Renderer saturated or past its deadline',
      headers: { 'Retry-After': { schema: { type: 'integer' } } },
      content: json(ERROR),
    },
  };
  const languageHeader = { name: 'Accept-Language', in: 'header', required: false, schema: { type: 'string', default: 'en-US' } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Document generation service',
      version: '1.0.0',
      description:
        'Business documents as PDF; e-invoices (EN 16931) as UBL 2.1 with the PDF embedded, as UN/CEFACT CII D16B, and as ' +
        'Factur-X / ZUGFeRD (a PDF/A-3 carrying its CII), in the profiles Peppol BIS 3.0, EN 16931 and XRechnung 3.0.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths: {
      '/': {
        post: {
          operationId: 'createPdf',
          summary: 'Create a document PDF (any of the twelve types)',
          parameters: [languageHeader],
          requestBody: body(DOCUMENT_TYPES),
          responses: {
            200: {
              description: 'The PDF',
              headers: { 'Content-Language': { schema: { type: 'string' } }, 'Content-Disposition': { schema: { type: 'string' } } },
              content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
            },
            ...errors,
          },
        },
      },
      '/ubl': {
        post: {
          operationId: 'createUbl',
          summary: 'Create a UBL 2.1 e-invoice with the PDF embedded (invoice, receipt, credit_note)',
          description: 'e_invoice.profile: peppol (the default), en16931 or xrechnung.',
          parameters: [languageHeader],
          requestBody: body(E_INVOICE_TYPES),
          responses: {
            200: { description: 'UBL 2.1 Invoice or CreditNote', content: { 'application/xml': { schema: { type: 'string' } } } },
            ...errors,
          },
        },
      },
      '/cii': {
        post: {
          operationId: 'createCii',
          summary: 'Create a UN/CEFACT CII D16B e-invoice (invoice, receipt, credit_note)',
          description: 'e_invoice.profile: en16931 (the default) or xrechnung. TypeCode 380 for invoice and receipt, 381 for credit_note.',
          parameters: [languageHeader],
          requestBody: body(E_INVOICE_TYPES),
          responses: {
            200: { description: 'CrossIndustryInvoice', content: { 'application/xml': { schema: { type: 'string' } } } },
            ...errors,
          },
        },
      },
      '/factur-x': {
        post: {
          operationId: 'createFacturX',
          summary: 'Create a Factur-X / ZUGFeRD PDF/A-3 with its CII attached (invoice, receipt, credit_note)',
          description:
            'e_invoice.profile en16931 (the default): Factur-X EN 16931, the CII attached as factur-x.xml; xrechnung: ' +
            "ZUGFeRD's XRECHNUNG profile, attached as xrechnung.xml.",
          parameters: [languageHeader],
          requestBody: body(E_INVOICE_TYPES),
          responses: {
            200: { description: 'The PDF/A-3b', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
            ...errors,
          },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: sk_ followed by 32 characters' } },
    },
  };
}
