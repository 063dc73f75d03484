// The SQLite store's brands (sqlite/brands.ts) on a real file: one brand per account, replaced when put again,
// removed when put as undefined, never another account's; each write with a new stamp; a file of an earlier version
// (brands without stamps, attempts without their expiry) brought up to date on opening, its brands kept.
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SqliteBrands } from '../../../../server/keys/sqlite/brands';
import { SqliteKeyStore } from '../../../../server/keys/sqlite/store';
import { tempDir } from '../../../helpers/service';

describe('SQLite store: brands', function () {
  it('keeps one brand per account, replaced, removed, and never shown to another account', async function () {
    const store = new SqliteKeyStore(path.join(tempDir('sqlite-brands'), 'keys.db'));
    try {
      expect(await store.getBrand('a')).to.equal(undefined);
      await store.putBrand('a', '{"color":"#123456"}');
      await store.putBrand('b', '{"color":"#abcdef"}');
      await store.putBrand('a', '{"color":"#654321"}');
      expect(await store.getBrand('a')).to.equal('{"color":"#654321"}');
      expect(await store.getBrand('b')).to.equal('{"color":"#abcdef"}');
      expect(await store.getBrand('A'), 'names are exact').to.equal(undefined);
      await store.putBrand('a', undefined);
      expect(await store.getBrand('a')).to.equal(undefined);
      expect(await store.getBrand('b')).to.equal('{"color":"#abcdef"}');
      await store.putBrand('nobody', undefined);
    } finally {
      await store.close();
    }
  });

  it('writes each brand with a new stamp, the same text included', async function () {
    const file = path.join(tempDir('sqlite-brand-stamps'), 'keys.db');
    new SqliteKeyStore(file).close();
    const db = new Database(file);
    try {
      const brands = new SqliteBrands(db);
      expect(await brands.brandStamp('a')).to.equal(undefined);
      await brands.putBrand('a', '{"footer":"x"}');
      const first = await brands.stampedBrand('a');
      await brands.putBrand('a', '{"footer":"x"}');
      const second = await brands.stampedBrand('a');
      expect(first?.stamp).to.match(/^[0-9a-f-]{36}$/);
      expect(second).to.deep.include({ text: '{"footer":"x"}' });
      expect(second?.stamp).to.not.equal(first?.stamp);
      expect(await brands.brandStamp('a')).to.equal(second?.stamp);
    } finally {
      db.close();
    }
  });

  it('opens a file of an earlier version: its brands kept (stamped at their next write), its attempts given an expiry', async function () {
    const file = path.join(tempDir('sqlite-brands-earlier'), 'keys.db');
    const old = new Database(file);
    old.exec(`
      CREATE TABLE brands (account TEXT PRIMARY KEY, brand TEXT NOT NULL, updated_at TEXT NOT NULL);
      CREATE TABLE attempts (key TEXT NOT NULL, at INTEGER NOT NULL);
      INSERT INTO brands VALUES ('a', '{"footer":"from before"}', '2026-01-01T00:00:00.000Z');
      INSERT INTO attempts VALUES ('ip:192.0.2.1', 1000);
    `);
    old.close();
    const store = new SqliteKeyStore(file);
    try {
      expect(await store.getBrand('a')).to.equal('{"footer":"from before"}');
      await store.putBrand('a', '{"footer":"now"}');
      expect(await store.getBrand('a')).to.equal('{"footer":"now"}');
    } finally {
      await store.close();
    }
    const db = new Database(file);
    try {
      expect(db.prepare("SELECT stamp FROM brands WHERE account = 'a'").get())
        .to.have.property('stamp')
        .that.matches(/^[0-9a-f-]{36}$/);
      expect(db.prepare('SELECT expires_at FROM attempts').get()).to.deep.equal({ expires_at: 61000 });
    } finally {
      db.close();
    }
  });
});
