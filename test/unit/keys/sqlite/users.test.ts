// The SQLite store's users (sqlite/users.ts) on a real file: signing up makes a user and its free account, once per
// email and never over an account the keys CLI made; sessions are found by their hash until they expire; a one-time
// message is taken once, never after its expiry.
import path from 'node:path';
import { expect } from 'chai';
import { SqliteKeyStore } from '../../../../server/keys/sqlite/store';
import { tempDir } from '../../../helpers/service';

describe('SQLite store: users, sessions and one-time messages', function () {
  let store: SqliteKeyStore;
  beforeEach(function () {
    store = new SqliteKeyStore(path.join(tempDir('sqlite-users'), 'keys.db'));
  });
  afterEach(async function () {
    await store.close();
  });

  it('creates a user with its free account, once per email', async function () {
    expect(await store.createUser('ada@example.com', 'hash-1')).to.equal(true);
    expect(await store.findUser('ada@example.com')).to.deep.equal({
      email: 'ada@example.com',
      passwordHash: 'hash-1',
      account: 'ada@example.com',
    });
    expect(await store.createUser('ada@example.com', 'hash-2')).to.equal(false);
    expect((await store.findUser('ada@example.com'))!.passwordHash, 'the first password stays').to.equal('hash-1');
    const { info } = await store.createKey('ada@example.com');
    expect(info.plan).to.equal('free');
    expect(await store.findUser('nobody@example.com')).to.equal(undefined);
  });

  it('refuses a sign-up under the name of an account the keys CLI made (no one takes over its keys)', async function () {
    await store.createKey('ops@example.com', 'paid');
    expect(await store.createUser('ops@example.com', 'hash')).to.equal(false);
    expect(await store.findUser('ops@example.com')).to.equal(undefined);
  });

  it('finds a session by its hash until it expires, and not after it is deleted', async function () {
    await store.createUser('ada@example.com', 'hash');
    const now = Date.now();
    await store.createSession('token-hash', 'ada@example.com', now + 1000);
    expect(await store.findSession('token-hash', now)).to.deep.equal({ email: 'ada@example.com', account: 'ada@example.com' });
    expect(await store.findSession('token-hash', now + 1000), 'expired at its end').to.equal(undefined);
    expect(await store.findSession('other-hash', now)).to.equal(undefined);
    await store.deleteSession('token-hash');
    expect(await store.findSession('token-hash', now)).to.equal(undefined);
  });

  it('finds no session of an email that is no user', async function () {
    await store.createSession('h', 'ghost@example.com', Date.now() + 60_000);
    expect(await store.findSession('h', Date.now())).to.equal(undefined);
  });

  it('gives a one-time message once, replaces it when put again, and never after its expiry', async function () {
    await store.putFlash('f', 'first', 2000);
    await store.putFlash('f', 'second', 2000);
    expect(await store.takeFlash('f', 1000)).to.equal('second');
    expect(await store.takeFlash('f', 1000), 'taken already').to.equal(undefined);
    await store.putFlash('g', 'late', 2000);
    expect(await store.takeFlash('g', 2000)).to.equal(undefined);
    await store.putFlash('h', 'kept', 2000);
    expect(await store.takeFlash('g', 1000), 'the expired one was removed').to.equal(undefined);
    expect(await store.takeFlash('h', 1500)).to.equal('kept');
  });
});
