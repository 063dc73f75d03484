// The service's HTTP server: Node's http.Server around the express app, with the timeouts that cut off slow clients,
// the pre-parse errors answered as JSON (client-errors.ts), listening on the configured address, and a shutdown that
// lets requests in flight finish while idle and never-used connections are dropped. Knows no route (app.ts).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { clientErrorHandler } from './client-errors';

export interface ListeningServer {
  server: http.Server;
  /** The address clients reach it at (a wildcard host as 127.0.0.1). */
  url: string;
  port: number;
  /** Stops accepting, waits for the requests in flight, and drops each keep-alive connection as soon as it idles. */
  close(): Promise<void>;
}

/** Serves `app` on `config.host` and `config.port` (0: any free port) once it listens. */
export async function listen(
  app: http.RequestListener,
  config: Pick<Config, 'host' | 'port' | 'requestTimeoutMs'>,
  logger: Logger,
): Promise<ListeningServer> {
  // A body that trickles or never ends is cut off (request_timeout) instead of holding a socket: renders only start
  // once a whole body has arrived, so such a client never holds a page, but it must not hold memory and a socket
  // forever either. Node checks these timeouts on an interval (30 s by default); check often enough to honour short
  // limits.
  const server = http.createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(config.requestTimeoutMs, 20_000),
      keepAliveTimeout: 65_000,
      connectionsCheckingInterval: 1000,
    },
    app,
  );
  server.on('clientError', clientErrorHandler(logger, config.requestTimeoutMs));
  // An Expect other than 100-continue: answered as any request (RFC 9110 lets a server ignore it), where Node alone
  // would send a bare 417 with no body.
  // (emitted instead of `request`: re-emitted as one, so that the shutdown counts its connection as used).
  server.on('checkExpectation', (req, res) => server.emit('request', req, res));
  const unused = unusedConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return { server, port, url: `http://${host}:${port}`, close: () => closeGracefully(server, unused) };
}

/** server.close() alone would wait for the clients' keep-alive timeout: idle connections are swept until it ends. */
function closeGracefully(server: http.Server, unused: { destroy(): void }): Promise<void> {
  return new Promise<void>((resolve) => {
    const sweep = setInterval(() => {
      server.closeIdleConnections();
      unused.destroy();
    }, 50);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * The connections that have not sent a request yet (a client's spare socket, opened ahead): closeIdleConnections
 * leaves them, and Node's header timeout may not start before their first byte, so a shutdown would wait for them.
 */
function unusedConnections(server: http.Server): { destroy(): void } {
  const open = new Set<Socket>();
  const used = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage) => used.add(req.socket));
  return {
    destroy() {
      for (const socket of open) if (!used.has(socket)) socket.destroy();
    },
  };
}
