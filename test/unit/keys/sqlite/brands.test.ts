// The SQLite store's brands (sqlite/brands.ts) on a real file: one brand per account, replaced when put again,
// removed when put as undefined, never another account's.
import path from 'node:path';
import { expect } from 'chai';
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
});
