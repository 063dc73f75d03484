// The received e-invoices in the OpenAPI description: the XML and PDF bodies that /, /ubl, /cii and
// /factur-x take besides JSON and form documents, their query parameters, and POST /validate with its report
// (schemas/validation-report.json). Must not describe the document bodies (schemas.ts) nor error bodies (responses.ts).
import { documentHeaders, errorResponses } from './responses';
import { DEFAULT_THEME } from '../../documents/theme-ids';
import type { Node } from './schemas';

const binary = { type: 'string', format: 'binary' };

/** A received e-invoice as a body: UBL or CII as XML, or a Factur-X / ZUGFeRD PDF. */
export const RECEIVED_CONTENT = {
  'application/xml': { schema: { type: 'string', description: 'A UBL 2.1 Invoice or CreditNote, or a CII D16B CrossIndustryInvoice' } },
  'text/xml': { schema: { type: 'string', description: 'As application/xml' } },
  'application/pdf': { schema: { ...binary, description: 'A Factur-X / ZUGFeRD PDF: the XML inside is read' } },
};

export type ReceivedUse = 'show' | 'convert';
export const RECEIVED_BODY: Record<ReceivedUse, string> = {
  show:
    'A document as JSON or form fields; or a received e-invoice (XML or a Factur-X PDF), shown as the PDF a person reads: ' +
    'every business term it carries, its own amounts, and a line saying under which rules it was checked and whether it passed.',
  convert:
    'A document as JSON or form fields; or a received e-invoice (XML or a Factur-X PDF), converted: the same invoice in this ' +
    'syntax, its specification kept (an XRechnung stays an XRechnung) unless `profile` names another. An invoice that breaks ' +
    'its own rules is answered 422 with its report, never converted.',
};
const themeQuery = {
  name: 'theme',
  in: 'query',
  required: false,
  description: "A received e-invoice shown as a PDF: the theme, one of those a document's `theme` offers (a JSON document names its own)",
  schema: { type: 'string', default: DEFAULT_THEME },
};
export const RECEIVED_PARAMETERS: Record<ReceivedUse, Node[]> = {
  show: [themeQuery],
  convert: [
    {
      name: 'profile',
      in: 'query',
      required: false,
      description: 'A received e-invoice: the specification to write it to, instead of its own (its rules are then checked on the output)',
      schema: { enum: ['peppol', 'en16931', 'xrechnung', 'minimum', 'basic_wl', 'basic', 'extended', 'fr', 'extended_ctc_fr'] },
    },
    themeQuery,
  ],
};
export const RECEIVED_ERRORS = [400, 401, 405, 408, 413, 415, 422, 429, 500, 503] as const;

/** The received bodies with `examples` of the XML ones: each file of examples/received/ by its name. */
function receivedContentWith(examples: Map<string, string>): Node {
  if (examples.size === 0) return RECEIVED_CONTENT;
  const xmlExamples = Object.fromEntries(
    [...examples].map(([file, value]) => [
      file.replace(/\.xml$/, '').replace(/\W+/g, '-'),
      { summary: `examples/received/${file}`, value },
    ]),
  );
  return {
    ...RECEIVED_CONTENT,
    'application/xml': { ...RECEIVED_CONTENT['application/xml'], examples: xmlExamples },
  };
}

/** POST /validate: a received body in, the report out; `examples`: the XML bodies it shows (examples/received/). */
export function validateOperation(examples: Map<string, string> = new Map()): Node {
  return {
    post: {
      operationId: 'validateEInvoice',
      summary: 'Check a received e-invoice against its XSD and every official rule set of its specification',
      description:
        'A UBL Invoice or CreditNote, a CII CrossIndustryInvoice, or a Factur-X / ZUGFeRD PDF (the XML inside is checked, ' +
        'and the PDF/A-3 structure as far as the service can). The syntax, document type and specification (BT-24) are ' +
        'recognised, and the XSD and the rule sets of that specification run: EN 16931 (UBL, CII), Peppol BIS Billing 3.0, ' +
        'XRechnung 3.0, the Factur-X profiles. An invoice that breaks rules is a 200 with `valid: false`; only a body ' +
        'that is not an e-invoice is an error (415 unsupported_document, 400 malformed_xml). Counts as one document.',
      tags: ['e-invoices'],
      requestBody: { required: true, content: receivedContentWith(examples) },
      responses: {
        200: {
          description: 'The report, whether the invoice passes or not',
          headers: documentHeaders({ 'Content-Language': { $ref: '#/components/headers/Content-Language' } }),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationReport' } } },
        },
        ...errorResponses([400, 401, 405, 408, 413, 415, 429, 500, 503]),
      },
    },
  };
}

/** POST /status: a received French invoice and its status in, the CDAR status message out. */
export function statusOperation(): Node {
  const example = {
    invoice: '<?xml version="1.0" encoding="UTF-8"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">…</Invoice>',
    status: 'refused',
    reason: 'MONTANTTOTAL_ERR',
    reason_text: 'Le total ne correspond pas au bon de commande 4500012345.',
  };
  return {
    post: {
      operationId: 'lifecycleStatus',
      summary: 'The lifecycle status of a received French e-invoice, as the CDAR message (France’s reform)',
      description:
        'France’s e-invoicing reform (XP Z12-012): the buyer’s platform tells the seller’s what became of an invoice: ' +
        'received (204, taken in charge), approved (205), refused (210) or disputed (207) with a reason code of the ' +
        'reform’s list, and the seller tells that it was paid (212, encaissée) with the amount and its VAT rate. The ' +
        'answer is the UN/CEFACT Cross Domain Acknowledgement and Response D22B message (CDV), valid under its XSD and the ' +
        'FNFE-MPE’s BR-FR-CDV rules. The invoice (UBL or CII, as text) must be French: a French billing framework in BT-23 ' +
        '(B1, S1, M1, …), a French profile, or an electronic address in scheme 0225; with both parties’ SIREN. ' +
        'Counts as one document.',
      tags: ['e-invoices'],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/StatusRequest' }, example },
          'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/StatusRequest' } },
        },
      },
      responses: {
        200: {
          description: 'The CDAR status message (`status-<number>-<status>.xml`)',
          headers: documentHeaders({ 'Content-Disposition': { $ref: '#/components/headers/Content-Disposition' } }),
          content: { 'application/xml': { schema: { type: 'string' } } },
        },
        ...errorResponses([400, 401, 405, 408, 413, 415, 429, 500, 503]),
      },
    },
  };
}
