// POST /batch in the OpenAPI description: its JSON schemas (Batch, BatchFormat), its request bodies (JSON, and form
// fields in bracket keys: schemas.ts batchFormSchema) with one example of two documents taken from examples/, and its
// answers (a ZIP or one PDF, and the errors, with a bad field of the fourth document as the 400 example). Must not
// describe the single-document operations (documents.ts).
import { BATCH_FORMATS } from '../../batch/batch';
import { binary, languageHeader } from './documents';
import { toFormFields } from './examples';
import { documentHeaders, errorResponses } from './responses';
import type { Node } from './schemas';

/** The JSON schemas of the batch body: BatchFormat and Batch (at most `maxBatch` documents). */
export function batchSchemas(maxBatch: number): Node {
  return {
    BatchFormat: {
      type: 'string',
      enum: [...BATCH_FORMATS],
      description: 'The operation each document goes through',
    },
    Batch: {
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
    },
  };
}

export function batchOperation(examples: Map<string, Node>, maxBatch: number, formEncoding: Node): Node {
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
      requestBody: batchBody(examples, formEncoding),
      responses: batchResponses(),
    },
  };
}

/** The body as JSON or form fields, each with the same two documents (the invoice and receipt examples). */
function batchBody(examples: Map<string, Node>, formEncoding: Node): Node {
  const docs = ['invoice', 'receipt'].map((t) => examples.get(t)).filter((d): d is Node => d !== undefined);
  return {
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
  };
}

function batchResponses(): Node {
  const detail = { field: 'documents[3].items[0].quantity', message: 'must be a number' };
  return {
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
  };
}
