// The HTTP surface: routes, body reading, request ids and access logs. server/http/ is the only place that imports
// express (the studio and account routers live beside this file) and the only one that knows HTTP statuses.
// Order on the document routes: method (405) → API key (401) → body presence, type and size (400/415/413)
// → parse and validate (400) → render. Errors go to errors-to-http.ts (statuses and bodies from error-catalogue.ts);
// no handler writes an error body itself.
import crypto from 'node:crypto';
import express, { type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { SigningStatus } from '../pdf-signing';
import { errors } from '../errors';
import type { KeyStore, Plan } from '../keys/key-store';
import type { Quota } from '../quota/quota';
import type { DocumentPipeline } from '../pipeline';
import type { Locale } from '../render/locale';
import { requireApiKey } from './auth';
import { batchHandler } from './batch';
import { errorHandler } from './errors-to-http';
import { rateLimitHeaders } from './rate-limit';
import { routeLabel, type Metrics } from './metrics';
import { apiReference } from './docs';
import type { PoolStats } from '../pdf/renderer';
import type { ReceivedPipeline, Target } from '../received-pipeline';
import { queryProfile, queryTheme, receivedBody } from './received';
import { bodyPreconditions, rawBody } from './body-limits';
import { requestErrors } from './request-errors';
import { watchClient } from './client-gone';

export interface AppDeps {
  /** The studio's router, when it is enabled (development). */
  studio?: express.Router;
  /** The account pages (sign up, sign in, developer settings). */
  account?: express.Router;
  config: Pick<Config, 'limits' | 'trustProxy' | 'apiKeyFailuresPerMinute'>;
  pipeline: DocumentPipeline;
  keys: KeyStore;
  quota: Quota;
  logger: Logger;
  metrics: Metrics;
  isReady: () => boolean;
  /** Received e-invoices (POST /validate; XML and PDF bodies on /, /ubl, /cii, /factur-x); absent (no rule sets
   * installed): 503 rules_unavailable. */
  received?: ReceivedPipeline;
  /** Whether the XSD worker answers (absent: not checked). */
  xsdReady?: () => Promise<boolean>;
  /** The renderer's figures for /readyz: idle pages counted only when their renderer answered just now. */
  poolStats: () => PoolStats | Promise<PoolStats>;
  /** PDF signing's state for /readyz (absent: PDFs are not signed). */
  signing?: () => SigningStatus;
}

function requestIds(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && /^[\w.:-]{1,100}$/.test(incoming) ? incoming : crypto.randomUUID();
    res.locals.requestId = id;
    res.set('X-Request-Id', id);
    next();
  };
}

/** The account as logs name it: an opaque id (accounts are named by their email, which logs never carry). */
export function accountLogId(account: unknown): string | undefined {
  return typeof account === 'string' ? `acct_${crypto.createHash('sha256').update(account).digest('hex').slice(0, 16)}` : undefined;
}

/**
 * One JSON line per request: ids, the client address (through a trusted proxy, the client's), an opaque account id,
 * route, type, status, duration, sizes. Never a field value, a path or an email. A client that went away before the answer is
 * logged with status 499, as nginx does.
 */
function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    const log = (status: number) => {
      logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          // The route's template, never the path sent (a path is the client's text): `other` when none matched.
          route: routeLabel(req),
          ip: req.ip,
          status,
          account: accountLogId(res.locals.account),
          type: res.locals.documentType,
          error: res.locals.errorCode,
          ms: Number((process.hrtime.bigint() - start) / 1000n) / 1000,
          bytesIn: Number(req.get('content-length') ?? 0),
          bytesOut: Number(res.get('content-length') ?? 0),
        },
        'request',
      );
    };
    res.on('finish', () => log(res.statusCode));
    res.on('close', () => {
      if (!res.writableFinished) log(499);
    });
    next();
  };
}

/** `inline; filename="…"` (docs/decisions.md §6), plus RFC 6266 filename* when the name is not plain ASCII. */
function inlineDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === filename) return `inline; filename="${filename}"`;
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function only(method: 'POST', path: string): RequestHandler {
  return (req, _res, next) => {
    if (req.method !== method) return next(requestErrors.methodNotAllowed(req.method, path));
    next();
  };
}

export function createApp(deps: AppDeps): express.Express {
  const { pipeline, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Behind a proxy (TRUST_PROXY), req.ip and req.secure come from X-Forwarded-For / -Proto: limits, logs and Secure
  // cookies then see the client, not the proxy.
  app.set('trust proxy', deps.config.trustProxy);
  app.use(helmet());
  app.use(requestIds());
  app.use(accessLog(logger));
  app.use(deps.metrics.middleware);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    // Ready when the browser answers, the key store answers (and is still the file opened) and the XSD worker
    // validates; the schemas are loaded, or the service would not have started.
    const [pool, keyStore, xsd] = await Promise.all([
      deps.poolStats(),
      deps.keys.check().catch(() => false),
      deps.xsdReady?.() ?? Promise.resolve(true),
    ]);
    const browser = deps.isReady();
    const ready = browser && keyStore && xsd;
    if (!ready) res.set('Retry-After', '5');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not ready',
      browser: browser ? 'connected' : 'disconnected',
      keyStore: keyStore ? 'ok' : 'unavailable',
      xsd: xsd ? 'ok' : 'unavailable',
      // Received e-invoices: the official rule sets (an instance without them is ready for everything else).
      rules: deps.received ? 'ok' : 'not installed',
      queueDepth: pool.queued,
      activeRenders: pool.active,
      idlePages: pool.idlePages,
      rendersCompleted: pool.renders,
      browserRestarts: pool.browserRestarts,
      pagesReplaced: pool.pagesReplaced,
      // PAdES signing: its level, the signer, the certificate's end, and a warning when it has expired or soon will.
      signing: deps.signing?.() ?? 'off',
    });
  });
  app.get('/metrics', async (_req, res) => {
    res.set('Content-Type', deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  if (deps.studio) app.use('/studio', deps.studio);
  if (deps.account) app.use('/account', deps.account);
  // GET /openapi.json and the /docs reference page (with the looser CSP Redoc needs, on /docs only).
  app.use(apiReference(pipeline.assets.schemas, { maxBatchDocuments: deps.config.limits.maxBatchDocuments }));

  // Every answer of the document routes, errors included, names the locale it was (or would be) made in, and may be
  // kept by no cache: a document is its client's business data.
  const negotiate: RequestHandler = (req, res, next) => {
    const locale = pipeline.locale(req.get('accept-language'));
    res.locals.locale = locale;
    res.set('Content-Language', locale.tag);
    res.set('Cache-Control', 'no-store');
    next();
  };
  const documentRoute = [
    requireApiKey(deps.keys, deps.config.apiKeyFailuresPerMinute),
    bodyPreconditions(deps.config.limits),
    rawBody(deps.config.limits),
  ];

  /** Parses and validates the body; `eInvoice`: an e-invoice operation, which refuses other types first. */
  const prepare = async (req: Request, res: Response, eInvoice = false) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const body = await pipeline.parse(req.get('content-type'), raw);
    const prepared = pipeline.prepare(body, res.locals.locale as Locale, eInvoice);
    res.locals.documentType = prepared.doc.type;
    return prepared;
  };

  const logoLogger = (res: Response) => (reason: string) => logger.info({ requestId: res.locals.requestId, reason }, 'logo not used');

  /**
   * Runs `render` on one reserved document of the account's quota: committed on success, released on failure. The
   * render gets a signal that aborts when the client goes away (its render is cancelled, in the queue or mid-print);
   * a document finished for a client that has left is not counted either. A counted document's answer carries the
   * RateLimit headers of its reservation (rate-limit.ts; none for unlimited plans).
   */
  const counted = async <T>(res: Response, render: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const client = watchClient(res);
    const ticket = await deps.quota.reserve(res.locals.account as string, res.locals.plan as Plan);
    try {
      const out = await render(client.signal);
      if (client.signal.aborted) throw errors.clientClosed();
      await ticket.commit();
      res.set(rateLimitHeaders(ticket.state));
      return out;
    } catch (err) {
      await ticket.release();
      throw err;
    } finally {
      client.release();
    }
  };

  const sendPdf = (res: Response, { pdf, filename }: { pdf: Uint8Array; filename: string }) =>
    res
      .status(200)
      .set('Content-Type', 'application/pdf')
      .set('Content-Disposition', inlineDisposition(filename))
      .set('Content-Length', String(pdf.byteLength))
      .end(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  const sendXml = (res: Response, { xml, filename }: { xml: string; filename: string }) =>
    res.status(200).set('Content-Type', 'application/xml; charset=utf-8').set('Content-Disposition', inlineDisposition(filename)).send(xml);

  /** The received pipeline, or 503 when the instance has no rule sets installed. */
  const receiving = (): ReceivedPipeline => {
    if (!deps.received) throw errors.rulesUnavailable();
    return deps.received;
  };
  /** A received e-invoice (XML or PDF) shown (`pdf`) or converted; undefined when the body is a document request. */
  const received = async (req: Request, res: Response, target: 'pdf' | Target): Promise<boolean> => {
    const body = receivedBody(req);
    if (!body) return false;
    const pipe = receiving();
    const opts = { locale: res.locals.locale as Locale, theme: queryTheme(req) };
    res.locals.documentType = 'received';
    if (target === 'pdf') sendPdf(res, await counted(res, (signal) => pipe.show(body, { ...opts, signal })));
    else {
      const profile = queryProfile(req);
      const out = await counted(res, (signal) => pipe.convert(body, target, { ...opts, profile, signal }));
      if ('xml' in out) sendXml(res, out);
      else sendPdf(res, out);
    }
    return true;
  };

  app.all('/', negotiate, only('POST', '/'), ...documentRoute, async (req: Request, res: Response) => {
    if (await received(req, res, 'pdf')) return;
    const prepared = await prepare(req, res);
    sendPdf(res, await counted(res, (signal) => pipeline.renderPdf(prepared, logoLogger(res), signal)));
  });
  // The e-invoices: invoice, receipt and credit note only (other types are refused before the body is validated).
  app.all('/ubl', negotiate, only('POST', '/ubl'), ...documentRoute, async (req: Request, res: Response) => {
    if (await received(req, res, 'ubl')) return;
    const prepared = await prepare(req, res, true);
    sendXml(res, await counted(res, (signal) => pipeline.renderUbl(prepared, logoLogger(res), signal)));
  });
  app.all('/cii', negotiate, only('POST', '/cii'), ...documentRoute, async (req: Request, res: Response) => {
    if (await received(req, res, 'cii')) return;
    const prepared = await prepare(req, res, true);
    sendXml(res, await counted(res, () => pipeline.renderCii(prepared)));
  });
  app.all('/factur-x', negotiate, only('POST', '/factur-x'), ...documentRoute, async (req: Request, res: Response) => {
    if (await received(req, res, 'factur-x')) return;
    const prepared = await prepare(req, res, true);
    sendPdf(res, await counted(res, (signal) => pipeline.renderFacturX(prepared, logoLogger(res), signal)));
  });
  // A received e-invoice checked against its XSD and every official rule set of its specification: the report, a 200
  // whether it passes or not (received-pipeline.ts); one document of the quota.
  app.all('/validate', negotiate, only('POST', '/validate'), ...documentRoute, async (req: Request, res: Response) => {
    const body = receivedBody(req);
    if (!body)
      throw errors.unsupportedMediaType(
        req.get('content-type'),
        'an e-invoice: application/xml (UBL or CII) or application/pdf (Factur-X / ZUGFeRD)',
      );
    const pipe = receiving();
    res.locals.documentType = 'received';
    res.status(200).json(await counted(res, (signal) => pipe.validate(body, signal)));
  });

  // Many documents in one request (batch.ts): the same key, body limits, locale and no-store as the routes above.
  const batch = batchHandler({ pipeline, quota: deps.quota, logger, maxDocuments: deps.config.limits.maxBatchDocuments });
  app.all('/batch', negotiate, only('POST', '/batch'), ...documentRoute, batch);

  app.use((req, _res, next) => next(requestErrors.notFound(req.method, req.path)));
  app.use(errorHandler(logger, deps.config.limits.maxBodyBytes));
  return app;
}
