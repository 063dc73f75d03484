// Each account's brand as the store holds it, kept in memory while its stamp stays the store's: every document request
// reads its account's brand (http/brand.ts), and a brand with a logo holds it as a data: URI of up to a few
// megabytes. Each document reads the brand's stamp (a few bytes; every write changes it, sqlite/brands.ts and
// redis/brands.ts) and the brand itself only when the stamp is not the one held, so a change made through any
// instance sharing the store is seen by every instance at once. An entry is used for at most a minute (`maxAgeMs`),
// whatever its stamp: a brand written by an earlier version of the service, which kept no stamps, is never held.
// Bounded by the bytes held (the entries read longest ago are dropped first). Knows nothing of what a brand holds.
import type { BrandBackend, BrandStore } from './key-store';

export interface BrandCacheOptions {
  /** How long an entry is used at most, its stamp unchanged, before the brand is read again. */
  maxAgeMs: number;
  /** The most text held across accounts (UTF-16 code units, as JavaScript measures a string). */
  maxChars: number;
  clock: () => number;
}

export const BRAND_CACHE_DEFAULTS: BrandCacheOptions = { maxAgeMs: 60_000, maxChars: 32 * 1024 * 1024, clock: () => performance.now() };

interface Entry {
  text: string;
  stamp: string;
  readAt: number;
}

export class CachedBrands implements BrandStore {
  /** By account, oldest read first (Map keeps insertion order; a fresh read moves to the end). */
  private readonly held = new Map<string, Entry>();
  private chars = 0;
  /** Brands read whole from the store, and stamps read (the tests count them). */
  readonly stats = { reads: 0, stamps: 0 };

  constructor(
    private readonly store: BrandBackend,
    private readonly opts: BrandCacheOptions = BRAND_CACHE_DEFAULTS,
  ) {}

  async getBrand(account: string): Promise<string | undefined> {
    const now = this.opts.clock();
    this.stats.stamps++;
    const stamp = await this.store.brandStamp(account);
    if (stamp === undefined) {
      this.drop(account);
      return undefined;
    }
    const entry = this.held.get(account);
    if (entry && entry.stamp === stamp && now - entry.readAt < this.opts.maxAgeMs) return entry.text;
    this.stats.reads++;
    // The text and its stamp are read together: what is kept is always a text with its own stamp, whatever writes
    // came between the two reads.
    const read = await this.store.stampedBrand(account);
    if (!read) {
      this.drop(account);
      return undefined;
    }
    if (read.stamp !== '') this.keep(account, { ...read, readAt: now });
    return read.text;
  }

  async putBrand(account: string, brand: string | undefined): Promise<void> {
    this.drop(account);
    await this.store.putBrand(account, brand);
  }

  private keep(account: string, entry: Entry): void {
    this.drop(account);
    const size = entry.text.length;
    if (size > this.opts.maxChars) return;
    for (const [oldest, { text }] of this.held) {
      if (this.chars + size <= this.opts.maxChars) break;
      this.held.delete(oldest);
      this.chars -= text.length;
    }
    this.held.set(account, entry);
    this.chars += size;
  }

  private drop(account: string): void {
    const entry = this.held.get(account);
    if (!entry) return;
    this.held.delete(account);
    this.chars -= entry.text.length;
  }
}
