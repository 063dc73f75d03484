// The express error handler: every error a route passes on becomes a JSON response through error-catalogue.ts.
// body-parser's and Node's errors are first named as domain errors; anything else is our defect: 500 with the
// request id, details to the log only (log-redaction.ts: never the client's text).
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '../errors';
import { statusOf, toResponse } from './error-catalogue';
import { errorForLog } from './log-redaction';
import { requestErrors } from './request-errors';

export interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
  encoding?: string;
  message?: string;
}

/** body-parser and Node's HTTP errors, as catalogue errors (also for the account pages, account/error-page.ts). */
export function fromBodyParser(err: BodyParserError, maxBodyBytes: number): DomainError | undefined {
  switch (err.type) {
    case 'entity.too.large':
      return requestErrors.bodyTooLarge(err.limit ?? maxBodyBytes);
    case 'encoding.unsupported':
      return requestErrors.unsupportedEncoding(err.encoding ?? '');
    case 'charset.unsupported':
      return requestErrors.unsupportedCharset(err.charset ?? '');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return requestErrors.bodyIncomplete();
    default:
      // Any other client error of body-parser (a gzip/deflate body that does not inflate, …) is the client's.
      if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
        return requestErrors.bodyUnreadable(err.message ?? 'unreadable');
      }
      return undefined;
  }
}

export function errorHandler(logger: Logger, maxBodyBytes: number): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const requestId = String(res.locals.requestId ?? '');
    let domainError: DomainError | undefined = err instanceof DomainError ? err : fromBodyParser(err as BodyParserError, maxBodyBytes);
    if (!domainError) {
      logger.error({ error: errorForLog(err), requestId }, 'unexpected error');
      domainError = requestErrors.internal(requestId, err);
    } else if (statusOf(domainError) >= 500) {
      // What the service could not do, and why when a cause is known (the time-stamping authority's answer, say).
      const { cause } = domainError.facts;
      logger.warn(
        { requestId, code: domainError.code, ...(cause === undefined ? {} : { cause: errorForLog(cause) }) },
        domainError.message,
      );
    }
    res.locals.errorCode = domainError.code;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const { status, headers, body } = toResponse(domainError, requestId);
    res.status(status).set(headers).json(body);
  };
}
