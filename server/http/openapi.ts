// GET /openapi.json: an OpenAPI 3.1 description of every operation, built at start-up from the JSON Schema files in
// schemas/ (openapi/schemas.ts), the examples in examples/ (openapi/examples.ts) and the error catalogue
// (openapi/responses.ts); the client snippets are openapi/snippets.ts. This module assembles the operations; it must
// not read requests (docs.ts adds the server URL per request) nor describe a field the schema files do not have.
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config';
import type { SchemaRegistry } from '../documents/schema-registry';
import { DOCUMENT_TYPES, E_INVOICE_TYPES } from '../documents/model';
import { loadDocumentExamples, mediaExamples, toFormFields } from './openapi/examples';
import { documentHeaders, errorResponses, HEADERS } from './openapi/responses';
import { batchFormSchema, documentSchemas, errorSchema, formSchema, reportSchemas, type Node } from './openapi/schemas';
import { CODE_SAMPLES } from './openapi/snippets';
import {
  RECEIVED_BODY,
  RECEIVED_CONTENT,
  RECEIVED_ERRORS,
  RECEIVED_PARAMETERS,
  validateOperation,
  type ReceivedUse,
} from './openapi/received';

export interface OpenApiOptions {
  /** The server URL (docs.ts puts the request's own origin there). */
  origin?: string;
  /** MAX_BATCH_DOCUMENTS. */
  maxBatchDocuments?: number;
}

export const DEFAULT_ORIGIN = 'http://localhost:3000';

function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

const binary = { type: 'string', format: 'binary' };

const DOCUMENT_ERRORS = [400, 401, 405, 408, 413, 415, 429, 500, 503] as const;
const languageHeader = {
  name: 'Accept-Language',
  in: 'header',
  required: false,
  description: 'The locale of the document (labels, dates, numbers); the first supported one wins',
  schema: { type: 'string', default: 'en-US' },
};

export function buildOpenApi(registry: SchemaRegistry, options: OpenApiOptions = {}): Node {
  const examples = loadDocumentExamples();
  const maxBatch = options.maxBatchDocuments ?? 100;
  const schemas: Node = { ...documentSchemas(registry), ...reportSchemas(registry), Error: errorSchema() };
  const anyDocument = (types: readonly string[]) => ({ anyOf: types.map((t) => ({ $ref: `#/components/schemas/${t}` })) });
  schemas.AnyDocument = { ...anyDocument(DOCUMENT_TYPES), description: 'A document of any of the twelve types' };
  schemas.EInvoiceDocument = { ...anyDocument(E_INVOICE_TYPES), description: 'An invoice, a receipt or a credit note' };
  const forms = {
    any: formSchema(registry, DOCUMENT_TYPES, 'Document as form fields'),
    eInvoice: formSchema(registry, E_INVOICE_TYPES, 'E-invoice as form fields'),
  };
  schemas.DocumentForm = forms.any.schema;
  schemas.EInvoiceForm = forms.eInvoice.schema;
  const batchForm = batchFormSchema(registry);
  schemas.BatchForm = batchForm.schema;
  schemas.BatchFormat = {
    type: 'string',
    enum: ['pdf', 'ubl', 'cii', 'factur-x'],
    description: 'The operation each document goes through',
  };
  schemas.Batch = {
    type: 'object',
    required: ['documents'],
    properties: {
      format: { $ref: '#/components/schemas/BatchFormat', default: 'pdf' },
      documents: {
        type: 'array',
        minItems: 1,
        maxItems: maxBatch,
        description: `1 to MAX_BATCH_DOCUMENTS (${maxBatch}) documents, each as for POST /; each may set its own \`format\``,
        items: {
          allOf: [{ $ref: '#/components/schemas/AnyDocument' }],
          properties: { format: { $ref: '#/components/schemas/BatchFormat' } },
        },
      },
    },
  };

  const body = (kind: 'any' | 'eInvoice', received?: string) => {
    const types = kind === 'any' ? DOCUMENT_TYPES : E_INVOICE_TYPES;
    return {
      required: true,
      ...(received ? { description: received } : {}),
      content: {
        ...(received ? RECEIVED_CONTENT : {}),
        'application/json': {
          schema: { $ref: `#/components/schemas/${kind === 'any' ? 'AnyDocument' : 'EInvoiceDocument'}` },
          examples: mediaExamples(examples, types),
        },
        'application/x-www-form-urlencoded': {
          schema: { $ref: `#/components/schemas/${kind === 'any' ? 'DocumentForm' : 'EInvoiceForm'}` },
          encoding: forms[kind].encoding,
          examples: mediaExamples(examples, types, true),
        },
      },
    };
  };
  const disposition = {
    'Content-Language': { $ref: '#/components/headers/Content-Language' },
    'Content-Disposition': { $ref: '#/components/headers/Content-Disposition' },
  };
  const ok = (description: string, mediaType: string) => ({
    description,
    headers: documentHeaders(disposition),
    content: { [mediaType]: { schema: mediaType === 'application/pdf' ? binary : { type: 'string' } } },
  });
  const documentOperation = (op: Node, kind: 'any' | 'eInvoice', answer: Node, samples = false, received?: ReceivedUse) => ({
    post: {
      ...op,
      tags: [kind === 'any' ? 'documents' : 'e-invoices'],
      parameters: [languageHeader, ...(received ? RECEIVED_PARAMETERS[received] : [])],
      requestBody: body(kind, received ? RECEIVED_BODY[received] : undefined),
      responses: { 200: answer, ...errorResponses(received ? RECEIVED_ERRORS : DOCUMENT_ERRORS) },
      ...(samples ? { 'x-codeSamples': CODE_SAMPLES } : {}),
    },
  });
  const get = (operationId: string, summary: string, mediaType: string, schema: Node, extra: Node = {}) => ({
    get: {
      operationId,
      summary,
      tags: ['operations'],
      security: [],
      responses: { 200: { description: summary, content: { [mediaType]: { schema } } }, ...extra },
    },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Document generation service',
      version: packageVersion(),
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
      { name: 'operations', description: 'Health, readiness, metrics and this description; no key needed' },
    ],
    paths: {
      '/': documentOperation(
        { operationId: 'createPdf', summary: 'Create a document PDF (any of the twelve types)' },
        'any',
        ok('The PDF', 'application/pdf'),
        true,
        'show',
      ),
      '/ubl': documentOperation(
        {
          operationId: 'createUbl',
          summary: 'Create a UBL 2.1 e-invoice with the PDF embedded',
          description: 'Invoice, receipt or credit_note. e_invoice.profile: peppol (the default), en16931 or xrechnung.',
        },
        'eInvoice',
        ok('UBL 2.1 Invoice (invoice, receipt) or CreditNote (credit_note)', 'application/xml'),
        true,
        'convert',
      ),
      '/cii': documentOperation(
        {
          operationId: 'createCii',
          summary: 'Create a UN/CEFACT CII D16B e-invoice',
          description:
            'Invoice, receipt or credit_note. e_invoice.profile: en16931 (the default) or xrechnung. TypeCode 380 for invoice and receipt, 381 for credit_note.',
        },
        'eInvoice',
        ok('CrossIndustryInvoice', 'application/xml'),
        false,
        'convert',
      ),
      '/factur-x': documentOperation(
        {
          operationId: 'createFacturX',
          summary: 'Create a Factur-X / ZUGFeRD PDF/A-3 with its CII attached',
          description:
            'Invoice, receipt or credit_note. e_invoice.profile en16931 (the default): Factur-X EN 16931, the CII attached as ' +
            "factur-x.xml; xrechnung: ZUGFeRD's XRECHNUNG profile, attached as xrechnung.xml.",
        },
        'eInvoice',
        ok('The PDF/A-3a (and PDF/UA-1)', 'application/pdf'),
        false,
        'convert',
      ),
      '/validate': validateOperation(),
      '/batch': batchOperation(examples, maxBatch, batchForm.encoding),
      '/healthz': get('health', 'Liveness', 'application/json', { type: 'object', properties: { status: { const: 'ok' } } }),
      '/readyz': get(
        'readiness',
        'Readiness: browser, key store and XSD worker, with the pool state',
        'application/json',
        { type: 'object' },
        {
          503: { description: 'Not ready (`Retry-After`)', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      ),
      '/metrics': get('metrics', 'Prometheus metrics', 'text/plain', { type: 'string' }),
      '/openapi.json': get('openapi', 'This OpenAPI description', 'application/json', { type: 'object' }),
      '/docs': get('docs', 'The API reference page, rendered from this description', 'text/html', { type: 'string' }),
    },
    components: {
      schemas,
      headers: HEADERS,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: sk_ followed by 32 characters' } },
    },
  };
}

function batchOperation(examples: Map<string, Node>, maxBatch: number, formEncoding: Node): Node {
  const docs = ['invoice', 'receipt'].map((t) => examples.get(t)).filter((d): d is Node => d !== undefined);
  const detail = { field: 'documents[3].items[0].quantity', message: 'must be a number' };
  return {
    post: {
      operationId: 'createBatch',
      summary: `Create up to ${maxBatch} documents in one request`,
      description:
        'Each document as for POST / (each may set its own `format`; the top-level `format` is the default). `Accept: application/zip` ' +
        '(the default) answers a ZIP with one file per document, named as its single operation names it; `Accept: application/pdf` ' +
        "answers one PDF with every document's pages in order (every document must then be format pdf). The whole batch is " +
        'validated first and counted as one document per entry: when the quota cannot take all of them, nothing is made or counted.',
      tags: ['batch'],
      parameters: [
        languageHeader,
        {
          name: 'Accept',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: ['application/zip', 'application/pdf'], default: 'application/zip' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Batch' },
            examples: { zip: { summary: 'Two documents as a ZIP', value: { format: 'pdf', documents: docs } } },
          },
          'application/x-www-form-urlencoded': {
            schema: { $ref: '#/components/schemas/BatchForm' },
            encoding: formEncoding,
            examples: {
              zip: { summary: 'The same two documents as form fields', value: toFormFields({ format: 'pdf', documents: docs }) },
            },
          },
        },
      },
      responses: {
        200: {
          description: 'A ZIP of the documents (Accept: application/zip), or one PDF of all their pages (Accept: application/pdf)',
          headers: documentHeaders(),
          content: { 'application/zip': { schema: binary }, 'application/pdf': { schema: binary } },
        },
        ...errorResponses([400, 401, 405, 406, 408, 413, 415, 429, 500, 503], {
          400: {
            examples: {
              batch_validation_failed: {
                summary: 'A bad field of the fourth document',
                value: {
                  error: 'documents[3].items[0].quantity must be a number',
                  message: 'documents[3].items[0].quantity must be a number',
                  type: 'invalid_request',
                  code: 'validation_failed',
                  request_id: '6f1c2b0e-9d1a-4c47-a1f2-0c3e5d7b9a11',
                  details: [detail],
                },
              },
            },
          },
          429: { description: 'The quota cannot take every document of the batch (none was made or counted), or too many wrong keys' },
        }),
      },
    },
  };
}
