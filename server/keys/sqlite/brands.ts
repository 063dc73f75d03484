// The SQLite side of each account's brand (PUT /brand): one row per account, its settings as JSON text and the stamp
// of its last write (a random UUID; cached-brands.ts reads it to tell whether the text it holds is still the
// account's). Shares the store's database; holds account settings, no document content.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { BrandBackend, StampedBrand } from '../key-store';
import { statementCache } from './statements';

export class SqliteBrands implements BrandBackend {
  private readonly sql: (text: string) => Database.Statement;

  constructor(db: Database.Database) {
    this.sql = statementCache(db);
  }

  async brandStamp(account: string): Promise<string | undefined> {
    return (this.sql('SELECT stamp FROM brands WHERE account = ?').get(account) as { stamp: string } | undefined)?.stamp;
  }

  async stampedBrand(account: string): Promise<StampedBrand | undefined> {
    const row = this.sql('SELECT brand, stamp FROM brands WHERE account = ?').get(account) as { brand: string; stamp: string } | undefined;
    return row && { text: row.brand, stamp: row.stamp };
  }

  async putBrand(account: string, brand: string | undefined): Promise<void> {
    if (brand === undefined) this.sql('DELETE FROM brands WHERE account = ?').run(account);
    else
      this.sql(
        'INSERT INTO brands (account, brand, updated_at, stamp) VALUES (?, ?, ?, ?) ON CONFLICT (account) DO UPDATE SET brand = excluded.brand, updated_at = excluded.updated_at, stamp = excluded.stamp',
      ).run(account, brand, new Date().toISOString(), randomUUID());
  }
}
