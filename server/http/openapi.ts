// GET /openapi.json: an OpenAPI 3.1 description of every operation, built at start-up from the JSON Schema files in
// schemas/ (openapi/schemas.ts), the examples in examples/ (read by http-assets.ts; openapi/examples.ts) and the error
// catalogue (openapi/responses.ts); the operations are openapi/documents.ts (POST /, /ubl, /cii, /factur-x),
// openapi/received.ts (POST /validate), openapi/batch.ts (POST /batch) and the GET operations below; the client
// snippets are openapi/snippets.ts. This module assembles the document; it must not read files or requests (docs.ts
// adds the server URL per request) nor describe a field the schema files do not have.
import type { SchemaRegistry } from '../documents/schema-registry';
import { DOCUMENT_TYPES, E_INVOICE_TYPES } from '../documents/model';
import { batchOperation, batchSchemas } from './openapi/batch';
import { documentPaths, type FormEncodings } from './openapi/documents';
import { HEADERS } from './openapi/responses';
import {
  batchFormSchema,
  documentSchemas,
  errorSchema,
  formSchema,
  reportSchemas,
  statusRequestSchema,
  brandSchema,
  type Node,
} from './openapi/schemas';
import { statusOperation, validateOperation } from './openapi/received';
import { brandOperations } from './openapi/brand';

export interface OpenApiOptions {
  /** The server URL (docs.ts puts the request's own origin there). */
  origin?: string;
  /** MAX_BATCH_DOCUMENTS. */
  maxBatchDocuments?: number;
}

/** What the description takes from data files, read once at start-up (http-assets.ts). */
export interface OpenApiFiles {
  /** examples/<type>.json by type. */
  examples: Map<string, Node>;
  /** examples/received/*.xml by file name (the description's received e-invoices). */
  receivedExamples: Map<string, string>;
  /** package.json's version. */
  version: string;
}

export const DEFAULT_ORIGIN = 'http://localhost:3000';

export function buildOpenApi(registry: SchemaRegistry, files: OpenApiFiles, options: OpenApiOptions = {}): Node {
  const maxBatch = options.maxBatchDocuments ?? 100;
  const { schemas, encodings } = componentSchemas(registry, maxBatch);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Document generation service',
      version: files.version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Business documents as PDF; e-invoices (EN 16931) as UBL 2.1 with the PDF embedded, as UN/CEFACT CII D16B, and as ' +
        'Factur-X / ZUGFeRD (a PDF/A-3 carrying its CII), in the profiles Peppol BIS 3.0, EN 16931 and XRechnung 3.0. ' +
        'Every request body may be JSON or form fields in bracket notation (`items[0][name]`). Every error has one shape (`Error`), ' +
        'its `code` one of a stable list. Document answers carry the IETF RateLimit headers of the monthly quota.',
    },
    servers: [{ url: options.origin ?? DEFAULT_ORIGIN, description: 'This service' }],
    security: [{ bearer: [] }],
    tags: [
      { name: 'documents', description: 'Any of the twelve document types as a PDF' },
      { name: 'e-invoices', description: 'Invoices, receipts and credit notes as EN 16931 e-invoices: UBL, CII, Factur-X' },
      { name: 'batch', description: 'Many documents in one request, as a ZIP or one PDF' },
      { name: 'brand', description: "The account's brand: its theme, colours, font, logo, footer, language and paper" },
      { name: 'operations', description: 'Health, readiness, metrics and this description; no key needed' },
    ],
    paths: {
      ...documentPaths(files.examples, encodings),
      '/validate': validateOperation(files.receivedExamples),
      '/status': statusOperation(),
      '/batch': batchOperation(files.examples, maxBatch, encodings.batch),
      '/brand': brandOperations(),
      ...operationPaths(),
    },
    components: {
      schemas,
      headers: HEADERS,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: sk_ followed by 32 characters' } },
    },
  };
}

/** components.schemas, in the description's order, and the encodings of the form bodies. */
function componentSchemas(registry: SchemaRegistry, maxBatch: number): { schemas: Node; encodings: FormEncodings & { batch: Node } } {
  const anyDocument = (types: readonly string[]) => ({ anyOf: types.map((t) => ({ $ref: `#/components/schemas/${t}` })) });
  const any = formSchema(registry, DOCUMENT_TYPES, 'Document as form fields');
  const eInvoice = formSchema(registry, E_INVOICE_TYPES, 'E-invoice as form fields');
  const batch = batchFormSchema(registry);
  const schemas: Node = {
    ...documentSchemas(registry),
    ...reportSchemas(registry),
    StatusRequest: statusRequestSchema(registry),
    Brand: brandSchema(registry),
    Error: errorSchema(),
    AnyDocument: { ...anyDocument(DOCUMENT_TYPES), description: 'A document of any of the twelve types' },
    EInvoiceDocument: { ...anyDocument(E_INVOICE_TYPES), description: 'An invoice, a receipt or a credit note' },
    DocumentForm: any.schema,
    EInvoiceForm: eInvoice.schema,
    BatchForm: batch.schema,
    ...batchSchemas(maxBatch),
  };
  return { schemas, encodings: { any: any.encoding, eInvoice: eInvoice.encoding, batch: batch.encoding } };
}

/** The GET operations: health, readiness, metrics, this description and its page; no key needed. */
function operationPaths(): Node {
  const get = (operationId: string, summary: string, mediaType: string, schema: Node, extra: Node = {}) => ({
    get: {
      operationId,
      summary,
      tags: ['operations'],
      security: [],
      responses: { 200: { description: summary, content: { [mediaType]: { schema } } }, ...extra },
    },
  });
  const notReady = { description: 'Not ready (`Retry-After`)', content: { 'application/json': { schema: { type: 'object' } } } };
  return {
    '/healthz': get('health', 'Liveness', 'application/json', { type: 'object', properties: { status: { const: 'ok' } } }),
    '/readyz': get(
      'readiness',
      'Readiness: browser, key store and XSD worker, with the pool state',
      'application/json',
      { type: 'object' },
      { 503: notReady },
    ),
    '/metrics': get('metrics', 'Prometheus metrics', 'text/plain', { type: 'string' }),
    '/openapi.json': get('openapi', 'This OpenAPI description', 'application/json', { type: 'object' }),
    '/docs': get('docs', 'The API reference page, rendered from this description', 'text/html', { type: 'string' }),
  };
}
