// CSRF (csrf.ts): the token of a signed-in browser is derived from its session (worth nothing with another), before
// that a random one in its own cookie (replaced when it is not one of ours); a POST passes only with the token in its
// form field, and only without an Origin or with one of this site.
import { expect } from 'chai';
import type { Request, Response } from 'express';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../../../server/http/account/cookies';
import { csrfOf, csrfOk, sameOriginPosts } from '../../../../server/http/account/csrf';
import { fakeRequest, fakeResponse } from '../../../helpers/fake-http';

const SESSION = 'S'.repeat(43);
const TOKEN = 'T'.repeat(43);

describe('CSRF tokens and same-origin posts', function () {
  it('gives a browser without a session a random token in its own cookie, and the same one while the cookie holds it', function () {
    const res = fakeResponse();
    const token = csrfOf(fakeRequest(), res);
    expect(token).to.match(/^[\w-]{43}$/);
    expect(res.set_cookies.map((c) => [c.name, c.value])).to.deep.equal([[CSRF_COOKIE, token]]);
    const again = fakeResponse();
    expect(csrfOf(fakeRequest({ cookies: { [CSRF_COOKIE]: token } }), again)).to.equal(token);
    expect(again.set_cookies, 'no new cookie').to.deep.equal([]);
    expect(csrfOf(fakeRequest(), fakeResponse()), 'random').to.not.equal(token);
  });

  it('replaces a cookie that is not one of its tokens (short, or with other characters)', function () {
    for (const bad of ['short', `${'a'.repeat(39)}`, `${'a'.repeat(40)}%3Cx`, `${'a'.repeat(40)}.`]) {
      const res = fakeResponse();
      const token = csrfOf(fakeRequest({ cookies: { [CSRF_COOKIE]: bad } }), res);
      expect(token, bad).to.not.equal(bad);
      expect(res.set_cookies, bad).to.have.length(1);
    }
  });

  it("derives a signed-in browser's token from its session, the same each time, another for another session, no cookie set", function () {
    const res = fakeResponse();
    const a = csrfOf(fakeRequest({ cookies: { [SESSION_COOKIE]: SESSION } }), res);
    expect(a).to.equal(csrfOf(fakeRequest({ cookies: { [SESSION_COOKIE]: SESSION, [CSRF_COOKIE]: TOKEN } }), fakeResponse()));
    expect(a).to.not.equal(csrfOf(fakeRequest({ cookies: { [SESSION_COOKIE]: 'X'.repeat(43) } }), fakeResponse()));
    expect(a).to.not.equal(SESSION).and.not.contain(SESSION.slice(0, 10));
    expect(res.set_cookies).to.deep.equal([]);
  });

  it('accepts a form whose csrf field is the cookie token (not signed in) or the session token (signed in)', function () {
    expect(csrfOk(fakeRequest({ cookies: { [CSRF_COOKIE]: TOKEN }, body: { csrf: TOKEN } }))).to.equal(true);
    const signedIn = csrfOf(fakeRequest({ cookies: { [SESSION_COOKIE]: SESSION } }), fakeResponse());
    expect(csrfOk(fakeRequest({ cookies: { [SESSION_COOKIE]: SESSION }, body: { csrf: signedIn } }))).to.equal(true);
  });

  it('refuses a missing, different, longer, non-string field, a missing cookie, and the cookie token once signed in', function () {
    const refused = (cookies: Record<string, string>, body: unknown) =>
      expect(csrfOk(fakeRequest({ cookies, body })), JSON.stringify(body)).to.equal(false);
    refused({ [CSRF_COOKIE]: TOKEN }, {});
    refused({ [CSRF_COOKIE]: TOKEN }, undefined);
    refused({ [CSRF_COOKIE]: TOKEN }, { csrf: 'U'.repeat(43) });
    refused({ [CSRF_COOKIE]: TOKEN }, { csrf: `${TOKEN}x` });
    refused({ [CSRF_COOKIE]: TOKEN }, { csrf: [TOKEN] });
    refused({}, { csrf: '' });
    refused({}, { csrf: TOKEN });
    refused({ [SESSION_COOKIE]: SESSION, [CSRF_COOKIE]: TOKEN }, { csrf: TOKEN });
  });

  describe('sameOriginPosts', function () {
    const run = (opts: Parameters<typeof fakeRequest>[0]) => {
      const res = fakeResponse();
      const outcome: string[] = [];
      sameOriginPosts((_req: Request, _res: Response) => void outcome.push('refused'))(fakeRequest(opts), res, () => outcome.push('next'));
      return { outcome, policy: res.sent_headers['Referrer-Policy'] };
    };

    it("passes a POST with this site's Origin or none (the token decides), and every other method", function () {
      const host = { host: 'docs.example.com' };
      expect(run({ method: 'POST', headers: { ...host, origin: 'https://docs.example.com' } }).outcome).to.deep.equal(['next']);
      expect(run({ method: 'POST', headers: host }).outcome).to.deep.equal(['next']);
      expect(run({ method: 'GET', headers: { ...host, origin: 'https://evil.example' } }).outcome).to.deep.equal(['next']);
    });

    it('refuses a POST whose Origin names another site, or null, and answers nothing else', function () {
      for (const origin of ['https://evil.example', 'null', 'https://docs.example.com:444']) {
        const { outcome } = run({ method: 'POST', headers: { host: 'docs.example.com', origin } });
        expect(outcome, origin).to.deep.equal(['refused']);
      }
    });

    it('says Referrer-Policy: same-origin on every page (so that its own forms send their Origin)', function () {
      expect(run({ method: 'GET' }).policy).to.equal('same-origin');
      expect(run({ method: 'POST', headers: { origin: 'null' } }).policy).to.equal('same-origin');
    });
  });
});
