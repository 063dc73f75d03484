// Domain errors: every failure a client can see, as a code, a message and the facts (which fields, when to try
// again). Core modules throw these and know nothing of HTTP; server/http/error-catalogue.ts alone gives each code its
// status, headers and body, and lists every code with its meaning (a test holds it, docs/errors.md and the OpenAPI
// description to the same list). Messages say what failed and how to fix it; they never echo field values
// (documents are never logged).

export interface FieldProblem {
  /** Path of the field in the request, e.g. `items[3].quantity`. */
  field: string;
  message: string;
}

/** The account pages' own answers (HTML, server/http/account/error-page.ts), never the API's. */
export const ACCOUNT_ERROR_CODES = [
  'invalid_form',
  'wrong_credentials',
  'form_expired',
  'key_not_found',
  'email_taken',
  'too_many_sign_ins',
  'too_many_sign_ups',
] as const;

export const ERROR_CODES = [
  'validation_failed',
  'malformed_json',
  'empty_body',
  'unsupported_media_type',
  'unsupported_document',
  'malformed_xml',
  'invalid_e_invoice',
  'body_too_large',
  'invalid_request',
  'request_timeout',
  'headers_too_large',
  'missing_api_key',
  'invalid_api_key',
  'inactive_api_key',
  'quota_exceeded',
  'too_many_failed_keys',
  'not_found',
  'method_not_allowed',
  'not_acceptable',
  'unsupported_type',
  'renderer_busy',
  'rules_unavailable',
  'render_timeout',
  'render_failed',
  'timestamp_unavailable',
  'client_closed_request',
  'store_unavailable',
  // Written by deploy/nginx.conf when no instance answers (a replica died with the request), never by the service.
  'upstream_unavailable',
  'internal',
  ...ACCOUNT_ERROR_CODES,
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Failures of the service, not of the request: the same request may succeed later. */
const SERVICE_FAILURES: ReadonlySet<ErrorCode> = new Set([
  'renderer_busy',
  'rules_unavailable',
  'render_timeout',
  'render_failed',
  'timestamp_unavailable',
  'store_unavailable',
  'upstream_unavailable',
  'internal',
]);

/** Whether the request itself must change (its fields, its key, its size), as opposed to the service failing. */
export function isRequestProblem(code: ErrorCode): boolean {
  return !SERVICE_FAILURES.has(code);
}

/** Where an account stands in its monthly quota, as the reservation saw it (absent for unlimited plans). */
export interface QuotaState {
  limit: number;
  /** Documents left after this request (0 on a refusal). */
  remaining: number;
  /** Whole seconds until the next period starts. */
  resetSeconds: number;
  /** Length of the current period (this calendar month, UTC), in seconds. */
  windowSeconds: number;
}

/** What a client may need besides the message. */
export interface ErrorFacts {
  /** Every problem with the request's fields. */
  details?: FieldProblem[];
  /** Seconds after which the same request may succeed (capacity, quota period, a busy store). */
  retryAfterSeconds?: number;
  /** The methods the path accepts. */
  allow?: string[];
  /** The /validate report of a received e-invoice that fails its own rules (invalid_e_invoice). */
  report?: unknown;
  /** The quota, on a quota_exceeded refusal. */
  quota?: QuotaState;
  cause?: unknown;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly facts: ErrorFacts = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** How many problems the one-sentence `error` names before it says "and N more". */
const PROBLEMS_IN_SENTENCE = 3;
/** How many problems `details` lists at most (a 1,000-line body with every line wrong stays readable); a request with
 * more is told how many at least. */
export const MAX_DETAILS = 100;

export const errors = {
  /** `subject`: what was sent (a document, or a brand). */
  validation(details: FieldProblem[], subject = 'document'): DomainError {
    const shown = details.slice(0, PROBLEMS_IN_SENTENCE).map((d) => d.message);
    const more = details.length - shown.length;
    // A full list may have left problems out: the count is then a floor.
    const atLeast = details.length >= MAX_DETAILS ? 'at least ' : '';
    const sentence = `Invalid ${subject}: ${shown.join('; ')}${more > 0 ? `; and ${atLeast}${more} more (see details)` : ''}.`;
    return new DomainError('validation_failed', sentence, { details });
  },
  malformedJson(reason: string): DomainError {
    return new DomainError(
      'malformed_json',
      `The request body is malformed JSON (${reason}). Send a JSON object, or the fields as a form (application/x-www-form-urlencoded).`,
    );
  },
  emptyBody(): DomainError {
    return new DomainError('empty_body', 'The request body is empty. Send the document details as JSON or as form fields.');
  },
  /** `subject`: what the body is (a document, a batch's too; a brand), for the sentence's example. */
  notAnObject(subject: 'document' | 'brand' = 'document'): DomainError {
    const example =
      subject === 'brand'
        ? 'a JSON object with the brand\'s fields, e.g. {"theme": "modern", "accent_color": "#0e7490"}'
        : 'a JSON object with the document fields, e.g. {"from": "…", "to": "…", "items": […]}';
    return new DomainError('validation_failed', `The request body must be ${example}.`, {
      details: [{ field: '(body)', message: 'the body must be a JSON object' }],
    });
  },
  /** A body in a format the service reads (XML, PDF) that is not an e-invoice it knows (a UBL Order, an XHTML page,
   * a PDF without an invoice inside); `what` says what it is instead. */
  unsupportedDocument(what: string): DomainError {
    return new DomainError(
      'unsupported_document',
      `The body is not an e-invoice this service reads: ${what}. Send a UBL 2.1 Invoice or CreditNote, a UN/CEFACT CII CrossIndustryInvoice, or a Factur-X / ZUGFeRD PDF.`,
    );
  },
  /** An XML body that cannot be read safely or at all: not well-formed, a DTD (refused, never processed), too deep. */
  malformedXml(reason: string): DomainError {
    return new DomainError('malformed_xml', `The XML body cannot be read: ${reason}.`);
  },
  /** A received e-invoice that fails its own rules, asked to be converted or shown: never turned into a document
   * that looks valid. `report` is the /validate report. */
  invalidEInvoice(fatal: number, report: unknown): DomainError {
    return new DomainError(
      'invalid_e_invoice',
      `The e-invoice breaks ${fatal} rule${fatal === 1 ? '' : 's'} of its own specification, so it is not converted; \`report\` lists them (validating it alone gives the same report).`,
      { report },
    );
  },
  /** A valid received e-invoice that, written in the syntax or specification asked for (`profile`), would break its
   * rules (a term the other syntax has no place for, what the other specification asks): the report is the output's. */
  invalidConversion(fatal: number, report: unknown): DomainError {
    return new DomainError(
      'invalid_e_invoice',
      `Written in the syntax (and specification) asked for, the e-invoice would break ${fatal} of its rules, so it is not converted; \`report\` lists them.`,
      { report },
    );
  },
  /** Received e-invoices are turned off on this instance (RECEIVED_EINVOICES=false): it cannot check them. */
  rulesUnavailable(): DomainError {
    return new DomainError(
      'rules_unavailable',
      'Received e-invoices are turned off on this instance (its operator set RECEIVED_EINVOICES=false), so it cannot check them.',
    );
  },
  rendererBusy(retryAfterSeconds: number): DomainError {
    return new DomainError('renderer_busy', `The renderer is at capacity. Retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  },
  renderTimeout(retryAfterSeconds: number): DomainError {
    return new DomainError(
      'render_timeout',
      `Rendering took longer than the deadline. Retry in ${retryAfterSeconds} s, or send fewer line items.`,
      { retryAfterSeconds },
    );
  },
  /** The renderer failed twice on the document (crashed, or killed over its memory limit). */
  renderFailed(retryAfterSeconds: number): DomainError {
    return new DomainError(
      'render_failed',
      `The renderer failed twice on this document (a document that needs more memory than a renderer may use fails this way). Retry in ${retryAfterSeconds} s, or send a smaller logo or fewer lines.`,
      { retryAfterSeconds },
    );
  },
  /** The PDF was signed, but the configured time-stamping authority gave no timestamp (PDF_TIMESTAMP_URL); `cause`
   * says why, for the log (the client is not told about the authority). */
  timestampUnavailable(retryAfterSeconds: number, cause?: unknown): DomainError {
    return new DomainError(
      'timestamp_unavailable',
      `The time-stamping authority of this service gave no timestamp for the signature. Retry in ${retryAfterSeconds} s.`,
      { retryAfterSeconds, cause },
    );
  },
  /** The key store is busy or unreachable (a write lock held elsewhere, Redis down): try again shortly. */
  storeUnavailable(retryAfterSeconds: number): DomainError {
    return new DomainError('store_unavailable', `The key store is busy or unreachable. Retry in ${retryAfterSeconds} s.`, {
      retryAfterSeconds,
    });
  },
  /** The client went away before its document was ready: nothing is sent, nothing is counted. */
  clientClosed(): DomainError {
    return new DomainError('client_closed_request', 'The client closed the connection before the document was ready.');
  },
  /** An e-invoice (UBL, CII, Factur-X) asked of a type other than those of documents/model.ts's E_INVOICE_TYPES. */
  eInvoiceType(type: string): DomainError {
    const message = `e-invoices (UBL, CII, Factur-X) are made of invoices, receipts and credit notes (invoice, receipt, credit_note), not ${type}`;
    return new DomainError('unsupported_type', message, { details: [{ field: 'type', message }] });
  },
};
