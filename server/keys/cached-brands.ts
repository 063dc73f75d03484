// Each account's brand as the store holds it, kept in memory for a second: every document request reads its
// account's brand (http/brand.ts), and a brand with a logo holds it as a data: URI of up to a few megabytes, which
// would otherwise be read from SQLite or Redis for each document. A write goes through to the store and drops the
// account's entry, so this instance sees its own changes at once; another instance sharing the store (Redis) sees
// them within the second. A read that overlaps a write is not kept. Bounded by the bytes held (the entries read
// longest ago are dropped first). Knows nothing of what a brand holds.
import type { BrandStore } from './key-store';

export interface BrandCacheOptions {
  /** How long an entry is used before the store is read again. */
  ttlMs: number;
  /** The most text held across accounts (UTF-16 code units, as JavaScript measures a string). */
  maxChars: number;
  clock: () => number;
}

export const BRAND_CACHE_DEFAULTS: BrandCacheOptions = { ttlMs: 1000, maxChars: 32 * 1024 * 1024, clock: () => performance.now() };

interface Entry {
  text: string | undefined;
  readAt: number;
}

export class CachedBrands implements BrandStore {
  /** By account, oldest read first (Map keeps insertion order; a fresh read moves to the end). */
  private readonly held = new Map<string, Entry>();
  private chars = 0;
  /** Writes per account so far: a read kept only if none began while it was out. */
  private readonly writes = new Map<string, number>();
  /** Store reads made (the tests count them). */
  readonly stats = { reads: 0 };

  constructor(
    private readonly store: BrandStore,
    private readonly opts: BrandCacheOptions = BRAND_CACHE_DEFAULTS,
  ) {}

  async getBrand(account: string): Promise<string | undefined> {
    const now = this.opts.clock();
    const entry = this.held.get(account);
    if (entry && now - entry.readAt < this.opts.ttlMs) return entry.text;
    const writes = this.writes.get(account) ?? 0;
    this.stats.reads++;
    const text = await this.store.getBrand(account);
    if ((this.writes.get(account) ?? 0) === writes) this.keep(account, { text, readAt: now });
    return text;
  }

  async putBrand(account: string, brand: string | undefined): Promise<void> {
    this.writes.set(account, (this.writes.get(account) ?? 0) + 1);
    this.drop(account);
    await this.store.putBrand(account, brand);
  }

  private keep(account: string, entry: Entry): void {
    this.drop(account);
    const size = entry.text?.length ?? 0;
    if (size > this.opts.maxChars) return;
    for (const [oldest, { text }] of this.held) {
      if (this.chars + size <= this.opts.maxChars) break;
      this.held.delete(oldest);
      this.chars -= text?.length ?? 0;
    }
    this.held.set(account, entry);
    this.chars += size;
  }

  private drop(account: string): void {
    const entry = this.held.get(account);
    if (!entry) return;
    this.held.delete(account);
    this.chars -= entry.text?.length ?? 0;
  }
}
