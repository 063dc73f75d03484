// The responses of the OpenAPI description: the headers every answer carries (request id, no-store, the IETF
// RateLimit headers of the monthly quota), and one response per error status with the Error schema and an example of
// each code the catalogue gives that status. Must not describe request bodies (schemas.ts) or operations.
import { DomainError, type ErrorCode } from '../../errors';
import { ERROR_CATALOGUE, toResponse } from '../error-catalogue';
import type { Node } from './schemas';

const ref = (kind: 'headers' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` });

export const HEADERS: Node = {
  'X-Request-Id': { description: 'The request id (sent, or made), which finds the request in the logs', schema: { type: 'string' } },
  'Cache-Control': { description: 'Documents and errors are kept by no cache', schema: { type: 'string', const: 'no-store' } },
  'Content-Language': { description: 'The locale the document was (or would be) made in', schema: { type: 'string', examples: ['en-US'] } },
  'Content-Disposition': {
    description: 'inline, with the file name the operation gives the document (RFC 6266 `filename*` when not ASCII)',
    schema: { type: 'string', examples: ['inline; filename="invoice-INV-1.pdf"'] },
  },
  'RateLimit-Policy': {
    description:
      'The monthly quota (IETF RateLimit headers): `"monthly";q=<documents a month>;w=<seconds in the month>`. Absent for unlimited plans.',
    schema: { type: 'string', examples: ['"monthly";q=1000;w=2592000'] },
  },
  RateLimit: {
    description: 'What is left of it: `"monthly";r=<remaining>;t=<seconds to the reset>`. Absent for unlimited plans.',
    schema: { type: 'string', examples: ['"monthly";r=958;t=694800'] },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  Allow: { description: 'The methods the endpoint takes', schema: { type: 'string', examples: ['POST'] } },
};

const common = { 'X-Request-Id': ref('headers', 'X-Request-Id'), 'Cache-Control': ref('headers', 'Cache-Control') };
const QUOTA_HEADERS = { 'RateLimit-Policy': ref('headers', 'RateLimit-Policy'), RateLimit: ref('headers', 'RateLimit') };

/** The headers of a document answer (200): the request id, no-store and the quota. */
export function documentHeaders(extra: Node = {}): Node {
  return { ...common, ...QUOTA_HEADERS, ...extra };
}

/** Codes a client of the API can receive: the account pages' HTML answers and the logged-only 499 are not among them. */
const API_CODES = Object.entries(ERROR_CATALOGUE).filter(([, e]) => e.status !== 499 && !e.meaning.startsWith('Account pages'));

function errorExamples(status: number, extra: Node = {}): Node {
  const out: Node = {};
  for (const [code, entry] of API_CODES.filter(([, e]) => e.status === status)) {
    // The body exactly as the service writes it (error-catalogue.ts), with the meaning as its message.
    const err = new DomainError(code as ErrorCode, entry.meaning.replace(/`/g, ''));
    out[code] = { summary: entry.meaning, value: toResponse(err, '6f1c2b0e-9d1a-4c47-a1f2-0c3e5d7b9a11').body };
  }
  return { ...out, ...extra };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The body is empty, not JSON or form fields, or the document is not valid: `details` lists every bad field by its path',
  401: 'Missing, unknown or revoked API key',
  404: 'No such endpoint',
  405: 'Another method than the one the endpoint takes (`Allow` says which)',
  406: 'An Accept the operation does not answer with',
  408: 'The whole request did not arrive within REQUEST_TIMEOUT_MS',
  413: 'The body is larger than MAX_BODY_BYTES',
  415: 'A Content-Type other than JSON or form fields (or a charset other than UTF-8, or an unknown Content-Encoding); an XML or PDF body that is not an e-invoice the service reads',
  422: 'A received e-invoice that breaks rules of its own specification, so it is not converted: `report` lists them',
  429: 'The monthly documents are used up (`quota_exceeded`, with the RateLimit headers), or too many wrong keys from the address',
  500: 'A defect of the service; `request_id` finds it in the logs',
  503: 'The renderer is saturated or past its deadline, or the key store is unavailable; retry after `Retry-After`',
};

const STATUS_HEADERS: Record<number, Node> = {
  405: { Allow: ref('headers', 'Allow') },
  429: { ...QUOTA_HEADERS, 'Retry-After': ref('headers', 'Retry-After') },
  503: { 'Retry-After': ref('headers', 'Retry-After') },
};

/** The error responses for `statuses`, each with the Error schema, its headers and an example per code. */
export function errorResponses(
  statuses: readonly number[],
  overrides: Record<number, { description?: string; examples?: Node }> = {},
): Node {
  const out: Node = {};
  for (const status of statuses) {
    const examples = errorExamples(status, overrides[status]?.examples);
    out[status] = {
      description: overrides[status]?.description ?? ERROR_DESCRIPTIONS[status] ?? 'An error',
      headers: { ...common, ...STATUS_HEADERS[status] },
      content: {
        'application/json': { schema: ref('schemas', 'Error'), ...(Object.keys(examples).length ? { examples } : {}) },
      },
    };
  }
  return out;
}
