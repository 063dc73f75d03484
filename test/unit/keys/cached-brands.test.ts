// The brands kept in memory (keys/cached-brands.ts) over a real SQLite file: read from the store once per second per
// account, a write seen at once by this instance and within the second through another (a second store on the same
// file), a read that overlaps a write not kept, and the text held bounded (the entries read longest ago dropped first).
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { CachedBrands } from '../../../server/keys/cached-brands';
import type { BrandStore } from '../../../server/keys/key-store';
import { SqliteBrands } from '../../../server/keys/sqlite/brands';
import { SqliteKeyStore } from '../../../server/keys/sqlite/store';
import { tempDir } from '../../helpers/service';

/** Two handles on one SQLite file (as two instances would have), and a clock the test moves. */
function setup(maxChars = 1000) {
  const file = path.join(tempDir('cached-brands'), 'keys.db');
  new SqliteKeyStore(file).close();
  const dbs = [new Database(file), new Database(file)];
  const clock = { now: 0 };
  const opts = { ttlMs: 1000, maxChars, clock: () => clock.now };
  const [mine, other] = dbs.map((db) => new CachedBrands(new SqliteBrands(db), opts)) as [CachedBrands, CachedBrands];
  return { mine, other, clock, close: () => dbs.forEach((db) => db.close()) };
}

describe('brands kept in memory', function () {
  it('reads the store once a second per account, whatever the number of documents', async function () {
    const { mine, other, clock, close } = setup();
    try {
      await other.putBrand('a', '{"footer":"A"}');
      for (let i = 0; i < 50; i++) {
        clock.now = i * 10; // 50 documents within half a second
        expect(await mine.getBrand('a')).to.equal('{"footer":"A"}');
        expect(await mine.getBrand('none')).to.equal(undefined);
      }
      expect(mine.stats.reads, 'one read of each account').to.equal(2);
      clock.now = 1000;
      await mine.getBrand('a');
      expect(mine.stats.reads, 'read again after a second').to.equal(3);
    } finally {
      close();
    }
  });

  it("this instance's write is seen at once; another instance's within the second", async function () {
    const { mine, other, clock, close } = setup();
    try {
      await mine.putBrand('a', '{"footer":"old"}');
      expect(await mine.getBrand('a')).to.equal('{"footer":"old"}');
      await mine.putBrand('a', '{"footer":"mine"}');
      expect(await mine.getBrand('a'), 'its own write, at once').to.equal('{"footer":"mine"}');
      await other.putBrand('a', '{"footer":"other"}');
      clock.now = 999;
      expect(await mine.getBrand('a'), 'within the second: the text it read').to.equal('{"footer":"mine"}');
      clock.now = 1000;
      expect(await mine.getBrand('a'), 'after it').to.equal('{"footer":"other"}');
      await mine.putBrand('a', undefined);
      expect(await mine.getBrand('a'), 'removed').to.equal(undefined);
    } finally {
      close();
    }
  });

  it('a read that a write overtakes is answered but not kept', async function () {
    const file = path.join(tempDir('cached-brands-race'), 'keys.db');
    new SqliteKeyStore(file).close();
    const db = new Database(file);
    try {
      const store = new SqliteBrands(db);
      await store.putBrand('a', '{"footer":"before"}');
      // The store's answer is held back until the write has begun, as a slow Redis read would be.
      let letGo!: () => void;
      const held = new Promise<void>((resolve) => (letGo = resolve));
      const slow: BrandStore = {
        getBrand: async (account) => {
          const text = await store.getBrand(account);
          await held;
          return text;
        },
        putBrand: (account, brand) => store.putBrand(account, brand),
      };
      const cache = new CachedBrands(slow, { ttlMs: 1000, maxChars: 1000, clock: () => 0 });
      const reading = cache.getBrand('a');
      await cache.putBrand('a', '{"footer":"after"}');
      letGo();
      expect(await reading).to.equal('{"footer":"before"}');
      expect(await cache.getBrand('a'), 'the write, not the overtaken read').to.equal('{"footer":"after"}');
    } finally {
      db.close();
    }
  });

  it('holds at most its bound of text, dropping the entries read longest ago; a brand over it is not kept', async function () {
    const { mine, other, close } = setup(100);
    try {
      for (const account of ['a', 'b', 'c']) await other.putBrand(account, `{"footer":"${account.repeat(30)}"}`); // 43 each
      await other.putBrand('big', `{"footer":"${'x'.repeat(200)}"}`);
      for (const account of ['a', 'b', 'c', 'big']) await mine.getBrand(account);
      expect(mine.stats.reads).to.equal(4);
      await mine.getBrand('c');
      await mine.getBrand('b');
      expect(mine.stats.reads, 'b and c kept').to.equal(4);
      await mine.getBrand('a');
      expect(mine.stats.reads, 'a dropped when c came').to.equal(5);
      await mine.getBrand('big');
      expect(mine.stats.reads, 'big never kept').to.equal(6);
    } finally {
      close();
    }
  });
});
