// Limits of different windows share the attempts store on Redis too (sign-ins count a minute, sign-ups an hour), run
// by the attempts script on a real redis-server: one limit's purge never drops another's attempts, a refused attempt
// records nothing under any of its keys, and attempts leave the window as it slides.
import { expect } from 'chai';
import { RedisKeyStore } from '../../../../server/keys/redis/store';
import { startRedis, type TestRedis } from '../../../helpers/redis';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('attempt windows on Redis', function () {
  let redis: TestRedis;
  let store: RedisKeyStore;
  before(async function () {
    redis = await startRedis();
    store = new RedisKeyStore(redis.url);
  });
  after(async function () {
    await store?.close();
    await redis?.stop();
  });

  it("a one-minute limit's purge keeps an hour-long limit's attempts, which then leave the window after their hour", async function () {
    const t0 = Date.now();
    const hourly = [{ key: 'sign-up:192.0.2.1', max: 2 }];
    expect(await store.recordAttempt(hourly, HOUR, t0)).to.equal(true);
    expect(await store.recordAttempt(hourly, HOUR, t0 + 1)).to.equal(true);
    expect(await store.recordAttempt([{ key: 'ip:192.0.2.1', max: 30 }], MINUTE, t0 + 5 * MINUTE)).to.equal(true);
    expect(await store.recordAttempt(hourly, HOUR, t0 + 10 * MINUTE), 'ten minutes on: still two').to.equal(false);
    expect(await store.recordAttempt(hourly, HOUR, t0 + HOUR + 2), 'an hour on: free again').to.equal(true);
  });

  it('a refused attempt records nothing under its other keys', async function () {
    const t0 = Date.now();
    const email = { key: 'email:ada@example.com', max: 1 };
    const ip = { key: 'ip:198.51.100.7', max: 2 };
    expect(await store.recordAttempt([email, ip], MINUTE, t0)).to.equal(true);
    expect(await store.recordAttempt([email, ip], MINUTE, t0 + 1), 'the email is used up').to.equal(false);
    expect(await store.recordAttempt([ip], MINUTE, t0 + 2), 'the refusal did not count for the address').to.equal(true);
    expect(await store.recordAttempt([ip], MINUTE, t0 + 3)).to.equal(false);
  });
});
