// The SQLite store's usage (sqlite/usage.ts) on a real file: a reservation counts against the limit until it is
// committed (counted), released or expired; a batch reserves all its documents or none; what a reservation saw is
// returned with it; each account and month counts apart.
import path from 'node:path';
import { expect } from 'chai';
import { SqliteKeyStore } from '../../../../server/keys/sqlite/store';
import { tempDir } from '../../../helpers/service';

const MONTH = '2026-01';
const T0 = new Date(Date.UTC(2026, 0, 10));
const TTL = 60_000;
const later = (ms: number) => new Date(T0.getTime() + ms);

describe('SQLite store: usage', function () {
  let store: SqliteKeyStore;
  beforeEach(function () {
    store = new SqliteKeyStore(path.join(tempDir('sqlite-usage'), 'keys.db'));
  });
  afterEach(async function () {
    await store.close();
  });

  it('reserves up to the limit, saying what each reservation saw, and refuses the next', async function () {
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await store.reserve('a', MONTH, 3, TTL, T0);
      expect(r.ids).to.have.length(1);
      seen.push(r.seen);
    }
    expect(seen).to.deep.equal([0, 1, 2]);
    expect(await store.reserve('a', MONTH, 3, TTL, T0)).to.deep.equal({ ids: undefined, seen: 3 });
    expect(await store.usage('a', MONTH), 'reserved is not used').to.equal(0);
  });

  it('reserves a batch all or none, under the ids given', async function () {
    const batch = await store.reserve('a', MONTH, 5, TTL, T0, 3, ['d1', 'd2', 'd3']);
    expect(batch).to.deep.equal({ ids: ['d1', 'd2', 'd3'], seen: 0 });
    expect(await store.reserve('a', MONTH, 5, TTL, T0, 3)).to.deep.equal({ ids: undefined, seen: 3 });
    const two = await store.reserve('a', MONTH, 5, TTL, T0, 2);
    expect(two.ids).to.have.length(2);
    expect(new Set(two.ids).size, 'ids made here are distinct').to.equal(2);
  });

  it('counts a committed reservation as used and no longer as reserved', async function () {
    const { ids } = await store.reserve('a', MONTH, 2, TTL, T0, 2);
    await store.commit('a', MONTH, ids![0]!);
    expect(await store.usage('a', MONTH)).to.equal(1);
    expect((await store.reserve('a', MONTH, 2, TTL, T0)).seen, '1 used + 1 reserved').to.equal(2);
  });

  it('counts a commit without a reservation (an unlimited plan) once', async function () {
    await store.commit('a', MONTH, 'an-unlimited-document');
    expect(await store.usage('a', MONTH)).to.equal(1);
  });

  it('counts a commit sent again under the same id once (its first outcome lost to the caller), as Redis does', async function () {
    const { ids } = await store.reserve('a', MONTH, 5, TTL, T0, 2);
    await store.commit('a', MONTH, ids![0]!);
    await store.commit('a', MONTH, ids![0]!);
    await store.commit('a', MONTH, 'unlimited-1');
    await store.commit('a', MONTH, 'unlimited-1');
    expect(await store.usage('a', MONTH)).to.equal(2);
    await store.commit('a', MONTH, ids![1]!);
    expect(await store.usage('a', MONTH)).to.equal(3);
  });

  it('drops a released reservation without counting it', async function () {
    const { ids } = await store.reserve('a', MONTH, 1, TTL, T0);
    await store.release('a', MONTH, ids![0]!);
    expect(await store.usage('a', MONTH)).to.equal(0);
    expect((await store.reserve('a', MONTH, 1, TTL, T0)).ids).to.have.length(1);
  });

  it('stops counting a reservation once its time is up (a crashed instance holds no quota)', async function () {
    await store.reserve('a', MONTH, 1, TTL, T0);
    expect((await store.reserve('a', MONTH, 1, TTL, later(TTL - 1))).ids).to.equal(undefined);
    const after = await store.reserve('a', MONTH, 1, TTL, later(TTL));
    expect(after).to.include({ seen: 0 });
    expect(after.ids).to.have.length(1);
  });

  it('counts each account and month apart, and adds corrections to the used count', async function () {
    await store.reserve('a', MONTH, 1, TTL, T0);
    expect((await store.reserve('b', MONTH, 1, TTL, T0)).ids, 'another account').to.have.length(1);
    expect((await store.reserve('a', '2026-02', 1, TTL, T0)).ids, 'another month').to.have.length(1);
    await store.addUsage('a', MONTH, 5);
    await store.addUsage('a', MONTH, 2);
    expect(await store.usage('a', MONTH)).to.equal(7);
    expect(await store.usage('a', '2026-02')).to.equal(0);
    expect((await store.reserve('a', MONTH, 10, TTL, T0)).seen, '7 used + 1 reserved').to.equal(8);
  });
});
