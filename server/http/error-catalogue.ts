// Every error code a client can get, with its HTTP status and what it means: the one place that turns the core's
// domain errors (server/errors.ts) into statuses, headers and bodies. test/unit/http/error-catalogue.test.ts holds
// the error table of docs/errors.md, the OpenAPI description and every code the source raises to this list.
// One body shape for every error, keeping the reference's fields (docs/decisions.md §5):
//   {error, message, type, code, request_id, details?}
// `error` is the code on a 401 (`invalid_request` for a missing key, as the reference has it) and the sentence
// elsewhere (what 400 bodies have always carried); `type` is `invalid_request` for the client's errors (the
// reference's 429) and `api_error` for ours.
import type { DomainError, ErrorCode } from '../errors';
import { rateLimitHeaders } from './rate-limit';

export interface CatalogueEntry {
  status: number;
  meaning: string;
}

export const ERROR_CATALOGUE: Record<ErrorCode, CatalogueEntry> = {
  validation_failed: { status: 400, meaning: 'The document has missing or invalid fields; `details` names each one by its path.' },
  malformed_json: {
    status: 400,
    meaning: 'The body is not a JSON value, is nested more than 64 levels deep, or is not UTF-8 (`error` says which byte, where).',
  },
  empty_body: { status: 400, meaning: 'The body is empty.' },
  invalid_request: {
    status: 400,
    meaning:
      'The request could not be read: its body ended before its declared length or does not inflate, or a header of one value (Content-Type, Authorization, Content-Encoding) came twice.',
  },
  unsupported_type: {
    status: 400,
    meaning: 'The operation does not make this document type (e-invoices: invoice, receipt and credit_note only).',
  },
  missing_api_key: { status: 401, meaning: 'No API key was sent (`error` is `invalid_request`, as in the reference).' },
  invalid_api_key: { status: 401, meaning: 'The API key is not known.' },
  inactive_api_key: { status: 401, meaning: 'The API key was revoked.' },
  not_found: { status: 404, meaning: 'No such endpoint.' },
  method_not_allowed: {
    status: 405,
    meaning: 'The endpoint takes another method (`Allow` says which; `OPTIONS` on any endpoint is a 204 with `Allow`).',
  },
  not_acceptable: {
    status: 406,
    meaning: 'The `Accept` header allows none of the answers the operation makes (`POST /batch`: a ZIP or a PDF).',
  },
  request_timeout: { status: 408, meaning: 'The whole request did not arrive within REQUEST_TIMEOUT_MS.' },
  headers_too_large: {
    status: 431,
    meaning: 'The request line and headers are larger than the 16 KiB Node.js reads (a long Accept-Language, say).',
  },
  body_too_large: { status: 413, meaning: 'The body is larger than MAX_BODY_BYTES.' },
  unsupported_document: {
    status: 415,
    meaning: 'The XML or PDF body is not an e-invoice the service reads (UBL Invoice or CreditNote, CII, Factur-X / ZUGFeRD PDF).',
  },
  malformed_xml: {
    status: 400,
    meaning: 'The XML body is not well-formed, declares a DTD (never processed), or nests deeper than the limit.',
  },
  invalid_e_invoice: {
    status: 422,
    meaning: 'The received e-invoice breaks rules of its own specification, so it is not converted; `report` is its /validate report.',
  },
  unsupported_media_type: { status: 415, meaning: 'The Content-Type, charset or Content-Encoding is not one the service reads.' },
  quota_exceeded: { status: 429, meaning: "The account's monthly documents are used up; `Retry-After` says when they reset." },
  too_many_failed_keys: { status: 429, meaning: 'Too many wrong API keys from this address within a minute.' },
  client_closed_request: { status: 499, meaning: 'The client left before its document was ready (logged only: nobody receives it).' },
  internal: { status: 500, meaning: 'A defect of ours; the request id finds it in the logs.' },
  renderer_busy: { status: 503, meaning: 'Every page (or rule checker) and queue place is taken; retry after `Retry-After`.' },
  rules_unavailable: {
    status: 503,
    meaning: 'Received e-invoices are turned off on the instance (RECEIVED_EINVOICES=false): it reads none.',
  },
  render_timeout: { status: 503, meaning: 'The document was not printed within RENDER_TIMEOUT_MS (queue wait included).' },
  render_failed: { status: 503, meaning: 'The renderer failed twice on the document (crashed, or over its memory limit).' },
  timestamp_unavailable: {
    status: 503,
    meaning:
      'PDFs are signed with a timestamp here (PDF_TIMESTAMP_URL), and the time-stamping authority gave none; retry after `Retry-After`.',
  },
  upstream_unavailable: {
    status: 503,
    meaning:
      'Written by the load balancer of deploy/nginx.conf, not the service: no instance could answer (the one holding the request stopped); retry after `Retry-After`.',
  },
  store_unavailable: { status: 503, meaning: 'The key store is busy or unreachable; retry after `Retry-After`.' },
  // The account pages' own answers: the same statuses and headers, an HTML page for a body (account/error-page.ts).
  invalid_form: {
    status: 400,
    meaning: 'Account pages (HTML): the email is not an email address or the password is too weak; the form says which.',
  },
  wrong_credentials: { status: 401, meaning: 'Account pages (HTML): the email or the password is wrong (one answer for both).' },
  form_expired: {
    status: 403,
    meaning: 'Account pages (HTML): the form has no valid CSRF token, or was posted from another site (`Origin`).',
  },
  key_not_found: { status: 404, meaning: 'Account pages (HTML): the signed-in account has no key with this prefix.' },
  email_taken: { status: 409, meaning: 'Account pages (HTML): an account with this email exists already.' },
  too_many_sign_ins: {
    status: 429,
    meaning: 'Account pages (HTML): too many sign-in attempts for the email or from the address; retry after `Retry-After`.',
  },
  too_many_sign_ups: {
    status: 429,
    meaning: 'Account pages (HTML): too many sign-ups from the address within an hour (`SIGN_UPS_PER_HOUR`); retry after `Retry-After`.',
  },
};

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export function statusOf(err: DomainError): number {
  return ERROR_CATALOGUE[err.code].status;
}

/** The challenge of an API key's 401 (RFC 9110 11.6.1 wants one on every 401; RFC 6750 3 names the Bearer scheme's
 * error for a key that is unknown or revoked). The account pages' wrong_credentials is a form's, not a challenge's. */
const CHALLENGES: Partial<Record<ErrorCode, string>> = {
  missing_api_key: 'Bearer realm="api"',
  invalid_api_key: 'Bearer realm="api", error="invalid_token"',
  inactive_api_key: 'Bearer realm="api", error="invalid_token"',
};

export function toResponse(err: DomainError, requestId: string): ErrorResponse {
  const status = statusOf(err);
  // Every error is this request's answer only: never kept by a cache (docs/api.md), whatever route raised it.
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  const challenge = CHALLENGES[err.code];
  if (challenge) headers['WWW-Authenticate'] = challenge;
  if (err.facts.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.facts.retryAfterSeconds);
  if (err.facts.allow) headers.Allow = err.facts.allow.join(', ');
  Object.assign(headers, rateLimitHeaders(err.facts.quota));
  const body: Record<string, unknown> = {
    error: status === 401 ? (err.code === 'missing_api_key' ? 'invalid_request' : err.code) : err.message,
    message: err.message,
    type: status < 500 ? 'invalid_request' : 'api_error',
    code: err.code,
    request_id: requestId,
  };
  if (err.facts.details) body.details = err.facts.details;
  if (err.facts.report !== undefined) body.report = err.facts.report;
  return { status, headers, body };
}
