// The SQLite side of the attempts behind the sign-in, sign-up and wrong-key limits: a sliding window per key, checked
// and recorded in one IMMEDIATE transaction (instances sharing the file share the count). Each row carries its own
// expiry, since the limits' windows differ (a minute, an hour): one limit's purge never drops another's attempts.
// Shares the store's database.
import type Database from 'better-sqlite3';
import type { AttemptStore } from '../key-store';
import { statementCache } from './statements';

export class SqliteAttempts implements AttemptStore {
  private readonly sql: (text: string) => Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.sql = statementCache(db);
  }

  async recordAttempt(keys: { key: string; max: number }[], windowMs: number, now: number): Promise<boolean> {
    const record = this.db.transaction((): boolean => {
      this.sql('DELETE FROM attempts WHERE expires_at <= ?').run(now);
      const count = this.sql('SELECT COUNT(*) AS n FROM attempts WHERE key = ? AND at > ?');
      if (keys.some(({ key, max }) => (count.get(key, now - windowMs) as { n: number }).n >= max)) return false;
      const insert = this.sql('INSERT INTO attempts (key, at, expires_at) VALUES (?, ?, ?)');
      for (const { key } of keys) insert.run(key, now, now + windowMs);
      return true;
    });
    return record.immediate();
  }
}
