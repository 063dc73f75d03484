// Requests that never reach express: Node's HTTP parser refused them, or they did not arrive whole in time. Node
// answers these itself with a bare status line; with this handler they get the same JSON body as every other error
// (error-catalogue.ts). Nothing here can know a request id (no request was parsed): one is made for the log line.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { toResponse } from './error-catalogue';
import { requestErrors } from './request-errors';

export function clientErrorHandler(logger: Logger, requestTimeoutMs: number): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    // A connection reset or an idle keep-alive socket: nobody to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const error =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? requestErrors.requestTimeout(Math.round(requestTimeoutMs / 1000))
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? requestErrors.headersTooLarge()
          : requestErrors.unparsableRequest();
    const requestId = randomUUID();
    const { status, body } = toResponse(error, requestId);
    const json = JSON.stringify(body);
    logger.info({ requestId, status, code: error.code, reason: err.code }, 'request refused before parsing');
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nX-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${json}`,
    );
  };
}
