// Both key stores answer alike (a real SQLite file and a real Redis): an account's keys listed in creation order and
// only its own (Redis reads them from the account's own set), each with its account's plan; revocation by
// prefix; counts.
import path from 'node:path';
import { expect } from 'chai';
import type { KeyStore } from '../../server/keys/key-store';
import { RedisKeyStore } from '../../server/keys/redis/store';
import { SqliteKeyStore } from '../../server/keys/sqlite/store';
import { startRedis, type TestRedis } from '../helpers/redis';
import { tempDir } from '../helpers/service';

describe('key stores: SQLite and Redis answer alike', function () {
  this.timeout(30000);
  let redis: TestRedis;
  const stores: [string, () => KeyStore][] = [
    ['SQLite', () => new SqliteKeyStore(path.join(tempDir('keys'), 'keys.db'))],
    ['Redis', () => new RedisKeyStore(redis.url)],
  ];
  before(async function () {
    redis = await startRedis();
  });
  after(async function () {
    await redis?.stop();
  });

  for (const [name, open] of stores) {
    it(`${name}: lists one account's keys in creation order with its plan, revokes by prefix, counts`, async function () {
      const store = open();
      try {
        const made: { a: string[]; b: string[] } = { a: [], b: [] };
        for (const account of ['a', 'b', 'a', 'b', 'a']) {
          const { info } = await store.createKey(`${account}@example.com`, account === 'a' ? 'paid' : undefined);
          made[account as 'a' | 'b'].push(info.prefix);
          await new Promise((r) => setTimeout(r, 2)); // distinct creation times
        }
        const a = await store.listKeys('a@example.com');
        expect(a.map((k) => k.prefix)).to.deep.equal(made.a);
        expect(a.every((k) => k.plan === 'paid' && k.account === 'a@example.com' && k.active)).to.equal(true);
        const b = await store.listKeys('b@example.com');
        expect(b.map((k) => k.prefix)).to.deep.equal(made.b);
        expect(b.every((k) => k.plan === 'free')).to.equal(true);
        expect(await store.listKeys('nobody@example.com')).to.deep.equal([]);
        expect((await store.listKeys()).map((k) => k.prefix).sort()).to.deep.equal([...made.a, ...made.b].sort());
        expect(await store.countKeys()).to.equal(5);
        const revoked = await store.revokeKey(made.b[1]!);
        expect(revoked?.active).to.equal(false);
        expect((await store.listKeys('b@example.com')).map((k) => k.active)).to.deep.equal([true, false]);
        expect(await store.revokeKey('sk_nothere')).to.equal(undefined);
      } finally {
        await store.close();
      }
    });
  }
});
