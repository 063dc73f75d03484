// The SQLite side of each account's brand (PUT /brand): one row per account, its settings as JSON text. Shares the
// store's database; holds account settings, no document content.
import type Database from 'better-sqlite3';
import type { BrandStore } from '../key-store';
import { statementCache } from './statements';

export class SqliteBrands implements BrandStore {
  private readonly sql: (text: string) => Database.Statement;

  constructor(db: Database.Database) {
    this.sql = statementCache(db);
  }

  async getBrand(account: string): Promise<string | undefined> {
    return (this.sql('SELECT brand FROM brands WHERE account = ?').get(account) as { brand: string } | undefined)?.brand;
  }

  async putBrand(account: string, brand: string | undefined): Promise<void> {
    if (brand === undefined) this.sql('DELETE FROM brands WHERE account = ?').run(account);
    else
      this.sql(
        'INSERT INTO brands (account, brand, updated_at) VALUES (?, ?, ?) ON CONFLICT (account) DO UPDATE SET brand = excluded.brand, updated_at = excluded.updated_at',
      ).run(account, brand, new Date().toISOString());
  }
}
