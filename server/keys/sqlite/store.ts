// The embedded store: one SQLite file (better-sqlite3, WAL mode so that the CLI and the service can use it at once),
// its tables created when missing (schema.ts), and its health. Each concern has its own module on this database:
// keys.ts (accounts and hashed keys), usage.ts (monthly usage and reservations), users.ts (people who sign in),
// attempts.ts (sign-in, sign-up and wrong-key limits). Must not hold document content.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ComposedStore } from '../composed-store';
import type { StoreHealth } from '../key-store';
import { SqliteAttempts } from './attempts';
import { SqliteKeys } from './keys';
import { migrate, SCHEMA } from './schema';
import { SqliteUsage } from './usage';
import { SqliteUsers } from './users';
import { SqliteBrands } from './brands';
import { CachedBrands } from '../cached-brands';

export class SqliteKeyStore extends ComposedStore {
  constructor(file: string) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a crash of the process loses nothing, a power
    // failure may lose the last commits (a few counts of usage), never the database. Every request commits twice.
    db.pragma('synchronous = NORMAL');
    // SQLite waits for another process's write lock by blocking this thread, hence the whole service: at most 10 ms
    // per try here; store-guard.ts tries again asynchronously, then raises store_unavailable.
    db.pragma('busy_timeout = 10');
    db.pragma('foreign_keys = ON');
    migrate(db);
    db.exec(SCHEMA);
    super({
      keys: new SqliteKeys(db),
      usage: new SqliteUsage(db),
      users: new SqliteUsers(db),
      attempts: new SqliteAttempts(db),
      brands: new CachedBrands(new SqliteBrands(db)),
      health: health(db, file),
    });
  }
}

function health(db: Database.Database, file: string): StoreHealth {
  // The inode of the file opened: a file deleted or replaced under the service is not ready.
  const inode = file === ':memory:' ? undefined : fs.statSync(file).ino;
  const ping = db.prepare('SELECT 1');
  // Reading is not enough: a disk full, read-only or failing under the file still answers reads from the pages it
  // holds, while every write fails (usage could not be counted). Readiness writes one row; a write lock held by
  // another process (busy) is a store that works.
  const write = db.prepare('INSERT INTO health_probe (id, at) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET at = excluded.at');
  return {
    async check() {
      try {
        if (inode !== undefined && fs.statSync(file).ino !== inode) return false;
        ping.get();
      } catch {
        return false;
      }
      try {
        write.run(Date.now());
        return true;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
      }
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
