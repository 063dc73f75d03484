// The account pages' own errors go through the error catalogue: each is a DomainError with a code, its status and
// headers (Retry-After) come from the catalogue, its body is HTML (the form shown again with the message, or the error
// page for a refused form or an unknown key), and the access log names its code, as for the API.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { ERROR_CATALOGUE } from '../../server/http/error-catalogue';
import { fakeRenderer, startTestService, type TestService } from '../helpers/service';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('account pages: errors through the catalogue, as HTML', function () {
  this.timeout(60000);
  let service: TestService;
  const lines: string[] = [];
  before(async function () {
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    service = await startTestService({}, { pdf: fakeRenderer(), logger: pino({ level: 'info' }, sink) });
  });
  after(async function () {
    await service?.close();
  });

  /** A form page's CSRF cookie and field, as a browser would have them. */
  const formToken = async (pathname: string) => {
    const res = await fetch(`${service.url}${pathname}`);
    return {
      cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!,
      csrf: /name="csrf" value="([^"]+)"/.exec(await res.text())![1]!,
    };
  };
  const postForm = async (pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const t = await formToken(pathname);
    return fetch(`${service.url}${pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...FORM, cookie: t.cookie, ...headers },
      body: new URLSearchParams({ csrf: t.csrf, ...fields }).toString(),
    });
  };
  /** A signed-in browser: its session cookie and the CSRF token of its forms. */
  const signedIn = async (email: string) => {
    const res = await postForm('/account/sign-up', { email, password: 'a fine long password' });
    expect(res.status).to.equal(303);
    const cookie = /docgen_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
    const page = await (await fetch(`${service.url}/account/settings`, { headers: { cookie } })).text();
    return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]! };
  };
  /** The answer has `status` (the catalogue's for `code`), is an HTML page that is not cached, has `message` in it,
   * and the access log names `code`. */
  const expectPage = async (res: Response, code: keyof typeof ERROR_CATALOGUE, status: number, message: string) => {
    expect(res.status, code).to.equal(status);
    expect(ERROR_CATALOGUE[code].status, code).to.equal(status);
    expect(res.headers.get('content-type'), code).to.match(/^text\/html/);
    expect(res.headers.get('cache-control'), code).to.equal('no-store');
    const html = await res.text();
    expect(html, code).to.match(/^<!DOCTYPE html>/);
    expect(html, code).to.contain(`<p class="error" role="alert">${message}</p>`);
    const id = res.headers.get('x-request-id');
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.requestId === id && e.msg === 'request');
    expect(logged, `access log of ${code}`).to.include({ status: res.status, error: code });
    return html;
  };

  it('400 invalid_form and 409 email_taken show the sign-up form again, with the email kept', async function () {
    const bad = await postForm('/account/sign-up', { email: 'not-an-email', password: 'a fine long password' });
    const html = await expectPage(bad, 'invalid_form', 400, 'Enter a valid email address.');
    expect(html).to.contain('value="not-an-email"').and.to.contain('action="/account/sign-up"');
    const weak = await postForm('/account/sign-up', { email: 'weak@example.com', password: 'short' });
    await expectPage(weak, 'invalid_form', 400, 'Choose a password of 12 to 200 characters.');
    await signedIn('taken@example.com');
    const taken = await postForm('/account/sign-up', { email: 'taken@example.com', password: 'another long password' });
    await expectPage(taken, 'email_taken', 409, 'An account with this email already exists. Sign in instead.');
  });

  it('401 wrong_credentials and 429 too_many_sign_ins (with Retry-After) show the sign-in form again', async function () {
    const wrong = await postForm('/account/sign-in', { email: 'nobody@example.com', password: 'not the password' });
    const html = await expectPage(wrong, 'wrong_credentials', 401, 'Email or password is incorrect.');
    expect(html).to.contain('action="/account/sign-in"').and.to.contain('value="nobody@example.com"');
    expect(wrong.headers.get('retry-after')).to.equal(null);
    for (let i = 0; i < 9; i++) await postForm('/account/sign-in', { email: 'nobody@example.com', password: `wrong ${i}` });
    const limited = await postForm('/account/sign-in', { email: 'nobody@example.com', password: 'not the password' });
    await expectPage(limited, 'too_many_sign_ins', 429, 'Too many sign-in attempts. Wait a minute and try again.');
    expect(limited.headers.get('retry-after')).to.equal('60');
  });

  it('403 form_expired: a missing or wrong CSRF token, or another origin, gets the error page and no cookie', async function () {
    const noToken = await fetch(`${service.url}/account/sign-in`, {
      method: 'POST',
      headers: FORM,
      body: 'email=ada%40example.com&password=correct+horse+battery',
    });
    const message = 'The form has expired or did not come from this site. Reload the page and try again.';
    const html = await expectPage(noToken, 'form_expired', 403, message);
    expect(html).to.contain('<h1>Form expired</h1>').and.not.to.contain('<form');
    expect(noToken.headers.get('set-cookie'), 'a refusal sets no cookie').to.equal(null);
    const a = await signedIn('csrf@example.com');
    const newKey = (headers: Record<string, string>, csrf = a.csrf) =>
      fetch(`${service.url}/account/keys`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...FORM, cookie: a.cookie, ...headers },
        body: `csrf=${csrf}`,
      });
    await expectPage(await newKey({}, `${a.csrf.slice(0, -1)}x`), 'form_expired', 403, message);
    const otherSite = await newKey({ origin: 'https://evil.example' });
    await expectPage(otherSite, 'form_expired', 403, message);
    expect(otherSite.headers.get('set-cookie')).to.equal(null);
    expect(await service.keys.listKeys('csrf@example.com')).to.have.length(0);
  });

  it('404 key_not_found: a key of another account, on the confirmation page and on the revoke itself', async function () {
    const owner = await signedIn('owner@example.com');
    const created = await fetch(`${service.url}/account/keys`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...FORM, cookie: owner.cookie },
      body: `csrf=${owner.csrf}`,
    });
    expect(created.status).to.equal(303);
    const [key] = await service.keys.listKeys('owner@example.com');
    const other = await signedIn('other@example.com');
    const confirm = await fetch(`${service.url}/account/keys/${key!.prefix}/revoke`, { headers: { cookie: other.cookie } });
    const html = await expectPage(confirm, 'key_not_found', 404, 'No such key.');
    expect(html).to.contain('<h1>Key not found</h1>');
    const revoke = await fetch(`${service.url}/account/keys/${key!.prefix}/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...FORM, cookie: other.cookie },
      body: `csrf=${other.csrf}`,
    });
    await expectPage(revoke, 'key_not_found', 404, 'No such key.');
    expect((await service.keys.listKeys('owner@example.com'))[0]!.active, 'the key is not revoked').to.equal(true);
  });
});
