// The logo: fetched by the server, never by the page (docs/decisions.md §7), and handed to the template as a data: URI.
// Guards against SSRF: http(s) only, every resolved address checked (private, loopback, link-local and other non-public
// ranges refused unless allowed; IPv6 forms that embed or translate to an IPv4 address, ::/96, ::ffff:0:0/96 but for a
// public IPv4, ::ffff:0:0:0/96, NAT64, 6to4 and Teredo, are never public: `http://[::127.0.0.1]/` once passed the
// check), the checked address is the one connected to (no DNS rebinding), redirects re-checked, a deadline, a size cap
// and image types only.
// What reaches the page is made here, never what the client sent: a bitmap is decoded under a pixel budget and written
// again small (bitmap.ts: a 48 KB PNG of 20000×20000 took a renderer to 4.1 GB, a GIF that says 1×1 in its header and
// 20000×20000 in its frame 1.5 GB); an SVG is reduced to a safe vector subset and written again (svg-sanitize.ts: a
// prefixed <s:image>, an entity that expands into an <image>, a <use> fan-out).
// Never throws: a logo that cannot be had leaves the document without one, and the reason goes to the caller's log.
// Reasons are codes and counts of this module's own words (`dns_not_found`, `http_status 404`, `svg_refused: use
// budget`), never the client's text: no host name, URL, address or SVG content (host names once reached the log inside
// `ENOTFOUND` messages).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { boundBitmap } from './bitmap';
import { sanitizeSvg } from './svg/sanitize';

export { MAX_LOGO_PIXELS } from './bitmap';

export interface LogoOptions {
  allowPrivate: boolean;
  /** `host` or `host:port` entries fetched even when they resolve to a private address (closed networks, tests). */
  allowedHosts?: ReadonlySet<string>;
  timeoutMs: number;
  maxBytes: number;
}

export type LogoResult = { ok: true; dataUri: string } | { ok: false; reason: string };

/** What a response says about caching it (logo-cache.ts decides what to do with it). */
export interface CacheHeaders {
  cacheControl?: string;
  expires?: string;
  date?: string;
  etag?: string;
  lastModified?: string;
}

/** A fetch of a logo URL, possibly conditional: the image, or "not modified", with the response's cache headers. */
export type LogoFetch = (LogoResult & { headers?: CacheHeaders }) | { ok: true; notModified: true; headers: CacheHeaders };

/** Validators for a conditional request (a revalidation of a cached logo). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml', 'image/avif']);
const MAX_REDIRECTS = 3;

/** The image the page may draw, made from `bytes`: a bounded bitmap, or a sanitized SVG; else the reason. */
async function image(type: string, bytes: Buffer): Promise<LogoResult> {
  if (type === 'image/svg+xml') {
    const svg = sanitizeSvg(bytes.toString('utf8'));
    return svg.ok ? { ok: true, dataUri: `data:image/svg+xml;base64,${Buffer.from(svg.svg).toString('base64')}` } : svg;
  }
  const bitmap = await boundBitmap(bytes);
  return bitmap.ok ? { ok: true, dataUri: `data:${bitmap.type};base64,${bitmap.bytes.toString('base64')}` } : bitmap;
}

/** IPv6 ranges that carry or translate to an IPv4 address (or are deprecated for it): never a public logo host. */
const TRANSITION_RANGES: [ipaddr.IPv6, number][] = [
  ['::', 96], // IPv4-compatible (deprecated): ::127.0.0.1 is ::7f00:1
  ['::ffff:0:0:0', 96], // IPv4-translated (RFC 6145)
  ['64:ff9b::', 96], // NAT64 well-known prefix (RFC 6052)
  ['64:ff9b:1::', 48], // NAT64 local-use prefix (RFC 8215)
  ['2002::', 16], // 6to4 (RFC 3056)
  ['2001::', 32], // Teredo (RFC 4380)
].map(([a, bits]) => [ipaddr.IPv6.parse(a as string), bits as number]);

/**
 * Whether a logo may come from `address`: a unicast address in no special range. An IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d, which the system connects to as a.b.c.d) is judged by its IPv4 address; every other IPv6 form
 * that embeds or translates to an IPv4 address is not public, whatever it embeds.
 */
export function isPublicAddress(address: string): boolean {
  if (net.isIPv4(address)) return ipaddr.IPv4.isValidFourPartDecimal(address) && ipaddr.IPv4.parse(address).range() === 'unicast';
  if (!net.isIPv6(address)) return false;
  // In hexadecimal first: ipaddr.js reads ::a.b.c.d as if it were ::ffff:a.b.c.d (the system connects to ::/96).
  let hex: string;
  try {
    hex = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return false;
  }
  const v6 = ipaddr.IPv6.parse(hex);
  const parts = v6.parts;
  if (parts.slice(0, 5).every((p) => p === 0) && parts[5] === 0xffff) return isPublicAddress(v6.toIPv4Address().toString());
  if (TRANSITION_RANGES.some(([range, bits]) => v6.match(range, bits))) return false;
  return v6.range() === 'unicast';
}

/** A failure whose reason is this module's words. */
class LogoError extends Error {}

/** The reason for the log of an error of the network or of Node: a code, never its message (which names the host). */
function networkReason(err: NodeJS.ErrnoException): string {
  if (err instanceof LogoError) return err.message;
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return 'timeout';
  switch (err.code) {
    case 'ENOTFOUND':
      return 'dns_not_found';
    case 'EAI_AGAIN':
    case 'ESERVFAIL':
    case 'ENODATA':
    case 'ETIMEOUT':
      return 'dns_failed';
    case 'ECONNREFUSED':
      return 'connection_refused';
    case 'ERR_INVALID_URL':
      return 'invalid_url';
    default:
      return typeof err.code === 'string' && /^[A-Z][A-Z0-9_]{1,48}$/.test(err.code) ? `network_error ${err.code}` : 'network_error';
  }
}

function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const usable = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) {
        return callback(new LogoError('address_not_public'), '', 4);
      }
      if (options.all) return callback(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

function cacheHeaders(res: http.IncomingMessage): CacheHeaders {
  const h = (name: string) => {
    const v = res.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  return { cacheControl: h('cache-control'), expires: h('expires'), date: h('date'), etag: h('etag'), lastModified: h('last-modified') };
}

/** One response, as fetchLogoOnce follows it: a redirect, "not modified", or an image's type and bytes. */
interface Fetched {
  redirect?: string;
  type?: string;
  body?: Buffer;
  notModified?: boolean;
  headers?: CacheHeaders;
}

/** The promise's settling functions, handed to the response's handlers. */
interface Settle {
  resolve: (fetched: Fetched) => void;
  reject: (err: Error) => void;
}

/** Whether `url` may resolve to a private address: private addresses allowed everywhere, or this host is allowed
 * (named with or without its port). */
function allowsPrivate(url: URL, opts: LogoOptions): boolean {
  return opts.allowPrivate || opts.allowedHosts?.has(url.host) === true || opts.allowedHosts?.has(url.hostname) === true;
}

/** The request's headers: images only, and a revalidation's validators. */
function requestHeaders(validators?: Validators): http.OutgoingHttpHeaders {
  return {
    accept: 'image/*',
    'user-agent': 'docgen-service logo fetcher',
    ...(validators?.etag ? { 'if-none-match': validators.etag } : {}),
    ...(validators?.lastModified ? { 'if-modified-since': validators.lastModified } : {}),
  };
}

/** Reads an image's body, stopping the response (refused as too_large) when it grows past `maxBytes`. */
function readImageBody(res: http.IncomingMessage, type: string, maxBytes: number, { resolve, reject }: Settle): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      reject(new LogoError('too_large'));
      return;
    }
    chunks.push(chunk);
  });
  res.on('end', () => resolve({ type, body: Buffer.concat(chunks), headers: cacheHeaders(res) }));
  res.on('error', reject);
}

/** Settles on one response: not modified, a redirect, a refused status, type or declared size, else its image. */
function settleResponse(res: http.IncomingMessage, opts: LogoOptions, validators: Validators | undefined, settle: Settle): void {
  const { resolve, reject } = settle;
  const status = res.statusCode ?? 0;
  if (status === 304 && validators) {
    res.resume();
    resolve({ notModified: true, headers: cacheHeaders(res) });
    return;
  }
  if (status >= 300 && status < 400 && res.headers.location) {
    res.resume();
    resolve({ redirect: res.headers.location });
    return;
  }
  if (status !== 200) {
    res.resume();
    reject(new LogoError(`http_status ${status}`));
    return;
  }
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!IMAGE_TYPES.has(type)) {
    res.resume();
    reject(new LogoError('content_type_not_image'));
    return;
  }
  const declared = Number(res.headers['content-length'] ?? 0);
  if (declared > opts.maxBytes) {
    res.destroy();
    reject(new LogoError('too_large'));
    return;
  }
  readImageBody(res, type, opts.maxBytes, settle);
}

/** One GET of `url` (no redirect followed), its host's addresses checked where it connects (guardedLookup). */
function fetchOnce(url: URL, opts: LogoOptions, signal: AbortSignal, validators?: Validators): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const allowPrivate = allowsPrivate(url, opts);
    if (net.isIP(host) && !allowPrivate && !isPublicAddress(host)) {
      reject(new LogoError('address_not_public'));
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(url, { lookup: guardedLookup(allowPrivate), signal, headers: requestHeaders(validators) }, (res) =>
      settleResponse(res, opts, validators, { resolve, reject }),
    );
    req.on('error', reject);
  });
}

const DATA_URI = /^data:(image\/[a-z0-9.+-]+)(;[a-z0-9=.+-]+)*;base64,([a-z0-9+/=\s]+)$/i;
/** What a reason may be: this module's words, digits and a Node error code; anything else is not logged as is. */
const REASON = /^[a-z_]+(:? [A-Za-z0-9_ ]+)?$/;

/**
 * The logo for `logo`: a data: URI is checked and made safe; an http(s) URL is fetched (conditionally when
 * `validators` are given), with the response's cache headers. A failure's reason is a code (REASON).
 */
export async function fetchLogo(logo: string, opts: LogoOptions, validators?: Validators): Promise<LogoFetch> {
  const got = await fetchLogoOnce(logo, opts, validators);
  return got.ok || REASON.test(got.reason) ? got : { ...got, reason: 'logo_failed' };
}

async function fetchLogoOnce(logo: string, opts: LogoOptions, validators?: Validators): Promise<LogoFetch> {
  try {
    if (logo.startsWith('data:')) {
      const m = DATA_URI.exec(logo);
      if (!m || !IMAGE_TYPES.has(m[1]!.toLowerCase())) return { ok: false, reason: 'data_uri_invalid' };
      const bytes = Buffer.from(m[3]!, 'base64');
      if (bytes.length > opts.maxBytes) return { ok: false, reason: 'too_large' };
      return await image(m[1]!.toLowerCase(), bytes);
    }
    const signal = AbortSignal.timeout(opts.timeoutMs);
    let url = new URL(logo);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'scheme_not_fetched' };
      const res = await fetchOnce(url, opts, signal, validators);
      if (res.redirect) {
        url = new URL(res.redirect, url);
        continue;
      }
      if (res.notModified) return { ok: true, notModified: true, headers: res.headers ?? {} };
      return { ...(await image(res.type!, res.body!)), headers: res.headers };
    }
    return { ok: false, reason: 'too_many_redirects' };
  } catch (err) {
    return { ok: false, reason: networkReason(err as NodeJS.ErrnoException) };
  }
}
