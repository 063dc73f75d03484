// The errors only the HTTP edge raises: a request that is not HTTP or not whole, a body that cannot be read, a
// missing or wrong API key (named as the Authorization header carries it), a route or method that does not exist, an
// Accept header the operation cannot answer, and the internal error of a request. Each is a DomainError with a code
// of server/errors.ts, which error-catalogue.ts turns into a status. The core never raises these.
import { DomainError } from '../errors';

export const requestErrors = {
  /** A body of a media type the operation does not read; `accepted`: what it reads instead (a document: JSON or form
   * fields; POST /validate: XML or PDF). */
  unsupportedMediaType(contentType: string | undefined, accepted: string): DomainError {
    const got = contentType
      ? `Content-Type ${contentType.split(';')[0]!.slice(0, 80)} is not supported`
      : 'The request has no Content-Type';
    return new DomainError('unsupported_media_type', `${got}. Send ${accepted}.`);
  },
  /** A body declared in a charset other than UTF-8 (the Content-Type's, or one the body parser met). */
  unsupportedCharset(charset: string): DomainError {
    return new DomainError(
      'unsupported_media_type',
      `The body is declared as ${charset.slice(0, 40)}; only UTF-8 is read. Send the body in UTF-8 (charset=utf-8, or no charset).`,
    );
  },
  unsupportedEncoding(encoding: string): DomainError {
    return new DomainError(
      'unsupported_media_type',
      `Content-Encoding ${encoding.slice(0, 40)} is not supported. Send the body as is, gzip or deflate.`,
    );
  },
  /** A request Node's HTTP parser refused (a malformed request line or header). */
  unparsableRequest(): DomainError {
    return new DomainError('invalid_request', 'The request is not valid HTTP/1.1 (its request line or a header could not be parsed).');
  },
  /** The body ended before its declared length (the client stopped sending). */
  bodyIncomplete(): DomainError {
    return new DomainError('invalid_request', 'The request body ended before its declared length.');
  },
  /** A body that cannot be read as sent (a gzip or deflate body that does not inflate, …). */
  bodyUnreadable(reason: string): DomainError {
    return new DomainError('invalid_request', `The request body could not be read (${reason}); check its Content-Encoding and length.`);
  },
  /** The whole request did not arrive within the time allowed (a body that trickles or never ends). */
  /** A header that has one value sent more than once (Node would keep one and drop the others unseen). */
  repeatedHeader(name: string, times: number): DomainError {
    const message = `The ${name} header is sent ${times} times; send it once.`;
    return new DomainError('invalid_request', message, { details: [{ field: name, message }] });
  },
  /** The request line and headers passed Node's limit (16 KiB) before they ended. */
  headersTooLarge(): DomainError {
    return new DomainError(
      'headers_too_large',
      'The request headers are larger than 16 KiB. Send shorter headers (Accept-Language, cookies).',
    );
  },
  requestTimeout(seconds: number): DomainError {
    return new DomainError('request_timeout', `The request did not arrive whole within ${seconds} s. Send the body at once.`);
  },
  bodyTooLarge(limit: number): DomainError {
    return new DomainError('body_too_large', `The request body is larger than the limit of ${limit} bytes. Send fewer or shorter fields.`);
  },
  missingKey(): DomainError {
    return new DomainError(
      'missing_api_key',
      'No API key provided. Send your key in the Authorization header: Authorization: Bearer YOUR_API_KEY',
    );
  },
  invalidKey(): DomainError {
    return new DomainError('invalid_api_key', 'The API key is not valid. Check that it was copied whole; keys start with sk_.');
  },
  inactiveKey(): DomainError {
    return new DomainError('inactive_api_key', 'The API key has been revoked or is inactive. Create a new key and use it instead.');
  },
  tooManyFailedKeys(retryAfterSeconds: number): DomainError {
    return new DomainError(
      'too_many_failed_keys',
      `Too many requests with a wrong API key from this address. Retry in ${retryAfterSeconds} s with a valid key.`,
      { retryAfterSeconds },
    );
  },
  notFound(method: string, path: string): DomainError {
    return new DomainError(
      'not_found',
      `No such endpoint: ${method} ${path}. Documents are created with POST / (PDF), POST /ubl, /cii or /factur-x (e-invoices) and POST /batch; GET /docs describes them.`,
    );
  },
  methodNotAllowed(method: string, path: string, allow: readonly string[] = ['POST']): DomainError {
    return new DomainError('method_not_allowed', `${method} is not allowed on ${path}. Use ${allow.join(' or ')}.`, { allow: [...allow] });
  },
  /** The client accepts none of the media types the operation answers with. */
  notAcceptable(offered: string[]): DomainError {
    return new DomainError('not_acceptable', `This operation answers with ${offered.join(' or ')}; send an Accept header that allows one.`);
  },
  internal(requestId: string, cause?: unknown): DomainError {
    return new DomainError('internal', `Internal error (request id ${requestId})`, { cause });
  },
};
