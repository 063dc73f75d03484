// Limits of different windows share the attempts store (sign-ins count a minute, sign-ups an hour): on a real SQLite
// file one limit's purge must not drop another's attempts, and a file of the version before (attempts without their own
// expiry) keeps its counts when opened.
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SqliteKeyStore } from '../../../../server/keys/sqlite/store';
import { tempDir } from '../../../helpers/service';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('attempt windows on SQLite', function () {
  it("a one-minute limit's purge keeps an hour-long limit's attempts, which then expire after their hour", async function () {
    const store = new SqliteKeyStore(path.join(tempDir('attempts'), 'keys.db'));
    try {
      const t0 = Date.UTC(2026, 0, 1);
      const hourly = [{ key: 'sign-up:192.0.2.1', max: 2 }];
      expect(await store.recordAttempt(hourly, HOUR, t0)).to.equal(true);
      expect(await store.recordAttempt(hourly, HOUR, t0 + 1)).to.equal(true);
      expect(await store.recordAttempt([{ key: 'ip:192.0.2.1', max: 30 }], MINUTE, t0 + 5 * MINUTE)).to.equal(true);
      expect(await store.recordAttempt(hourly, HOUR, t0 + 10 * MINUTE), 'ten minutes on: still two').to.equal(false);
      expect(await store.recordAttempt(hourly, HOUR, t0 + HOUR + 2), 'an hour on: free again').to.equal(true);
    } finally {
      await store.close();
    }
  });

  it('a file of the version before keeps its attempts (one-minute windows) and gains their expiry', async function () {
    const file = path.join(tempDir('attempts-old'), 'keys.db');
    const now = Date.now();
    const old = new Database(file);
    old.exec('CREATE TABLE attempts (key TEXT NOT NULL, at INTEGER NOT NULL); CREATE INDEX attempts_key ON attempts(key, at);');
    const insert = old.prepare('INSERT INTO attempts (key, at) VALUES (?, ?)');
    for (let i = 0; i < 10; i++) insert.run('email:ada@example.com', now - 30_000);
    old.close();
    const store = new SqliteKeyStore(file);
    try {
      const limit = [{ key: 'email:ada@example.com', max: 10 }];
      expect(await store.recordAttempt(limit, MINUTE, now), 'the ten attempts still count').to.equal(false);
      expect(await store.recordAttempt(limit, MINUTE, now + 31_000), 'and expire after their minute').to.equal(true);
    } finally {
      await store.close();
    }
    // Opened again (another process, a restart): nothing to do, nothing lost.
    const again = new SqliteKeyStore(file);
    await again.close();
  });
});
