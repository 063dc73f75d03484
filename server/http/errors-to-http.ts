// The one place that turns errors into HTTP responses (decisions §5, §6). Every body is JSON.
// 401 bodies are {error: code, message}; 429 bodies are {type, message}; all others {error: sentence, code, details?}.
// Anything that is not an AppError is our defect: 500 with the request id, details to the log only.
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, errors } from '../errors';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
  encoding?: string;
  message?: string;
}

/** body-parser and Node's HTTP errors, as catalogue errors. */
function fromBodyParser(err: BodyParserError, maxBodyBytes: number): AppError | undefined {
  switch (err.type) {
    case 'entity.too.large':
      return errors.bodyTooLarge(err.limit ?? maxBodyBytes);
    case 'encoding.unsupported':
      return new AppError('unsupported_media_type', 415, `Content-Encoding ${err.encoding ?? ''} is not supported. Send the body as is, gzip or deflate.`);
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', 415, `The charset ${err.charset ?? ''} is not supported. Send UTF-8.`);
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('invalid_request', 400, 'The request body ended before its declared length.');
    default:
      // Any other client error of body-parser (a gzip/deflate body that does not inflate, …) is the client's.
      if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
        return new AppError('invalid_request', 400, `The request body could not be read (${err.message ?? 'unreadable'}); check its Content-Encoding and length.`);
      }
      return undefined;
  }
}

export function toResponse(err: AppError): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const headers = err.extra.headers ?? {};
  if (err.status === 401) return { status: 401, headers, body: { error: err.code, message: err.message } };
  if (err.status === 429) return { status: 429, headers, body: { type: 'invalid_request', message: err.message } };
  const body: Record<string, unknown> = { error: err.message, code: err.code };
  if (err.extra.details) body.details = err.extra.details;
  return { status: err.status, headers, body };
}

export function errorHandler(logger: Logger, maxBodyBytes: number): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const requestId = String(res.locals.requestId ?? '');
    let appError: AppError | undefined = err instanceof AppError ? err : fromBodyParser(err as BodyParserError, maxBodyBytes);
    if (!appError) {
      const xsdErrors = (err as { xsdErrors?: string[] }).xsdErrors;
      logger.error({ err, requestId, xsdErrors }, 'unexpected error');
      appError = errors.internal(requestId, err);
    } else if (appError.status >= 500) {
      logger.warn({ requestId, code: appError.code }, appError.message);
    }
    res.locals.errorCode = appError.code;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const { status, headers, body } = toResponse(appError);
    res.status(status).set(headers).json(body);
  };
}
