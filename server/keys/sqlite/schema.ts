// The SQLite store's tables, created when missing: accounts, their hashed keys, usage, reservations and the ids of
// the documents counted (the quota),
// the people who sign in (users, sessions, one-time messages, sign-in, sign-up and wrong-key attempts), each account's
// brand, and the
// one row readiness writes to know that the disk takes writes (store.ts).
import type Database from 'better-sqlite3';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL CHECK (plan IN ('free', 'paid')),
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  hash TEXT PRIMARY KEY,
  prefix TEXT NOT NULL,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  last_used_at TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_prefix ON api_keys(prefix);
CREATE TABLE IF NOT EXISTS usage (
  account TEXT NOT NULL,
  period TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account, period)
);
CREATE TABLE IF NOT EXISTS reservations (
  id TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  period TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS reservations_account ON reservations(account, period);
CREATE TABLE IF NOT EXISTS commits (
  id TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  period TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS commits_period ON commits(period);
CREATE TABLE IF NOT EXISTS users (
  email TEXT PRIMARY KEY,
  password_hash TEXT NOT NULL,
  account TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
  key TEXT NOT NULL,
  at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS attempts_key ON attempts(key, at);
CREATE INDEX IF NOT EXISTS attempts_expires ON attempts(expires_at);
CREATE TABLE IF NOT EXISTS sessions (
  token_hash TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS health_probe (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS brands (
  account TEXT PRIMARY KEY,
  brand TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  stamp TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS flash (
  id TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
`;

/** Adds `column` (its SQL after the name) to `table` when the table is there without it. Several processes may open
 * the file at once: a column another one just added is fine. True when this call added it. */
function addColumn(db: Database.Database, table: string, column: string, definition: string): boolean {
  const columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[];
  if (columns.length === 0 || columns.some((c) => c.name === column)) return false;
  try {
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    return true;
  } catch (err) {
    if (!/duplicate column/i.test((err as Error).message)) throw err;
    return false;
  }
}

/**
 * Brings a file of an earlier version up to SCHEMA; run before it. Attempts gained their own expiry when limits of
 * different windows came to share the table (sign-ins: a minute, sign-ups: an hour): the rows already there were
 * all of one-minute windows. Brands gained the stamp of their last write (brands.ts): one written before has '' until
 * its next write.
 */
export function migrate(db: Database.Database): void {
  if (addColumn(db, 'attempts', 'expires_at', 'INTEGER NOT NULL DEFAULT 0'))
    db.exec('UPDATE attempts SET expires_at = at + 60000 WHERE expires_at = 0');
  addColumn(db, 'brands', 'stamp', "TEXT NOT NULL DEFAULT ''");
}
