// The HTTP surface: the app's middleware and routers in order (the API's operations are the route table of
// routes.ts; health, readiness and metrics are operations.ts), the locale, body reading, request ids and access logs.
// server/http/ is the only place that imports express (the studio and account routers live beside this file) and the
// only one that knows HTTP statuses.
// Order on the document routes: method (405) → API key (401) → body presence, type and size (400/415/413)
// → parse and validate (400) → render. Errors go to errors-to-http.ts (statuses and bodies from error-catalogue.ts);
// no handler writes an error body itself.
import crypto from 'node:crypto';
import express, { type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { inTurn } from '../cpu-turns';
import type { Config } from '../config';
import type { SigningStatus } from '../pdf-signing';
import type { KeyStore } from '../keys/key-store';
import type { Quota } from '../quota/quota';
import type { DocumentPipeline } from '../pipeline';
import type { Locale } from '../render/labels/locale';
import { requireApiKey } from './auth';
import { errorHandler } from './errors-to-http';
import { routeLabel, type Metrics } from './metrics';
import { apiReference } from './docs';
import type { PoolStats } from '../pdf/renderer';
import type { ReceivedPipeline } from '../received-pipeline';
import { bodyPreconditions, rawBody } from './body-limits';
import { requestErrors } from './request-errors';
import { operationRoutes } from './operations';
import type { OpenApiFiles } from './openapi';
import { ROUTES, type RouteContext } from './routes';
import { languagePreferences } from './accept-language';
import { bodyKind } from './body-kind';
import { otherMethods } from './other-methods';
import { accountBrand, brandRoutes } from './brand';
import type { Brand } from '../documents/brand';

export interface AppDeps {
  /** The studio's router, when it is enabled (development). */
  studio?: express.Router;
  /** The account pages (sign up, sign in, developer settings). */
  account?: express.Router;
  config: Pick<Config, 'limits' | 'trustProxy' | 'apiKeyFailuresPerMinute'>;
  pipeline: DocumentPipeline;
  /** The description's data files, read at start-up (http-assets.ts). */
  web: OpenApiFiles;
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

/** Headers that carry one value, as Node reads them: a second one is dropped unseen (Content-Type, Authorization) or
 * joined into a list the body reader would misread (Content-Encoding). Sent twice, they are refused, named. */
const SINGLE_HEADERS = new Map([
  ['content-type', 'Content-Type'],
  ['authorization', 'Authorization'],
  ['content-encoding', 'Content-Encoding'],
]);

function singleHeaders(): RequestHandler {
  return (req, _res, next) => {
    const counts = new Map<string, number>();
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!.toLowerCase();
      if (SINGLE_HEADERS.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const repeated = [...counts].find(([, n]) => n > 1);
    next(repeated ? requestErrors.repeatedHeader(SINGLE_HEADERS.get(repeated[0])!, repeated[1]) : undefined);
  };
}

/** The route's own method goes on; any other is answered as otherMethods answers it. */
function only(method: 'POST'): RequestHandler {
  const other = otherMethods([method]);
  return (req, res, next) => (req.method === method ? next() : other(req, res, next));
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
  app.use(singleHeaders());
  app.use(deps.metrics.middleware);

  app.use(operationRoutes({ ...deps, rules: Boolean(deps.received) }));
  if (deps.studio) app.use('/studio', deps.studio);
  if (deps.account) app.use('/account', deps.account);
  // GET /openapi.json and the /docs reference page (with the looser CSP Redoc needs, on /docs only).
  app.use(apiReference(pipeline.assets.schemas, deps.web, { maxBatchDocuments: deps.config.limits.maxBatchDocuments }));

  // Every row of the route table (routes.ts) behind one chain: the locale and no-store, the method, the API key, the
  // body's presence, type and size, and then its handler.
  const context: RouteContext = {
    pipeline,
    quota: deps.quota,
    logger,
    received: deps.received,
    prepare: preparer(pipeline),
    maxBatchDocuments: deps.config.limits.maxBatchDocuments,
  };
  const apiKey = requireApiKey(deps.keys, deps.config.apiKeyFailuresPerMinute);
  const body = [bodyPreconditions(deps.config.limits), rawBody(deps.config.limits)];
  // GET and PUT /brand: the account's brand, which every document route then reads (accountBrand).
  app.use(brandRoutes(deps.keys, pipeline, apiKey, body));
  const checks = [apiKey, accountBrand(deps.keys, pipeline), ...body];
  for (const route of ROUTES) app.all(route.path, negotiate(pipeline), only(route.method), ...checks, route.handler(context));

  app.use((req, _res, next) => next(requestErrors.notFound(req.method, req.path)));
  app.use(errorHandler(logger, deps.config.limits.maxBodyBytes));
  return app;
}

/**
 * Every answer of the document routes, errors included, names the locale it was (or would be) made in, and may be
 * kept by no cache: a document is its client's business data.
 */
function negotiate(pipeline: DocumentPipeline): RequestHandler {
  return (req, res, next) => {
    const locale = pipeline.locale(languagePreferences(req.get('accept-language')));
    res.locals.locale = locale;
    res.set('Content-Language', locale.tag);
    res.set('Cache-Control', 'no-store');
    next();
  };
}

/** Parses and validates the body; `eInvoice`: an e-invoice operation, which refuses other types first. */
function preparer(pipeline: DocumentPipeline): RouteContext['prepare'] {
  return async (req: Request, res: Response, eInvoice = false) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const body = await pipeline.parse(bodyKind(req.get('content-type')), raw);
    const prepared = await inTurn(() =>
      pipeline.prepare(body, res.locals.locale as Locale, eInvoice, res.locals.brand as Brand | undefined),
    );
    res.locals.documentType = prepared.doc.type;
    return prepared;
  };
}
