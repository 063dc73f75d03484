// Assembles the running service from its parts: config → assets → key store → browser pool → HTTP server.
// Used by main.ts and by the tests (which start it on port 0 with their own store), so both run the same wiring.
import type http from 'node:http';
import type { Logger } from 'pino';
import { projectRoot, type Config } from './config';
import { createApp } from './http/app';
import { createMetrics, type Metrics } from './http/metrics';
import { createStudio } from './http/studio';
import { accountRouter } from './http/account';
import { loadHttpAssets, type HttpAssets } from './http/http-assets';
import { startLiveReload } from './dev/live-reload';
import type { KeyStore } from './keys/key-store';
import { openStore } from './keys/open-store';
import { guardStore } from './keys/store-guard';
import { Quota } from './quota/quota';
import { listen } from './http/server';
import { createLogger } from './logger';
import type { PdfRenderer } from './pdf/browser-pool';
import { startBrowserPool } from './browser-setup';
import { loadAssets, type Assets } from './assets';
import { PdfSigning } from './pdf-signing';
import { DocumentPipeline } from './pipeline';
import { PrintFirst } from './workers/print-first';
import { acquireXsdValidator, type XsdValidatorRef } from './einvoice/xsd-validator';
import { acquireRulesPool, type RulesPoolRef } from './einvoice/rules/rules-pool';
import { STANDARDS_MANIFEST } from './einvoice/rules/rule-sets';
import { installedProblems } from './standards/installed';
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
  /** The data files, already loaded from `root` with `config.limits` (tests load them once per process). */
  assets?: Assets;
}

export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const root = options.root ?? projectRoot();
  const assets = options.assets ?? loadAssets(root, config.limits);
  // The edge's own data files (account pages, examples, the version), read once here as well.
  const web = loadHttpAssets(root);
  const keys = guardStore(options.keys ?? openStore(config), (method, err) =>
    logger.warn({ method, error: (err as Error).message }, 'key store busy or unreachable; trying again'),
  );
  let engines: Engines | undefined;
  const metrics = createMetrics(() => engines!.pdf.stats());
  // While PDFs print, the rule checkers are held (workers/print-first.ts).
  const printFirst = new PrintFirst({ maxPauseMs: config.rulesHoldMs });
  try {
    engines = await startEngines(config, logger, { pdf: options.pdf, metrics, printFirst });
  } catch (err) {
    await keys.close();
    throw err;
  }
  const wired = wire(config, options, { root, assets, web, keys, logger, metrics, engines });
  const served = await listen(wired.app, config, logger);
  const { pdf, xsd, rules } = engines;
  return {
    url: served.url,
    port: served.port,
    server: served.server,
    keys,
    quota: wired.quota,
    pdf,
    pipeline: wired.pipeline,
    logger,
    async close() {
      // Stop accepting and let the requests in flight finish, then stop what they used.
      wired.studio?.close();
      await served.close();
      wired.reload?.close();
      await pdf.close();
      printFirst.close();
      await rules?.release();
      await xsd.release();
      await keys.close();
    },
  };
}

/** The pipelines, the quota and the routers around the started engines, mounted in one express app. */
function wire(
  config: Config,
  options: StartOptions,
  parts: { root: string; assets: Assets; web: HttpAssets; keys: KeyStore; logger: Logger; metrics: Metrics; engines: Engines },
) {
  const { root, assets, web, keys, logger, metrics } = parts;
  const { pdf, xsd, rules, signing } = parts.engines;
  const pipeline = new DocumentPipeline(assets, pdf, xsd.validator, config, signing);
  const received = rules ? new ReceivedPipeline(pipeline, xsd.validator, rules.pool, config.limits.maxItems) : undefined;
  // A reservation outlives any render (deadline + slack), so only a crashed instance's reservations ever expire.
  const quota = new Quota(
    keys,
    config.planLimits,
    2 * config.renderTimeoutMs + 30_000,
    assets.messages,
    options.clock,
    (kind, account, err) =>
      logger.error({ account, err }, `quota: a document's ${kind} could not be finished; the key store stayed unavailable`),
  );
  const reload = config.liveReload ? startLiveReload(root, config.limits, pipeline) : undefined;
  const studio = config.studio ? createStudio(pipeline, web.examples, reload) : undefined;
  const account = accountRouter(keys, web.pages, config, options.clock, {
    check: (body) => pipeline.brand(body),
    themes: assets.html.themes,
    fonts: assets.html.latinFamilies,
    languages: assets.catalogues.languages,
  });
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
    xsdReady: () => xsd.validator.check(),
    poolStats: () => pdf.liveStats?.() ?? pdf.stats(),
    signing: signing && (() => signing.status()),
  });
  return { app, pipeline, quota, reload, studio };
}

/** What answers the requests besides the key store: the renderer, the XSD validator, the official rule sets (when
 * installed) and PDF signing as configured. */
interface Engines {
  pdf: PdfRenderer;
  xsd: XsdValidatorRef;
  rules?: RulesPoolRef;
  signing?: PdfSigning;
}

/** Starts Chromium (unless `given.pdf` renders instead), the validators and signing; whatever was started is released
 * again when a later one fails. */
async function startEngines(
  config: Config,
  logger: Logger,
  given: { pdf?: PdfRenderer; metrics: Metrics; printFirst: PrintFirst },
): Promise<Engines> {
  const pdf =
    given.pdf ??
    (await startBrowserPool(config, {
      onEvent: (event, detail) => logger.warn({ event, ...detail }, `browser pool: ${event}`),
      onRender: (wait, render) => given.metrics.observeRender(wait, render),
      onPrinting: (printing) => given.printFirst.setPrinting(printing),
    }));
  let xsd: XsdValidatorRef | undefined;
  let rules: RulesPoolRef | undefined;
  try {
    xsd = acquireXsdValidator(config);
    rules = acquireRules(config, logger);
    await Promise.all([xsd.validator.ready(), rules?.pool.ready()]);
    if (rules) given.printFirst.add(rules.pool);
    const signing = await PdfSigning.start(config);
    const signingWarning = signing?.status().warning;
    if (signingWarning) logger.warn({ signing: signing!.status() }, `PDF signing: ${signingWarning}`);
    return { pdf, xsd, rules, signing };
  } catch (err) {
    await rules?.release();
    await xsd?.release();
    await pdf.close();
    throw err;
  }
}

/** The standards folder holds another release than standards/manifest.json names: every difference, one each. */
export class StandardsMismatchError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The standards installed are not the ones standards/manifest.json names (run npm run standards):\n  - ${problems.join('\n  - ')}`,
    );
    this.name = 'StandardsMismatchError';
  }
}

/** The official rule sets, parsed once per worker at start-up (received e-invoices: POST /validate). Missing rules
 * stop start-up naming each file, unless the operator turned received e-invoices off (RECEIVED_EINVOICES=false). */
function acquireRules(config: Config, logger: Logger): RulesPoolRef | undefined {
  const mismatch = installedProblems(STANDARDS_MANIFEST, config.standardsDir);
  if (mismatch.length > 0) throw new StandardsMismatchError(mismatch);
  if (config.receivedEInvoices) {
    return acquireRulesPool(config, { onEvent: (event, detail) => logger.warn({ event, ...detail }, `rules pool: ${event}`) });
  }
  logger.warn('received e-invoices are off (RECEIVED_EINVOICES=false): they are answered rules_unavailable');
  return undefined;
}
