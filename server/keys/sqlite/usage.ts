// The SQLite side of monthly usage and its reservations. A reservation runs in an IMMEDIATE transaction: the write
// lock is taken before the count is read, so instances sharing the file cannot both pass the limit; the count it read
// is returned with the reservation (the quota's remaining comes from it). A batch reserves all its documents in the
// same one transaction, or none. A commit counts its document's id once (the commits table), as Redis does. Every statement is prepared once (every request runs them). Shares the store's database (sqlite/store.ts).
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Reservation, UsageStore } from '../key-store';

export class SqliteUsage implements UsageStore {
  private readonly used: Database.Statement<[string, string], { count: number }>;
  private readonly deleteReservation: Database.Statement<[string]>;
  private readonly add: Database.Statement<[string, string, number]>;
  private readonly reservation: Database.Transaction<
    (account: string, period: string, t: number, ttlMs: number, limit: number, ids: string[]) => Reservation
  >;
  private readonly count: Database.Transaction<(account: string, period: string, id: string) => void>;

  constructor(db: Database.Database) {
    const expire = db.prepare('DELETE FROM reservations WHERE account = ? AND period = ? AND expires_at <= ?');
    const used = db.prepare<[string, string], { count: number }>('SELECT count FROM usage WHERE account = ? AND period = ?');
    const pending = db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM reservations WHERE account = ? AND period = ?');
    const insertReservation = db.prepare('INSERT INTO reservations (id, account, period, expires_at) VALUES (?, ?, ?, ?)');
    const deleteReservation = db.prepare<[string]>('DELETE FROM reservations WHERE id = ?');
    const countOne = db.prepare(
      'INSERT INTO usage (account, period, count) VALUES (?, ?, 1) ON CONFLICT(account, period) DO UPDATE SET count = count + 1',
    );
    const counted = db.prepare('INSERT OR IGNORE INTO commits (id, account, period) VALUES (?, ?, ?)');
    const forget = db.prepare('DELETE FROM commits WHERE account = ? AND period < ?');
    this.used = used;
    this.deleteReservation = deleteReservation;
    this.add = db.prepare(
      'INSERT INTO usage (account, period, count) VALUES (?, ?, ?) ON CONFLICT(account, period) DO UPDATE SET count = count + excluded.count',
    );
    this.reservation = db.transaction((account: string, period: string, t: number, ttlMs: number, limit: number, ids: string[]) => {
      expire.run(account, period, t);
      const seen = (used.get(account, period)?.count ?? 0) + pending.get(account, period)!.n;
      if (seen + ids.length > limit) return { ids: undefined, seen };
      for (const id of ids) insertReservation.run(id, account, period, t + ttlMs);
      return { ids, seen };
    });
    this.count = db.transaction((account: string, period: string, id: string) => {
      deleteReservation.run(id); // none for an unlimited plan's document
      // A commit repeated with the same id counts once; the ids of the account's earlier periods are no longer needed.
      if (counted.run(id, account, period).changes === 0) return;
      countOne.run(account, period);
      forget.run(account, period);
    });
  }

  async reserve(account: string, period: string, limit: number, ttlMs: number, now: Date, count = 1, ids?: string[]): Promise<Reservation> {
    const made = ids ?? Array.from({ length: count }, () => crypto.randomUUID());
    return this.reservation.immediate(account, period, now.getTime(), ttlMs, limit, made);
  }

  async commit(account: string, period: string, id: string): Promise<void> {
    // One transaction: it counts and drops the reservation, or fails having done neither (never an unknown outcome).
    this.count.immediate(account, period, id);
  }

  async release(_account: string, _period: string, reservation: string): Promise<void> {
    this.deleteReservation.run(reservation);
  }

  async usage(account: string, period: string): Promise<number> {
    return this.used.get(account, period)?.count ?? 0;
  }

  async addUsage(account: string, period: string, count: number): Promise<void> {
    this.add.run(account, period, count);
  }
}
