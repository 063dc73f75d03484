// The store guard's reading of store errors, and its tries, on a real SQLite file whose writes the kernel refuses
// (RLIMIT_FSIZE lowered for this process while the write runs: EFBIG, which SQLite reports as a disk I/O error).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { SqliteKeyStore } from '../../../server/keys/sqlite/store';
import { guardStore, transience } from '../../../server/keys/store-guard';
import { tempDir } from '../../helpers/service';

describe('store guard', function () {
  it('reads SQLite busy, locked and disk failures (I/O error, full, read-only, cannot open) as a call to try again', function () {
    for (const code of [
      'SQLITE_BUSY',
      'SQLITE_LOCKED',
      'SQLITE_BUSY_SNAPSHOT',
      'SQLITE_IOERR',
      'SQLITE_IOERR_WRITE',
      'SQLITE_FULL',
      'SQLITE_READONLY',
      'SQLITE_READONLY_DBMOVED',
      'SQLITE_CANTOPEN',
    ])
      expect(transience(Object.assign(new Error('x'), { code })), code).to.equal('retry');
    for (const code of ['SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_MISUSE', 'SQLITE_ERROR', 'SQLITE_IOERRX'])
      expect(transience(Object.assign(new Error('x'), { code })), code).to.equal(undefined);
    expect(transience(new Error('Connection is closed.'))).to.equal('unavailable');
  });

  it('a disk that refuses writes: store_unavailable (not the I/O error), not ready, and both well again once it takes writes', async function () {
    const file = path.join(tempDir('guard'), 'db.sqlite');
    const raw = new SqliteKeyStore(file);
    const store = guardStore(raw);
    const period = '2026-11';
    const limit = (fsize: string) => execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${fsize}`]);
    try {
      expect(await store.check()).to.equal(true);
      limit('1:unlimited');
      let failed: unknown;
      let ready: boolean;
      try {
        failed = await store.reserve('a', period, 10, 60_000, new Date()).catch((err: unknown) => err);
        ready = await store.check();
      } finally {
        limit('unlimited:unlimited');
      }
      expect(failed).to.be.instanceOf(DomainError);
      expect((failed as DomainError).code).to.equal('store_unavailable');
      expect(ready, 'ready while writes fail').to.equal(false);
      expect(await store.check()).to.equal(true);
      const { ids } = await store.reserve('a', period, 10, 60_000, new Date());
      await store.commit('a', period, ids![0]!);
      expect(await store.usage('a', period)).to.equal(1);
    } finally {
      await store.close();
    }
  });
});
