// Assembles the running service from its parts: config → assets → key store → browser pool → HTTP server.
// Used by main.ts and by the tests (which start it on port 0 with their own store), so both run the same wiring.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import { projectRoot, type Config } from './config';
import { createApp } from './http/app';
import { createMetrics } from './http/metrics';
import { createStudio } from './http/studio';
import { accountRouter } from './http/account';
import { loadHttpAssets } from './http/http-assets';
import { startLiveReload } from './dev/live-reload';
import type { KeyStore } from './keys/key-store';
import { openStore } from './keys/open-store';
import { guardStore } from './keys/store-guard';
import { Quota } from './quota/quota';
import { clientErrorHandler } from './http/client-errors';
import { createLogger } from './logger';
import { BrowserPool, type PdfRenderer } from './pdf/browser-pool';
import { loadAssets } from './assets';
import { PdfSigning } from './pdf-signing';
import { DocumentPipeline } from './pipeline';
import { PrintFirst } from './print-first';
import { acquireXsdValidator, type XsdValidatorRef } from './einvoice/xsd-validator';
import { acquireRulesPool, type RulesPoolRef } from './einvoice/rules/rules-pool';
import { rulesAbsent } from './einvoice/rules/rule-sets';
import { ReceivedPipeline } from './received-pipeline';

export interface RunningService {
  url: string;
  port: number;
  server: http.Server;
  keys: KeyStore;
  quota: Quota;
  pdf: PdfRenderer;
  pipeline: DocumentPipeline;
  logger: Logger;
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  keys?: KeyStore;
  /** A PDF renderer other than Chromium (fast HTTP tests only). */
  pdf?: PdfRenderer;
  /** The clock of the quota (tests of month boundaries). */
  clock?: () => Date;
  root?: string;
}

export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const assets = loadAssets(options.root ?? projectRoot(), config.limits);
  // The edge's own data files (account pages, examples, the version), read once here as well.
  const web = loadHttpAssets(options.root ?? projectRoot());
  const keys = guardStore(options.keys ?? openStore(config), (method, err) =>
    logger.warn({ method, error: (err as Error).message }, 'key store busy or unreachable; trying again'),
  );
  let pdf = options.pdf;
  const metrics = createMetrics(() => pdf!.stats());
  // While PDFs print, the rule checkers are held (print-first.ts).
  const printFirst = new PrintFirst({ maxPauseMs: config.rulesHoldMs });
  if (!pdf) {
    const pool = new BrowserPool({
      executablePath: config.chromiumPath,
      sandbox: config.chromiumSandbox,
      concurrency: config.renderConcurrency,
      queueLimit: config.renderQueueLimit,
      timeoutMs: config.renderTimeoutMs,
      maxRendersPerBrowser: config.browserMaxRenders,
      maxRendersPerPage: config.pageMaxRenders,
      rendererMaxRssMiB: config.rendererMaxRssMiB,
      onEvent: (event, detail) => logger.warn({ event, ...detail }, `browser pool: ${event}`),
      onRender: (wait, render) => metrics.observeRender(wait, render),
      onPrinting: (printing) => printFirst.setPrinting(printing),
    });
    try {
      await pool.start();
    } catch (err) {
      await keys.close();
      throw new Error(
        `Chromium could not be started from ${config.chromiumPath} (set CHROMIUM_PATH, or run scripts/install-system.sh): ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    pdf = pool;
  }
  let xsd: XsdValidatorRef | undefined;
  let rules: RulesPoolRef | undefined;
  try {
    xsd = acquireXsdValidator(config);
    // The official rule sets, parsed once per worker at start-up (received e-invoices: POST /validate); an instance
    // without them at all, and not told where they are, starts without received e-invoices.
    if (config.rulesRequired || !rulesAbsent(config.rulesDir)) {
      rules = acquireRulesPool(config, { onEvent: (event, detail) => logger.warn({ event, ...detail }, `rules pool: ${event}`) });
    } else {
      logger.warn({ rulesDir: config.rulesDir }, 'no official rule sets installed: received e-invoices are answered 503 (set RULES_DIR)');
    }
    await Promise.all([xsd.validator.ready(), rules?.pool.ready()]);
  } catch (err) {
    await rules?.release();
    await xsd?.release();
    await pdf.close();
    await keys.close();
    throw err;
  }
  if (rules) printFirst.add(rules.pool);
  let signing: PdfSigning | undefined;
  try {
    signing = await PdfSigning.start(config);
  } catch (err) {
    await rules?.release();
    await xsd.release();
    await pdf.close();
    await keys.close();
    throw err;
  }
  const signingWarning = signing?.status().warning;
  if (signingWarning) logger.warn({ signing: signing!.status() }, `PDF signing: ${signingWarning}`);
  const pipeline = new DocumentPipeline(assets, pdf, xsd.validator, config, signing);
  const received = rules ? new ReceivedPipeline(pipeline, xsd.validator, rules.pool, config.limits.maxItems) : undefined;
  // A reservation outlives any render (deadline + slack), so only a crashed instance's reservations ever expire.
  const quota = new Quota(keys, config.planLimits, 2 * config.renderTimeoutMs + 30_000, assets.messages, options.clock);
  const root = options.root ?? projectRoot();
  const reload = config.liveReload ? startLiveReload(root, config.limits, pipeline) : undefined;
  const studio = config.studio ? createStudio(pipeline, web.examples, reload) : undefined;
  const account = accountRouter(keys, web.pages, config, options.clock);
  const app = createApp({
    config,
    pipeline,
    web,
    keys,
    quota,
    logger,
    metrics,
    studio: studio?.router,
    account,
    isReady: () => pdf.isReady(),
    received,
    xsdReady: () => xsd!.validator.check(),
    poolStats: () => pdf.liveStats?.() ?? pdf.stats(),
    signing: signing && (() => signing.status()),
  });
  // A body that trickles or never ends is cut off (408) instead of holding a socket: renders only start once a whole
  // body has arrived, so such a client never holds a page, but it must not hold memory and a socket forever either.
  // Node checks these timeouts on an interval (30 s by default); check often enough to honour short limits.
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
  const unused = unusedConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    keys,
    quota,
    pdf,
    pipeline,
    logger,
    async close() {
      // Stop accepting, let the requests in flight finish, and drop each keep-alive connection as soon as it idles
      // (server.close() alone would wait for the clients' keep-alive timeout).
      studio?.close();
      await new Promise<void>((resolve) => {
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
      reload?.close();
      await pdf.close();
      printFirst.close();
      await rules?.release();
      await xsd.release();
      await keys.close();
    },
  };
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
