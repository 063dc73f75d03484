// The account pages' cookies (cookies.ts): reading them (a malformed value never throws), Secure only behind TLS,
// every cookie HttpOnly, SameSite=Lax and scoped to /account, and whether an Origin names this site (its host and
// port; X-Forwarded-Host only when the proxy is trusted; anything unparsable is another site).
import { expect } from 'chai';
import { COOKIE_PATH, cookies, sameSite, secure, setCookie } from '../../../../server/http/account/cookies';
import { fakeRequest, fakeResponse } from '../../../helpers/fake-http';

describe('account cookies', function () {
  it('reads the Cookie header, keeping a malformed value as sent and reading none without the header', function () {
    expect(cookies(fakeRequest({ headers: { cookie: 'docgen_session=abc; other=1' } }))).to.include({ docgen_session: 'abc', other: '1' });
    expect(cookies(fakeRequest({ headers: { cookie: 'a=%; b=%E0%A4%A' } }))).to.include({ a: '%', b: '%E0%A4%A' });
    expect(cookies(fakeRequest())).to.deep.equal({});
    expect(cookies(fakeRequest({ headers: { cookie: ';;==;' } }))).to.be.an('object');
  });

  it('is Secure over TLS, directly or by X-Forwarded-Proto https, and not otherwise', function () {
    expect(secure(fakeRequest({ secure: true }))).to.equal(true);
    expect(secure(fakeRequest({ headers: { 'x-forwarded-proto': 'https' } }))).to.equal(true);
    expect(secure(fakeRequest({ headers: { 'x-forwarded-proto': 'http' } }))).to.equal(false);
    expect(secure(fakeRequest())).to.equal(false);
  });

  it('sets every cookie HttpOnly, SameSite=Lax, on /account, Secure as the request was, with a max age only when given', function () {
    const res = fakeResponse();
    setCookie(fakeRequest({ secure: true }), res, 'docgen_session', 'v1', 1000);
    setCookie(fakeRequest(), res, 'docgen_csrf', 'v2');
    expect(COOKIE_PATH).to.equal('/account');
    expect(res.set_cookies).to.deep.equal([
      { name: 'docgen_session', value: 'v1', options: { httpOnly: true, sameSite: 'lax', secure: true, path: '/account', maxAge: 1000 } },
      { name: 'docgen_csrf', value: 'v2', options: { httpOnly: true, sameSite: 'lax', secure: false, path: '/account' } },
    ]);
  });

  it('takes an Origin of this host and port as this site, whatever its scheme', function () {
    const req = fakeRequest({ headers: { host: 'docs.example.com:8443' } });
    expect(sameSite('https://docs.example.com:8443', req)).to.equal(true);
    expect(sameSite('http://docs.example.com:8443', req)).to.equal(true);
    expect(sameSite('https://docs.example.com', req), 'another port').to.equal(false);
    expect(sameSite('https://evil.example.com:8443', req)).to.equal(false);
    expect(sameSite('https://docs.example.com.evil.example:8443', req)).to.equal(false);
  });

  it('takes an unparsable Origin (null, garbage) as another site', function () {
    const req = fakeRequest({ headers: { host: 'docs.example.com' } });
    for (const origin of ['null', '', 'docs.example.com', '://', 'http://[::1']) expect(sameSite(origin, req), origin).to.equal(false);
  });

  it('compares with X-Forwarded-Host only when the proxy is trusted', function () {
    const headers = { host: 'internal:3000', 'x-forwarded-host': 'docs.example.com' };
    expect(sameSite('https://docs.example.com', fakeRequest({ headers, trustProxy: true }))).to.equal(true);
    expect(sameSite('https://docs.example.com', fakeRequest({ headers })), 'an untrusted header is ignored').to.equal(false);
    expect(sameSite('http://internal:3000', fakeRequest({ headers }))).to.equal(true);
  });
});
