// The SQLite store itself (sqlite/store.ts): a file opened in WAL mode (folders made as needed) and opened again with
// its data, or held in memory; its health: ready while its file is the one opened and takes writes, not once the file
// is replaced or the store closed.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SqliteKeyStore } from '../../../../server/keys/sqlite/store';
import { tempDir } from '../../../helpers/service';

describe('SQLite store: file and health', function () {
  it('makes missing folders, opens in WAL mode, and keeps its data when opened again', async function () {
    const file = path.join(tempDir('sqlite-store'), 'a', 'b', 'keys.db');
    const store = new SqliteKeyStore(file);
    const { key } = await store.createKey('ada@example.com');
    expect(await store.check()).to.equal(true);
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
    db.close();
    const again = new SqliteKeyStore(file);
    try {
      expect(await again.authenticate(key)).to.include({ status: 'ok' });
    } finally {
      await again.close();
    }
  });

  it('is not ready once its file is replaced under it', async function () {
    const file = path.join(tempDir('sqlite-replaced'), 'keys.db');
    const store = new SqliteKeyStore(file);
    try {
      expect(await store.check()).to.equal(true);
      fs.rmSync(file);
      fs.writeFileSync(file, '');
      expect(await store.check()).to.equal(false);
      fs.rmSync(file);
      expect(await store.check(), 'deleted').to.equal(false);
    } finally {
      await store.close();
    }
  });

  it('is not ready once closed, and closes twice without error', async function () {
    const store = new SqliteKeyStore(path.join(tempDir('sqlite-closed'), 'keys.db'));
    await store.close();
    expect(await store.check()).to.equal(false);
    await store.close();
  });

  it('holds a store in memory, with no file', async function () {
    const store = new SqliteKeyStore(':memory:');
    try {
      await store.createKey('a');
      expect(await store.countKeys()).to.equal(1);
      expect(await store.check()).to.equal(true);
    } finally {
      await store.close();
    }
  });
});
