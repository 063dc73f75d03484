// Logos by URL, kept in memory: real clients send the same logo URL with every document, and fetching it again each
// time made every request wait for (or fail on) the logo host. Logos are public assets named by URL, not document
// data; nothing goes to disk.
// - Freshness from the response: Cache-Control max-age (else Expires − Date; else DEFAULT_FRESH_MS), clamped between
//   the floor and the ceiling (LOGO_CACHE_MIN_SECONDS, LOGO_CACHE_MAX_SECONDS); `no-store` is never kept.
// - A stale logo with an ETag or Last-Modified is revalidated (If-None-Match / If-Modified-Since; 304 keeps it); one
//   whose revalidation fails is served stale for the failure lifetime rather than dropped.
// - Failures are kept for LOGO_FAILURE_CACHE_SECONDS: an unreachable host costs one attempt a minute, not one a request.
// - Concurrent requests for one URL share one fetch. Bounded by bytes (an LRU over the data URIs).
// Every fetch and revalidation goes through fetch-logo.ts, so the SSRF guards of docs/decisions.md §7 apply to each.
// Must not know about documents.
import { LRUCache } from 'lru-cache';
import { fetchLogo, type CacheHeaders, type LogoFetch, type LogoOptions, type LogoResult, type Validators } from './fetch-logo';

/** How long a logo whose response says nothing about caching is kept (then revalidated if it can be). */
const DEFAULT_FRESH_MS = 10 * 60_000;

export interface LogoCacheOptions {
  minFreshMs: number;
  maxFreshMs: number;
  failureMs: number;
  maxBytes: number;
  now?: () => number;
  /** The fetcher (tests may count calls); fetch-logo.ts by default. */
  fetch?: (url: string, opts: LogoOptions, validators?: Validators) => Promise<LogoFetch>;
}

interface Entry {
  result: LogoResult;
  freshUntil: number;
  validators?: Validators;
}

export interface LogoCacheStats {
  hits: number;
  misses: number;
  revalidations: number;
  entries: number;
  bytes: number;
}

/** Milliseconds a response may be used for, or undefined when it must not be kept (no-store). */
export function freshnessMs(headers: CacheHeaders | undefined, now: number): number | undefined {
  const cc = (headers?.cacheControl ?? '').toLowerCase();
  if (/(^|,)\s*no-store\s*(,|$)/.test(cc)) return undefined;
  if (/(^|,)\s*no-cache\s*(,|$)/.test(cc)) return 0;
  const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(cc);
  if (maxAge) return Number(maxAge[2]) * 1000;
  if (headers?.expires) {
    const expires = Date.parse(headers.expires);
    const date = headers.date ? Date.parse(headers.date) : now;
    return Number.isFinite(expires) ? Math.max(0, expires - (Number.isFinite(date) ? date : now)) : 0;
  }
  return DEFAULT_FRESH_MS;
}

export class LogoCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly inFlight = new Map<string, Promise<LogoResult>>();
  private readonly now: () => number;
  private readonly fetch: NonNullable<LogoCacheOptions['fetch']>;
  private readonly counts = { hits: 0, misses: 0, revalidations: 0 };

  constructor(private readonly opts: LogoCacheOptions) {
    this.now = opts.now ?? Date.now;
    this.fetch = opts.fetch ?? fetchLogo;
    this.entries = new LRUCache<string, Entry>({
      maxSize: opts.maxBytes,
      sizeCalculation: (e) => (e.result.ok ? e.result.dataUri.length : 0) + 200,
    });
  }

  stats(): LogoCacheStats {
    return { ...this.counts, entries: this.entries.size, bytes: this.entries.calculatedSize ?? 0 };
  }

  /** The logo at `url`: from memory while fresh, else fetched once for every request asking. A data: URI comes with
   * its request: it is checked, never kept. */
  async get(url: string, fetchOpts: LogoOptions): Promise<LogoResult> {
    if (url.startsWith('data:')) {
      const got = await this.fetch(url, fetchOpts);
      return 'notModified' in got ? { ok: false, reason: 'data_uri_invalid' } : got;
    }
    const entry = this.entries.get(url);
    if (entry && entry.freshUntil > this.now()) {
      this.counts.hits++;
      return entry.result;
    }
    let pending = this.inFlight.get(url);
    if (!pending) {
      this.counts.misses++;
      pending = this.load(url, fetchOpts, entry).finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, pending);
    }
    return pending;
  }

  private async load(url: string, fetchOpts: LogoOptions, stale: Entry | undefined): Promise<LogoResult> {
    const revalidate = stale?.result.ok && stale.validators ? stale.validators : undefined;
    if (revalidate) this.counts.revalidations++;
    const got = await this.fetch(url, fetchOpts, revalidate);
    const now = this.now();
    const clamp = (ms: number) => Math.min(this.opts.maxFreshMs, Math.max(this.opts.minFreshMs, ms));
    if ('notModified' in got) {
      const fresh = freshnessMs(got.headers, now);
      this.entries.set(url, { ...stale!, freshUntil: now + clamp(fresh ?? 0) });
      return stale!.result;
    }
    if (!got.ok) {
      // A logo that was good stays in use while its host fails; a logo that never was is remembered as failing.
      const result: LogoResult = stale?.result.ok ? stale.result : { ok: false, reason: got.reason };
      this.entries.set(url, { result, validators: stale?.validators, freshUntil: now + this.opts.failureMs });
      return stale?.result.ok ? stale.result : got;
    }
    const fresh = freshnessMs(got.headers, now);
    const result: LogoResult = { ok: true, dataUri: got.dataUri };
    if (fresh === undefined) {
      this.entries.delete(url);
      return result;
    }
    const validators =
      got.headers?.etag || got.headers?.lastModified ? { etag: got.headers.etag, lastModified: got.headers.lastModified } : undefined;
    this.entries.set(url, { result, validators, freshUntil: now + clamp(fresh) });
    return result;
  }
}
