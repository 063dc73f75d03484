// The one-time display of a new API key (flash.ts): the key is sealed with AES-256-GCM under a key derived from the
// session token, so the store never holds it readable; it reads back only with the same session and unaltered; it
// waits under an id other than the session's for at most five minutes, and is taken once.
import { expect } from 'chai';
import { SESSION_COOKIE } from '../../../../server/http/account/cookies';
import { FLASH_MS, newKeyFlash, seal, unseal } from '../../../../server/http/account/flash';
import { sha256 } from '../../../../server/http/account/session';
import { fakeRequest } from '../../../helpers/fake-http';

const KEY = `sk_${'A1b2C3d4'.repeat(4)}`;
const SESSION = 'session-token-'.padEnd(43, 'x');
const NOW = new Date(Date.UTC(2026, 0, 1));

function memoryStore() {
  const values = new Map<string, { value: string; expiresAt: number }>();
  return {
    values,
    async putFlash(id: string, value: string, expiresAt: number) {
      values.set(id, { value, expiresAt });
    },
    async takeFlash(id: string, now: number) {
      const row = values.get(id);
      values.delete(id);
      return row && row.expiresAt > now ? row.value : undefined;
    },
  };
}

describe('new-key flash', function () {
  it('seals text that only the same session token reads back', function () {
    const sealed = seal(KEY, SESSION);
    expect(sealed)
      .to.match(/^[\w-]+$/)
      .and.not.contain(KEY)
      .and.not.contain(KEY.slice(3, 15));
    expect(unseal(sealed, SESSION)).to.equal(KEY);
    expect(unseal(sealed, `${SESSION}y`)).to.equal(undefined);
    expect(seal(KEY, SESSION), 'a fresh IV each time').to.not.equal(sealed);
    expect(unseal(seal('', SESSION), SESSION)).to.equal('');
    expect(unseal(seal('ünïcødé ✓', SESSION), SESSION)).to.equal('ünïcødé ✓');
  });

  it('reads nothing from an altered, cut or foreign sealed text', function () {
    const raw = Buffer.from(seal(KEY, SESSION), 'base64url');
    for (const at of [0, 12, 28, raw.length - 1]) {
      const altered = Buffer.from(raw);
      altered[at] = altered[at]! ^ 1;
      expect(unseal(altered.toString('base64url'), SESSION), `byte ${at}`).to.equal(undefined);
    }
    expect(unseal(raw.subarray(0, 27).toString('base64url'), SESSION)).to.equal(undefined);
    for (const junk of ['', 'not base64 !', 'AAAA']) expect(unseal(junk, SESSION), junk).to.equal(undefined);
  });

  it("keeps a key sealed for five minutes under an id that is not the session's, and gives it once", async function () {
    const store = memoryStore();
    const flash = newKeyFlash(store, () => NOW);
    const req = fakeRequest({ cookies: { [SESSION_COOKIE]: SESSION } });
    await flash.put(req, KEY);
    const [id, row] = [...store.values][0]!;
    expect(id).to.not.equal(sha256(SESSION)).and.not.contain(SESSION);
    expect(row!.expiresAt).to.equal(NOW.getTime() + FLASH_MS);
    expect(FLASH_MS).to.equal(5 * 60_000);
    expect(row!.value).to.not.contain(KEY);
    expect(await flash.take(req)).to.equal(KEY);
    expect(await flash.take(req), 'once').to.equal(undefined);
  });

  it('keeps nothing for, and gives nothing to, a browser without a session; gives another session nothing', async function () {
    const store = memoryStore();
    const flash = newKeyFlash(store, () => NOW);
    await flash.put(fakeRequest(), KEY);
    expect(store.values.size).to.equal(0);
    await flash.put(fakeRequest({ cookies: { [SESSION_COOKIE]: SESSION } }), KEY);
    expect(await flash.take(fakeRequest())).to.equal(undefined);
    expect(await flash.take(fakeRequest({ cookies: { [SESSION_COOKIE]: 'another-session' } }))).to.equal(undefined);
    expect(store.values.size, "the other session's take did not remove it").to.equal(1);
  });

  it('gives nothing once the five minutes are over', async function () {
    const store = memoryStore();
    let now = NOW;
    const flash = newKeyFlash(store, () => now);
    const req = fakeRequest({ cookies: { [SESSION_COOKIE]: SESSION } });
    await flash.put(req, KEY);
    now = new Date(NOW.getTime() + FLASH_MS);
    expect(await flash.take(req)).to.equal(undefined);
  });
});
