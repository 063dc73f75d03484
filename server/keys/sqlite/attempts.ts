// The SQLite side of the attempts behind the sign-in and wrong-key limits: a sliding window per key, checked and
// recorded in one IMMEDIATE transaction (instances sharing the file share the count). Shares the store's database.
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
      this.sql('DELETE FROM attempts WHERE at <= ?').run(now - windowMs);
      const count = this.sql('SELECT COUNT(*) AS n FROM attempts WHERE key = ?');
      if (keys.some(({ key, max }) => (count.get(key) as { n: number }).n >= max)) return false;
      const insert = this.sql('INSERT INTO attempts (key, at) VALUES (?, ?)');
      for (const { key } of keys) insert.run(key, now);
      return true;
    });
    return record.immediate();
  }
}
