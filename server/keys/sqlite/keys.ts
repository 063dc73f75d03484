// The SQLite side of accounts and their API keys: a key is stored by its hash (never the key itself) with its
// displayed prefix; an account carries its plan. Shares the store's database (sqlite/store.ts); holds no document
// content and no usage.
import type Database from 'better-sqlite3';
import { generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, sameHash } from '../api-key';
import { KeyStoreError, type AuthResult, type KeyInfo, type KeyRegistry, type Plan } from '../key-store';
import { statementCache } from './statements';

/** last_used_at is written at most this often per key, to keep writes off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

interface KeyRow {
  hash: string;
  prefix: string;
  active: number;
  created_at: string;
  last_used_at: string | null;
  account: string;
  plan: Plan;
}

const SELECT = `SELECT k.hash, k.prefix, k.active, k.created_at, k.last_used_at, a.name AS account, a.plan
                FROM api_keys k JOIN accounts a ON a.id = k.account_id`;

export class SqliteKeys implements KeyRegistry {
  /** Statements by their SQL, each prepared once. */
  private readonly sql: (text: string) => Database.Statement;
  // The statements every request runs, typed.
  private readonly byHash: Database.Statement<[string], KeyRow>;
  private readonly touch: Database.Statement<[string, string]>;

  constructor(private readonly db: Database.Database) {
    this.sql = statementCache(db);
    // `+?`, not `?`: the same plan (the hash's unique index, then the account by its id), but SQLite 3.54 prepared
    // this join again whenever a new value was bound to a plain `?` (its statement marked expired by the binding),
    // most of the key check's cost: 7.7 µs a lookup against 3.1 µs. users.ts's session lookup is written so too.
    this.byHash = db.prepare(`${SELECT} WHERE k.hash = +?`);
    this.touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE hash = ?');
  }

  async authenticate(key: string): Promise<AuthResult> {
    if (!looksLikeApiKey(key)) return { status: 'unknown' };
    const hash = hashApiKey(key);
    const row = this.byHash.get(hash);
    if (!row || !sameHash(row.hash, hash)) return { status: 'unknown' };
    if (!row.active) return { status: 'inactive' };
    const now = new Date();
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      try {
        this.touch.run(now.toISOString(), hash);
      } catch {
        // last_used_at is information, not a reason to refuse a valid key: a busy store skips it this time.
      }
    }
    return { status: 'ok', account: row.account, plan: row.plan };
  }

  async createKey(account: string, plan?: Plan): Promise<{ key: string; info: KeyInfo }> {
    const key = generateApiKey();
    const now = new Date().toISOString();
    const create = this.db.transaction(() => {
      this.sql('INSERT INTO accounts (name, plan, created_at) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING').run(
        account,
        plan ?? 'free',
        now,
      );
      if (plan) this.sql('UPDATE accounts SET plan = ? WHERE name = ?').run(plan, account);
      const { id } = this.sql('SELECT id FROM accounts WHERE name = ?').get(account) as { id: number };
      this.sql('INSERT INTO api_keys (hash, prefix, account_id, active, created_at) VALUES (?, ?, ?, 1, ?)').run(
        hashApiKey(key),
        keyPrefix(key),
        id,
        now,
      );
    });
    create();
    return { key, info: toInfo(this.byHash.get(hashApiKey(key))!) };
  }

  async listKeys(account?: string): Promise<KeyInfo[]> {
    const rows = account
      ? (this.sql(`${SELECT} WHERE a.name = ? ORDER BY k.created_at, k.prefix`).all(account) as KeyRow[])
      : (this.sql(`${SELECT} ORDER BY k.created_at, k.prefix`).all() as KeyRow[]);
    return rows.map(toInfo);
  }

  async revokeKey(keyOrPrefix: string): Promise<KeyInfo | undefined> {
    let rows: KeyRow[];
    if (looksLikeApiKey(keyOrPrefix)) {
      const row = this.byHash.get(hashApiKey(keyOrPrefix));
      rows = row ? [row] : [];
    } else {
      rows = this.sql(`${SELECT} WHERE k.prefix = ?`).all(keyOrPrefix) as KeyRow[];
    }
    if (rows.length > 1) {
      throw new KeyStoreError(`${rows.length} keys start with ${keyOrPrefix}; give the whole key to revoke one of them`);
    }
    const row = rows[0];
    if (!row) return undefined;
    this.sql('UPDATE api_keys SET active = 0 WHERE hash = ?').run(row.hash);
    return { ...toInfo(row), active: false };
  }

  async setPlan(account: string, plan: Plan): Promise<boolean> {
    return this.sql('UPDATE accounts SET plan = ? WHERE name = ?').run(plan, account).changes > 0;
  }

  async countKeys(): Promise<number> {
    return (this.sql('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n;
  }
}

function toInfo(row: KeyRow): KeyInfo {
  return {
    prefix: row.prefix,
    account: row.account,
    plan: row.plan,
    active: row.active === 1,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}
