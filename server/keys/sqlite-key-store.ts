// The embedded store: one SQLite file (better-sqlite3, WAL mode so that the CLI and the service can use it at once).
// Holds accounts, hashed keys (never a key itself) and monthly usage here, and the people who sign in through
// sqlite-people.ts (same file; tables in sqlite-schema.ts). A reservation runs in an IMMEDIATE transaction: the write
// lock is taken before the count is read, so instances sharing the file cannot both pass the limit. Must not hold
// document content.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, sameHash } from './api-key';
import { SCHEMA } from './sqlite-schema';
import { SqlitePeople } from './sqlite-people';
import { statementCache } from './sqlite-statements';
import { PeopleDelegate } from './people-delegate';
import { KeyStoreError, type AuthResult, type KeyInfo, type KeyStore, type Plan } from './key-store';

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

export class SqliteKeyStore extends PeopleDelegate implements KeyStore {
  private readonly db: Database.Database;
  /** Statements by their SQL, each prepared once. */
  private readonly sql: (text: string) => Database.Statement;
  /** Users, sessions, one-time messages and attempts. */
  protected readonly people: SqlitePeople;
  /** The inode of the file opened: a file deleted or replaced under the service is not ready. */
  private readonly inode: number | undefined;
  private readonly file: string;
  private readonly byHash: Database.Statement<[string], KeyRow>;
  private readonly touch: Database.Statement<[string, string]>;

  constructor(file: string) {
    super();
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.file = file;
    this.inode = file === ':memory:' ? undefined : fs.statSync(file).ino;
    this.db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a crash of the process loses nothing, a power
    // failure may lose the last commits (a few counts of usage), never the database. Every request commits twice.
    this.db.pragma('synchronous = NORMAL');
    // SQLite waits for another process's write lock by blocking this thread, hence the whole service: at most 10 ms
    // per try here; store-guard.ts tries again asynchronously, then raises store_unavailable.
    this.db.pragma('busy_timeout = 10');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
    this.sql = statementCache(this.db);
    this.people = new SqlitePeople(this.db);
    const select = `SELECT k.hash, k.prefix, k.active, k.created_at, k.last_used_at, a.name AS account, a.plan
                    FROM api_keys k JOIN accounts a ON a.id = k.account_id`;
    this.byHash = this.db.prepare(`${select} WHERE k.hash = ?`);
    this.touch = this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE hash = ?');
    this.selectAll = this.db.prepare(`${select} ORDER BY k.created_at, k.prefix`);
    this.selectByAccount = this.db.prepare(`${select} WHERE a.name = ? ORDER BY k.created_at, k.prefix`);
    this.selectByPrefix = this.db.prepare(`${select} WHERE k.prefix = ?`);
    // The quota's statements and transactions, prepared once: every request runs them.
    const expire = this.db.prepare('DELETE FROM reservations WHERE account = ? AND period = ? AND expires_at <= ?');
    const used = this.db.prepare<[string, string], { count: number }>('SELECT count FROM usage WHERE account = ? AND period = ?');
    const pending = this.db.prepare<[string, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM reservations WHERE account = ? AND period = ?',
    );
    const insertReservation = this.db.prepare('INSERT INTO reservations (id, account, period, expires_at) VALUES (?, ?, ?, ?)');
    const deleteReservation = this.db.prepare<[string]>('DELETE FROM reservations WHERE id = ?');
    const count = this.db.prepare(
      'INSERT INTO usage (account, period, count) VALUES (?, ?, 1) ON CONFLICT(account, period) DO UPDATE SET count = count + 1',
    );
    this.quota = {
      used,
      deleteReservation,
      reserve: this.db.transaction(
        (id: string, account: string, period: string, t: number, ttlMs: number, limit: number): string | undefined => {
          expire.run(account, period, t);
          const n = (used.get(account, period)?.count ?? 0) + pending.get(account, period)!.n;
          if (n >= limit) return undefined;
          insertReservation.run(id, account, period, t + ttlMs);
          return id;
        },
      ),
      commit: this.db.transaction((account: string, period: string, reservation: string | undefined) => {
        if (reservation) deleteReservation.run(reservation);
        count.run(account, period);
      }),
    };
  }

  private readonly quota: {
    used: Database.Statement<[string, string], { count: number }>;
    deleteReservation: Database.Statement<[string]>;
    reserve: Database.Transaction<
      (id: string, account: string, period: string, t: number, ttlMs: number, limit: number) => string | undefined
    >;
    commit: Database.Transaction<(account: string, period: string, reservation: string | undefined) => void>;
  };

  private readonly selectAll: Database.Statement<[], KeyRow>;
  private readonly selectByAccount: Database.Statement<[string], KeyRow>;
  private readonly selectByPrefix: Database.Statement<[string], KeyRow>;

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
    return (account ? this.selectByAccount.all(account) : this.selectAll.all()).map(toInfo);
  }

  async revokeKey(keyOrPrefix: string): Promise<KeyInfo | undefined> {
    let rows: KeyRow[];
    if (looksLikeApiKey(keyOrPrefix)) {
      const row = this.byHash.get(hashApiKey(keyOrPrefix));
      rows = row ? [row] : [];
    } else {
      rows = this.selectByPrefix.all(keyOrPrefix);
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

  async reserve(account: string, period: string, limit: number, ttlMs: number, now: Date): Promise<string | undefined> {
    const id = crypto.randomUUID();
    return this.quota.reserve.immediate(id, account, period, now.getTime(), ttlMs, limit);
  }

  async commit(account: string, period: string, reservation: string | undefined): Promise<void> {
    this.quota.commit.immediate(account, period, reservation);
  }

  async release(_account: string, _period: string, reservation: string): Promise<void> {
    this.quota.deleteReservation.run(reservation);
  }

  async usage(account: string, period: string): Promise<number> {
    return this.quota.used.get(account, period)?.count ?? 0;
  }

  async addUsage(account: string, period: string, count: number): Promise<void> {
    this.sql(
      'INSERT INTO usage (account, period, count) VALUES (?, ?, ?) ON CONFLICT(account, period) DO UPDATE SET count = count + excluded.count',
    ).run(account, period, count);
  }

  async check(): Promise<boolean> {
    try {
      if (this.inode !== undefined && fs.statSync(this.file).ino !== this.inode) return false;
      this.sql('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  async countKeys(): Promise<number> {
    return (this.sql('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
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
