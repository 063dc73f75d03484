// Brands on Redis (keys/redis/brands.ts) on a real redis-server: two stores (two instances) sharing it, each through
// its brand cache (keys/cached-brands.ts): a brand changed or removed through one is the other's at once; the brand
// and its stamp are written together and read together; a brand written before stamps were kept (no stamp key) reads
// with an empty stamp, and its next write stamps it.
import { expect } from 'chai';
import Redis from 'ioredis';
import { RedisBrands } from '../../../../server/keys/redis/brands';
import { k } from '../../../../server/keys/redis/names';
import { RedisKeyStore } from '../../../../server/keys/redis/store';
import { startRedis, type TestRedis } from '../../../helpers/redis';

describe('brands on Redis', function () {
  let redis: TestRedis;
  let stores: RedisKeyStore[];
  let raw: Redis;
  before(async function () {
    redis = await startRedis();
    stores = [new RedisKeyStore(redis.url), new RedisKeyStore(redis.url)];
    raw = new Redis(redis.url);
  });
  after(async function () {
    raw?.disconnect();
    for (const store of stores ?? []) await store.close();
    await redis?.stop();
  });

  it('a change through one instance is the other’s at once, a removal too', async function () {
    const [a, b] = stores as [RedisKeyStore, RedisKeyStore];
    expect(await b.getBrand('acct')).to.equal(undefined);
    await a.putBrand('acct', '{"footer":"first"}');
    expect(await b.getBrand('acct')).to.equal('{"footer":"first"}');
    expect(await b.getBrand('acct'), 'held').to.equal('{"footer":"first"}');
    await a.putBrand('acct', '{"footer":"second"}');
    expect(await b.getBrand('acct')).to.equal('{"footer":"second"}');
    await b.putBrand('acct', '{"footer":"third"}');
    expect(await a.getBrand('acct')).to.equal('{"footer":"third"}');
    await a.putBrand('acct', undefined);
    expect(await b.getBrand('acct')).to.equal(undefined);
    expect(await raw.exists(k.brand('acct'), k.brandStamp('acct')), 'both keys gone').to.equal(0);
  });

  it('writes each brand with a new stamp, and reads a brand written before stamps with an empty one', async function () {
    const brands = new RedisBrands(raw);
    await brands.putBrand('s', '{"footer":"x"}');
    const first = await brands.stampedBrand('s');
    await brands.putBrand('s', '{"footer":"x"}');
    const second = await brands.stampedBrand('s');
    expect(first?.text).to.equal('{"footer":"x"}');
    expect(first?.stamp).to.match(/^[0-9a-f-]{36}$/);
    expect(second?.stamp, 'the same text written again: a new stamp').to.not.equal(first?.stamp);
    expect(await brands.brandStamp('s')).to.equal(second?.stamp);
    expect(await brands.brandStamp('nobody')).to.equal(undefined);
    expect(await brands.stampedBrand('nobody')).to.equal(undefined);
    await raw.set(k.brand('legacy'), '{"footer":"old"}');
    expect(await brands.brandStamp('legacy')).to.equal('');
    expect(await brands.stampedBrand('legacy')).to.deep.equal({ text: '{"footer":"old"}', stamp: '' });
    await brands.putBrand('legacy', '{"footer":"new"}');
    expect(await brands.brandStamp('legacy')).to.match(/^[0-9a-f-]{36}$/);
  });
});
