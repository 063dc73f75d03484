// The error catalogue: every failure a client can see, with its code, HTTP status and message.
// Core modules throw these; server/http/error-handler.ts is the only place that turns them into responses.
// Messages say what failed and how to fix it. They never echo field values (documents are never logged).

export interface FieldProblem {
  /** Path of the field in the request, e.g. `items[3].quantity`. */
  field: string;
  message: string;
}

export type ErrorCode =
  | 'validation_failed'
  | 'malformed_json'
  | 'empty_body'
  | 'unsupported_media_type'
  | 'body_too_large'
  | 'invalid_request'
  | 'invalid_api_key'
  | 'inactive_api_key'
  | 'quota_exceeded'
  | 'too_many_failed_keys'
  | 'not_found'
  | 'method_not_allowed'
  | 'unsupported_type'
  | 'renderer_busy'
  | 'render_timeout'
  | 'render_failed'
  | 'client_closed_request'
  | 'store_unavailable'
  | 'internal';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly extra: {
      details?: FieldProblem[];
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** How many problems the one-sentence `error` names before it says "and N more". */
const PROBLEMS_IN_SENTENCE = 3;

export const errors = {
  validation(details: FieldProblem[]): AppError {
    const shown = details.slice(0, PROBLEMS_IN_SENTENCE).map((d) => d.message);
    const more = details.length - shown.length;
    const sentence = `Invalid document: ${shown.join('; ')}${more > 0 ? `; and ${more} more (see details)` : ''}.`;
    return new AppError('validation_failed', 400, sentence, { details });
  },
  malformedJson(reason: string): AppError {
    return new AppError(
      'malformed_json',
      400,
      `The request body is malformed JSON (${reason}). Send a JSON object, or use Content-Type application/x-www-form-urlencoded for form fields.`,
    );
  },
  emptyBody(): AppError {
    return new AppError('empty_body', 400, 'The request body is empty. Send the document details as JSON or as form fields.');
  },
  notAnObject(): AppError {
    return new AppError('validation_failed', 400, 'The request body must be a JSON object with the document fields, e.g. {"from": "…", "to": "…", "items": […]}.', {
      details: [{ field: '(body)', message: 'the body must be a JSON object' }],
    });
  },
  unsupportedMediaType(contentType: string | undefined): AppError {
    const got = contentType ? `Content-Type ${contentType.split(';')[0]} is not supported` : 'The request has no Content-Type';
    return new AppError(
      'unsupported_media_type',
      415,
      `${got}. Send application/json or application/x-www-form-urlencoded.`,
    );
  },
  unsupportedCharset(charset: string): AppError {
    return new AppError(
      'unsupported_media_type',
      415,
      `The body is declared as ${charset.slice(0, 40)}; only UTF-8 is read. Send the body in UTF-8 (charset=utf-8, or no charset).`,
    );
  },
  bodyTooLarge(limit: number): AppError {
    return new AppError('body_too_large', 413, `The request body is larger than the limit of ${limit} bytes. Send fewer or shorter fields.`);
  },
  missingKey(): AppError {
    return new AppError(
      'invalid_request',
      401,
      'No API key provided. Send your key in the Authorization header: Authorization: Bearer YOUR_API_KEY',
    );
  },
  invalidKey(): AppError {
    return new AppError('invalid_api_key', 401, 'The API key is not valid. Check that it was copied whole; keys start with sk_.');
  },
  inactiveKey(): AppError {
    return new AppError('inactive_api_key', 401, 'The API key has been revoked or is inactive. Create a new key and use it instead.');
  },
  tooManyFailedKeys(retryAfterSeconds: number): AppError {
    return new AppError('too_many_failed_keys', 429, `Too many requests with a wrong API key from this address. Retry in ${retryAfterSeconds} s with a valid key.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  },
  notFound(method: string, path: string): AppError {
    return new AppError('not_found', 404, `No such endpoint: ${method} ${path}. Documents are created with POST / (PDF) or POST /ubl (UBL e-invoice).`);
  },
  methodNotAllowed(method: string, path: string): AppError {
    return new AppError('method_not_allowed', 405, `${method} is not allowed on ${path}. Use POST.`, {
      headers: { Allow: 'POST' },
    });
  },
  rendererBusy(retryAfterSeconds: number): AppError {
    return new AppError('renderer_busy', 503, `The renderer is at capacity. Retry in ${retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  },
  renderTimeout(retryAfterSeconds: number): AppError {
    return new AppError('render_timeout', 503, `Rendering took longer than the deadline. Retry in ${retryAfterSeconds} s, or send fewer line items.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  },
  /** The renderer failed twice on the document (crashed, or killed over its memory limit). */
  renderFailed(retryAfterSeconds: number): AppError {
    return new AppError(
      'render_failed',
      503,
      `The renderer failed twice on this document (a document that needs more memory than a renderer may use fails this way). Retry in ${retryAfterSeconds} s, or send a smaller logo or fewer lines.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    );
  },
  /** The key store is busy or unreachable (a write lock held elsewhere, Redis down): try again shortly. */
  storeUnavailable(retryAfterSeconds: number): AppError {
    return new AppError('store_unavailable', 503, `The key store is busy or unreachable. Retry in ${retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  },
  /** The client went away before its document was ready (nginx's 499): nothing is sent, nothing is counted. */
  clientClosed(): AppError {
    return new AppError('client_closed_request', 499, 'The client closed the connection before the document was ready.');
  },
  ublType(type: string): AppError {
    return new AppError('unsupported_type', 400, `UBL output is available for invoice, receipt and credit_note, not ${type}`, {
      details: [{ field: 'type', message: `UBL output is available for invoice, receipt and credit_note, not ${type}` }],
    });
  },
  internal(requestId: string, cause?: unknown): AppError {
    return new AppError('internal', 500, `Internal error (request id ${requestId})`, { cause });
  },
};
