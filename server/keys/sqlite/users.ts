// The SQLite side of the people who sign in to manage an account: users (the account is named by their email),
// sessions by the hash of their token, and one-time messages. Shares the store's database; holds no document content.
import type Database from 'better-sqlite3';
import type { UserStore } from '../key-store';
import { statementCache } from './statements';

export class SqliteUsers implements UserStore {
  private readonly sql: (text: string) => Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.sql = statementCache(db);
  }

  async createUser(email: string, passwordHash: string): Promise<boolean> {
    const create = this.db.transaction((): boolean => {
      if (this.sql('SELECT 1 FROM users WHERE email = ?').get(email)) return false;
      if (this.sql('SELECT 1 FROM accounts WHERE name = ?').get(email)) return false;
      const now = new Date().toISOString();
      this.sql("INSERT INTO accounts (name, plan, created_at) VALUES (?, 'free', ?)").run(email, now);
      this.sql('INSERT INTO users (email, password_hash, account, created_at) VALUES (?, ?, ?, ?)').run(email, passwordHash, email, now);
      return true;
    });
    return create.immediate();
  }

  async findUser(email: string): Promise<{ email: string; passwordHash: string; account: string } | undefined> {
    const row = this.sql('SELECT email, password_hash, account FROM users WHERE email = ?').get(email) as
      { email: string; password_hash: string; account: string } | undefined;
    return row && { email: row.email, passwordHash: row.password_hash, account: row.account };
  }

  async createSession(tokenHash: string, email: string, expiresAt: number): Promise<void> {
    this.sql('DELETE FROM sessions WHERE expires_at <= ?').run(Date.now());
    this.sql('INSERT INTO sessions (token_hash, email, expires_at) VALUES (?, ?, ?)').run(tokenHash, email, expiresAt);
  }

  async findSession(tokenHash: string, now: number): Promise<{ email: string; account: string } | undefined> {
    return this.sql(
      'SELECT s.email, u.account FROM sessions s JOIN users u ON u.email = s.email WHERE s.token_hash = +? AND s.expires_at > ?',
    ).get(tokenHash, now) as { email: string; account: string } | undefined;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    this.sql('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
  }

  async putFlash(id: string, value: string, expiresAt: number): Promise<void> {
    this.sql('INSERT OR REPLACE INTO flash (id, value, expires_at) VALUES (?, ?, ?)').run(id, value, expiresAt);
  }

  async takeFlash(id: string, now: number): Promise<string | undefined> {
    const row = this.sql('DELETE FROM flash WHERE id = ? RETURNING value, expires_at').get(id) as
      { value: string; expires_at: number } | undefined;
    this.sql('DELETE FROM flash WHERE expires_at <= ?').run(now);
    return row && row.expires_at > now ? row.value : undefined;
  }
}
