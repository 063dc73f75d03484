// The document operations of the OpenAPI description: POST /, /ubl, /cii and /factur-x as rows of one table (what
// each makes, from which bodies, with which snippets), their request bodies (JSON and form fields, with the examples,
// and the received e-invoices of received.ts), and the Accept-Language parameter they share with POST /batch. Must not
// describe schemas (schemas.ts) nor error bodies (responses.ts).
import { DOCUMENT_TYPES, E_INVOICE_TYPES } from '../../documents/model';
import { mediaExamples } from './examples';
import { documentHeaders, errorResponses } from './responses';
import { RECEIVED_BODY, RECEIVED_CONTENT, RECEIVED_ERRORS, RECEIVED_PARAMETERS, type ReceivedUse } from './received';
import type { Node } from './schemas';
import { CODE_SAMPLES } from './snippets';

export const binary = { type: 'string', format: 'binary' };

export const languageHeader = {
  name: 'Accept-Language',
  in: 'header',
  required: false,
  description: 'The locale of the document (labels, dates, numbers); the first supported one wins',
  schema: { type: 'string', default: 'en-US' },
};

/** Which documents an operation takes: any of the twelve types, or the e-invoice types. */
export type BodyKind = 'any' | 'eInvoice';

/** The form bodies' encodings (schemas.ts formSchema), by kind. */
export type FormEncodings = Record<BodyKind, Node>;

interface DocumentOperation {
  path: string;
  /** operationId, summary and description. */
  op: Node;
  kind: BodyKind;
  /** The 200 answer: its description and media type. */
  answer: { description: string; mediaType: 'application/pdf' | 'application/xml' };
  /** Whether the client snippets (snippets.ts) show this operation. */
  samples: boolean;
  /** What a received e-invoice sent here becomes. */
  received: ReceivedUse;
}

const DOCUMENT_OPERATIONS: readonly DocumentOperation[] = [
  {
    path: '/',
    op: { operationId: 'createPdf', summary: 'Create a document PDF (any of the twelve types)' },
    kind: 'any',
    answer: { description: 'The PDF', mediaType: 'application/pdf' },
    samples: true,
    received: 'show',
  },
  {
    path: '/ubl',
    op: {
      operationId: 'createUbl',
      summary: 'Create a UBL 2.1 e-invoice with the PDF embedded',
      description: 'Invoice, receipt or credit_note. e_invoice.profile: peppol (the default), en16931 or xrechnung.',
    },
    kind: 'eInvoice',
    answer: { description: 'UBL 2.1 Invoice (invoice, receipt) or CreditNote (credit_note)', mediaType: 'application/xml' },
    samples: true,
    received: 'convert',
  },
  {
    path: '/cii',
    op: {
      operationId: 'createCii',
      summary: 'Create a UN/CEFACT CII D16B e-invoice',
      description:
        'Invoice, receipt or credit_note. e_invoice.profile: en16931 (the default) or xrechnung. TypeCode 380 for invoice and receipt, 381 for credit_note.',
    },
    kind: 'eInvoice',
    answer: { description: 'CrossIndustryInvoice', mediaType: 'application/xml' },
    samples: false,
    received: 'convert',
  },
  {
    path: '/factur-x',
    op: {
      operationId: 'createFacturX',
      summary: 'Create a Factur-X / ZUGFeRD PDF/A-3 with its CII attached',
      description:
        'Invoice, receipt or credit_note. e_invoice.profile en16931 (the default): Factur-X EN 16931, the CII attached as ' +
        "factur-x.xml; xrechnung: ZUGFeRD's XRECHNUNG profile, attached as xrechnung.xml.",
    },
    kind: 'eInvoice',
    answer: { description: 'The PDF/A-3a (and PDF/UA-1)', mediaType: 'application/pdf' },
    samples: false,
    received: 'convert',
  },
];

/** The paths of the document operations, in the table's order. */
export function documentPaths(examples: Map<string, Node>, encodings: FormEncodings): Node {
  const paths: Node = {};
  for (const row of DOCUMENT_OPERATIONS) paths[row.path] = documentOperation(row, examples, encodings);
  return paths;
}

function documentOperation(row: DocumentOperation, examples: Map<string, Node>, encodings: FormEncodings): Node {
  const { kind, received } = row;
  return {
    post: {
      ...row.op,
      tags: [kind === 'any' ? 'documents' : 'e-invoices'],
      parameters: [languageHeader, ...RECEIVED_PARAMETERS[received]],
      requestBody: documentBody(kind, examples, encodings[kind], RECEIVED_BODY[received]),
      responses: { 200: documentAnswer(row.answer), ...errorResponses(RECEIVED_ERRORS) },
      ...(row.samples ? { 'x-codeSamples': CODE_SAMPLES } : {}),
    },
  };
}

/** A document as JSON or form fields (with the examples of its types), or a received e-invoice. */
function documentBody(kind: BodyKind, examples: Map<string, Node>, encoding: Node, description: string): Node {
  const types = kind === 'any' ? DOCUMENT_TYPES : E_INVOICE_TYPES;
  return {
    required: true,
    description,
    content: {
      ...RECEIVED_CONTENT,
      'application/json': {
        schema: { $ref: `#/components/schemas/${kind === 'any' ? 'AnyDocument' : 'EInvoiceDocument'}` },
        examples: mediaExamples(examples, types),
      },
      'application/x-www-form-urlencoded': {
        schema: { $ref: `#/components/schemas/${kind === 'any' ? 'DocumentForm' : 'EInvoiceForm'}` },
        encoding,
        examples: mediaExamples(examples, types, true),
      },
    },
  };
}

const disposition = {
  'Content-Language': { $ref: '#/components/headers/Content-Language' },
  'Content-Disposition': { $ref: '#/components/headers/Content-Disposition' },
};

function documentAnswer({ description, mediaType }: DocumentOperation['answer']): Node {
  return {
    description,
    headers: documentHeaders(disposition),
    content: { [mediaType]: { schema: mediaType === 'application/pdf' ? binary : { type: 'string' } } },
  };
}
