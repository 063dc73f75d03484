// The SQLite store's keys (sqlite/keys.ts) on a real file: a key is stored by its hash and prefix only, authenticates
// to its account and plan until revoked, is revoked whole or by an unambiguous prefix, and an account's plan is set
// on its creation or later. Listing in creation order and counting across accounts is test/e2e/key-stores.test.ts's.
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { hashApiKey, keyPrefix } from '../../../../server/keys/api-key';
import { KeyStoreError } from '../../../../server/keys/key-store';
import { SqliteKeyStore } from '../../../../server/keys/sqlite/store';
import { tempDir } from '../../../helpers/service';

describe('SQLite store: keys', function () {
  let file: string;
  let store: SqliteKeyStore;
  beforeEach(function () {
    file = path.join(tempDir('sqlite-keys'), 'keys.db');
    store = new SqliteKeyStore(file);
  });
  afterEach(async function () {
    await store.close();
  });

  it('stores a new key by its hash and prefix only, and authenticates it to its account and plan', async function () {
    const { key, info } = await store.createKey('ada@example.com');
    expect(info).to.include({ account: 'ada@example.com', plan: 'free', active: true, prefix: keyPrefix(key), lastUsedAt: null });
    expect(await store.authenticate(key)).to.deep.equal({ status: 'ok', account: 'ada@example.com', plan: 'free' });
    const db = new Database(file, { readonly: true });
    try {
      const dump = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
      expect(dump).to.contain(hashApiKey(key)).and.not.contain(key);
    } finally {
      db.close();
    }
  });

  it('answers unknown for a malformed key, a well-formed stranger and a key of one changed character', async function () {
    const { key } = await store.createKey('ada@example.com');
    const changed = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    for (const k of ['', 'sk_short', `${key} `, key.toUpperCase(), "sk_' OR 1=1 --", changed, `sk_${'0'.repeat(32)}`])
      expect(await store.authenticate(k), JSON.stringify(k)).to.deep.equal({ status: 'unknown' });
  });

  it('records the first use of a key, at most once a minute', async function () {
    const { key, info } = await store.createKey('ada@example.com');
    await store.authenticate(key);
    const [first] = await store.listKeys('ada@example.com');
    expect(first!.lastUsedAt).to.be.a('string');
    expect(Date.parse(first!.lastUsedAt!)).to.be.at.least(Date.parse(info.createdAt));
    await store.authenticate(key);
    expect((await store.listKeys('ada@example.com'))[0]!.lastUsedAt, 'not written again within the minute').to.equal(first!.lastUsedAt);
  });

  it('revokes a key given whole or by its prefix (with the … list shows); a revoked key is inactive', async function () {
    const a = await store.createKey('ada@example.com');
    const b = await store.createKey('ada@example.com');
    expect(await store.revokeKey(a.key)).to.include({ prefix: a.info.prefix, active: false });
    expect(await store.authenticate(a.key)).to.deep.equal({ status: 'inactive' });
    expect(await store.revokeKey(b.info.prefix)).to.include({ prefix: b.info.prefix, active: false });
    expect(await store.authenticate(b.key)).to.deep.equal({ status: 'inactive' });
    expect(await store.revokeKey('sk_nothing')).to.equal(undefined);
    expect(await store.revokeKey(`sk_${'x'.repeat(32)}`), 'a whole key never issued').to.equal(undefined);
    expect(await store.countKeys(), 'revoked keys are kept').to.equal(2);
  });

  it('refuses to revoke by a prefix that several keys share, and revokes none of them', async function () {
    const a = await store.createKey('ada@example.com');
    const db = new Database(file);
    try {
      const other = `${a.info.prefix}${'Z'.repeat(26)}`;
      db.prepare(
        'INSERT INTO api_keys (hash, prefix, account_id, active, created_at) SELECT ?, prefix, account_id, 1, created_at FROM api_keys',
      ).run(hashApiKey(other));
    } finally {
      db.close();
    }
    try {
      await store.revokeKey(a.info.prefix);
      expect.fail('revoked by an ambiguous prefix');
    } catch (err) {
      expect(err).to.be.instanceOf(KeyStoreError);
      expect((err as Error).message).to.equal(`2 keys start with ${a.info.prefix}; give the whole key to revoke one of them`);
    }
    expect((await store.listKeys()).every((k) => k.active)).to.equal(true);
    expect(await store.revokeKey(a.key), 'the whole key still revokes').to.include({ active: false });
  });

  it("sets an account's plan when a key is created with one, keeps it when created without, and by setPlan", async function () {
    await store.createKey('team', 'paid');
    const { info } = await store.createKey('team');
    expect(info.plan, 'a key without a plan keeps the account on its plan').to.equal('paid');
    expect(await store.setPlan('team', 'free')).to.equal(true);
    expect((await store.listKeys('team')).map((k) => k.plan)).to.deep.equal(['free', 'free']);
    expect(await store.setPlan('nobody', 'paid')).to.equal(false);
    expect(await store.listKeys('nobody')).to.deep.equal([]);
  });

  it('keeps account names as given: another case or a quote is another account', async function () {
    await store.createKey('Team');
    await store.createKey("te'am");
    expect(await store.listKeys('team')).to.deep.equal([]);
    expect(await store.listKeys("te'am")).to.have.length(1);
  });
});
