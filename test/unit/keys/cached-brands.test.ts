// The brands kept in memory (keys/cached-brands.ts) over a real SQLite file: a brand read whole once while its stamp
// stays (a stamp per document), a change made through another instance (a second store on the same file) seen at
// once, a read that overlaps a write never kept with another text's stamp, a minute at most, a brand written before
// stamps never kept, and the text held bounded (the entries read longest ago dropped first).
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { CachedBrands } from '../../../server/keys/cached-brands';
import type { BrandBackend } from '../../../server/keys/key-store';
import { SqliteBrands } from '../../../server/keys/sqlite/brands';
import { SqliteKeyStore } from '../../../server/keys/sqlite/store';
import { tempDir } from '../../helpers/service';

/** Two handles on one SQLite file (as two instances would have), and a clock the test moves. */
function setup(maxChars = 1000) {
  const file = path.join(tempDir('cached-brands'), 'keys.db');
  new SqliteKeyStore(file).close();
  const dbs = [new Database(file), new Database(file)];
  const clock = { now: 0 };
  const opts = { maxAgeMs: 60_000, maxChars, clock: () => clock.now };
  const [mine, other] = dbs.map((db) => new CachedBrands(new SqliteBrands(db), opts)) as [CachedBrands, CachedBrands];
  return { mine, other, clock, db: dbs[0]!, close: () => dbs.forEach((db) => db.close()) };
}

describe('brands kept in memory', function () {
  it('reads a brand whole once while its stamp stays, whatever the number of documents; an account without one never', async function () {
    const { mine, other, clock, close } = setup();
    try {
      await other.putBrand('a', '{"footer":"A"}');
      for (let i = 0; i < 50; i++) {
        clock.now = i * 1000; // 50 documents over 50 seconds
        expect(await mine.getBrand('a')).to.equal('{"footer":"A"}');
        expect(await mine.getBrand('none')).to.equal(undefined);
      }
      expect(mine.stats.reads, 'one whole read').to.equal(1);
      expect(mine.stats.stamps, 'a stamp per document').to.equal(100);
      clock.now = 60_000;
      await mine.getBrand('a');
      expect(mine.stats.reads, 'read again after a minute').to.equal(2);
    } finally {
      close();
    }
  });

  it('a change through this instance or another is seen at once by both, a removal too', async function () {
    const { mine, other, close } = setup();
    try {
      await mine.putBrand('a', '{"footer":"old"}');
      expect(await mine.getBrand('a')).to.equal('{"footer":"old"}');
      expect(await other.getBrand('a')).to.equal('{"footer":"old"}');
      await mine.putBrand('a', '{"footer":"mine"}');
      expect(await mine.getBrand('a'), 'its own write').to.equal('{"footer":"mine"}');
      expect(await other.getBrand('a'), "the other's view of it").to.equal('{"footer":"mine"}');
      // The same text written again is a new write: read again, and the same.
      const reads = mine.stats.reads;
      await other.putBrand('a', '{"footer":"mine"}');
      expect(await mine.getBrand('a')).to.equal('{"footer":"mine"}');
      expect(mine.stats.reads).to.equal(reads + 1);
      await other.putBrand('a', '{"footer":"other"}');
      expect(await mine.getBrand('a'), "the other's write").to.equal('{"footer":"other"}');
      await other.putBrand('a', undefined);
      expect(await mine.getBrand('a'), 'removed').to.equal(undefined);
      await other.putBrand('a', '{"footer":"again"}');
      expect(await mine.getBrand('a'), 'set again').to.equal('{"footer":"again"}');
    } finally {
      close();
    }
  });

  it('a read that a write overtakes keeps the text it read with that text’s stamp: the next document sees the write', async function () {
    const file = path.join(tempDir('cached-brands-race'), 'keys.db');
    new SqliteKeyStore(file).close();
    const db = new Database(file);
    try {
      const store = new SqliteBrands(db);
      await store.putBrand('a', '{"footer":"before"}');
      // The whole read's answer is held back until another instance's write is done, as a slow Redis read would be.
      let letGo!: () => void;
      const held = new Promise<void>((resolve) => (letGo = resolve));
      let readDone!: () => void;
      const read = new Promise<void>((resolve) => (readDone = resolve));
      const slow: BrandBackend = {
        brandStamp: (account) => store.brandStamp(account),
        stampedBrand: async (account) => {
          const answer = await store.stampedBrand(account);
          readDone();
          await held;
          return answer;
        },
        putBrand: (account, brand) => store.putBrand(account, brand),
      };
      const cache = new CachedBrands(slow, { maxAgeMs: 60_000, maxChars: 1000, clock: () => 0 });
      const reading = cache.getBrand('a');
      await read;
      await store.putBrand('a', '{"footer":"after"}');
      letGo();
      expect(await reading).to.equal('{"footer":"before"}');
      expect(await cache.getBrand('a'), 'the write, not the overtaken read').to.equal('{"footer":"after"}');
    } finally {
      db.close();
    }
  });

  it('never keeps a brand written before stamps were kept (its stamp is empty until its next write)', async function () {
    const { mine, db, close } = setup();
    try {
      db.prepare("INSERT INTO brands (account, brand, updated_at) VALUES ('a', '{\"footer\":\"old\"}', 'then')").run();
      for (let i = 0; i < 3; i++) expect(await mine.getBrand('a')).to.equal('{"footer":"old"}');
      expect(mine.stats.reads, 'read whole each time').to.equal(3);
      // An earlier version's write (no stamp) of a brand this version stamped: seen within the minute.
      await mine.putBrand('b', '{"footer":"stamped"}');
      expect(await mine.getBrand('b')).to.equal('{"footer":"stamped"}');
      db.prepare('UPDATE brands SET brand = \'{"footer":"by an old instance"}\' WHERE account = \'b\'').run();
      expect(await mine.getBrand('b'), 'within the minute: the text held').to.equal('{"footer":"stamped"}');
    } finally {
      close();
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
