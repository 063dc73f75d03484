// Sessions (session.ts): a random token in the cookie, only its SHA-256 in the store, 12 hours long; found by the
// hash of the cookie's token; ended in the store and in the browser. The secrets derived from a token differ by
// purpose and by token.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { SESSION_COOKIE } from '../../../../server/http/account/cookies';
import { derive, newToken, SESSION_MS, sessions, sessionTokenOf, sha256 } from '../../../../server/http/account/session';
import { fakeRequest, fakeResponse } from '../../../helpers/fake-http';

const NOW = new Date(Date.UTC(2026, 0, 1));

function fakeStore() {
  const calls: unknown[][] = [];
  const rows = new Map<string, { email: string; expiresAt: number }>();
  return {
    calls,
    rows,
    async createSession(tokenHash: string, email: string, expiresAt: number) {
      calls.push(['create', tokenHash, email, expiresAt]);
      rows.set(tokenHash, { email, expiresAt });
    },
    async findSession(tokenHash: string, now: number) {
      calls.push(['find', tokenHash, now]);
      const row = rows.get(tokenHash);
      return row && row.expiresAt > now ? { email: row.email, account: row.email } : undefined;
    },
    async deleteSession(tokenHash: string) {
      calls.push(['delete', tokenHash]);
      rows.delete(tokenHash);
    },
  };
}

describe('account sessions', function () {
  it('makes tokens of 32 random bytes, URL-safe, and hashes with SHA-256 in hex', function () {
    const tokens = new Set(Array.from({ length: 50 }, newToken));
    expect(tokens.size).to.equal(50);
    for (const t of tokens) expect(t).to.match(/^[\w-]{43}$/);
    expect(sha256('abc')).to.equal(crypto.createHash('sha256').update('abc').digest('hex'));
  });

  it('derives a 32-byte secret per purpose and token, each different', function () {
    const a = derive('csrf', 'token');
    expect(a).to.have.length(32);
    expect(a.equals(derive('csrf', 'token'))).to.equal(true);
    expect(a.equals(derive('flash-key', 'token'))).to.equal(false);
    expect(a.equals(derive('csrf', 'other'))).to.equal(false);
  });

  it('starts a session: the store gets the hash only, the browser the token for 12 hours', async function () {
    const store = fakeStore();
    const res = fakeResponse();
    await sessions(store, () => NOW).start(fakeRequest({ secure: true }), res, 'ada@example.com');
    const [cookie] = res.set_cookies;
    expect(cookie).to.deep.include({ name: SESSION_COOKIE });
    expect(cookie!.options).to.include({ maxAge: SESSION_MS, httpOnly: true, secure: true, path: '/account' });
    expect(SESSION_MS).to.equal(12 * 3600 * 1000);
    expect(store.calls).to.deep.equal([['create', sha256(cookie!.value), 'ada@example.com', NOW.getTime() + SESSION_MS]]);
    expect(JSON.stringify(store.calls)).to.not.contain(cookie!.value);
  });

  it("finds the person of the cookie's token (by its hash, at the clock's time), none without a cookie", async function () {
    const store = fakeStore();
    const res = fakeResponse();
    const s = sessions(store, () => NOW);
    await s.start(fakeRequest(), res, 'ada@example.com');
    const token = res.set_cookies[0]!.value;
    expect(sessionTokenOf(fakeRequest({ cookies: { [SESSION_COOKIE]: token } }))).to.equal(token);
    expect(await s.find(fakeRequest({ cookies: { [SESSION_COOKIE]: token } }))).to.deep.equal({
      email: 'ada@example.com',
      account: 'ada@example.com',
    });
    expect(store.calls[1]).to.deep.equal(['find', sha256(token), NOW.getTime()]);
    expect(await s.find(fakeRequest({ cookies: { [SESSION_COOKIE]: sha256(token) } })), 'the hash is no token').to.equal(undefined);
    store.calls.length = 0;
    expect(await s.find(fakeRequest())).to.equal(undefined);
    expect(await s.find(fakeRequest({ cookies: { [SESSION_COOKIE]: '' } }))).to.equal(undefined);
    expect(store.calls, 'no cookie, no store call').to.deep.equal([]);
  });

  it('ends a session in the store and clears the cookie on /account; without a cookie only clears it', async function () {
    const store = fakeStore();
    const res = fakeResponse();
    await sessions(store, () => NOW).end(fakeRequest({ cookies: { [SESSION_COOKIE]: 'tok' } }), res);
    expect(store.calls).to.deep.equal([['delete', sha256('tok')]]);
    expect(res.cleared).to.deep.equal([{ name: SESSION_COOKIE, options: { path: '/account' } }]);
    const bare = fakeStore();
    const res2 = fakeResponse();
    await sessions(bare, () => NOW).end(fakeRequest(), res2);
    expect(bare.calls).to.deep.equal([]);
    expect(res2.cleared).to.have.length(1);
  });
});
