// The account pages in real headless Chromium: sign up, sign in, press New, use the key over HTTP, see the usage go
// from 0 to 1, revoke, get 401 inactive_api_key. And the security rules: CSRF, one message for unknown email and
// wrong password, the 11th wrong password in a minute refused before it is checked, no API access by cookie.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { projectRoot } from '../../server/config';
import { isPdf, pdfText } from '../helpers/pdf';
import { startRedis } from '../helpers/redis';
import { post, startTestService, type TestService } from '../helpers/service';

const ARTIFACTS = path.join(projectRoot(), 'test', '.artifacts');
const DOC = { from: 'Page Co', to: 'Client', items: [{ name: 'Thing', unit_cost: 5 }] };

async function signUp(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/account/sign-up`);
  await page.type('#email', email);
  await page.type('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
}

/** Fetches a form page and returns its CSRF cookie and field, as a browser would have them. */
async function formToken(base: string, pathname: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${base}${pathname}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await res.text())![1]!;
  return { cookie, csrf };
}

async function signInRaw(base: string, email: string, password: string, token?: { cookie: string; csrf: string }): Promise<Response> {
  const t = token ?? (await formToken(base, '/account/sign-in'));
  return fetch(`${base}/account/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: t.cookie },
    body: new URLSearchParams({ csrf: t.csrf, email, password }).toString(),
  });
}

describe('account pages', function () {
  this.timeout(60000);
  let service: TestService;
  let browser: Browser;
  before(async function () {
    service = await startTestService();
    browser = await puppeteer.launch({
      executablePath: service.config.chromiumPath,
      headless: 'shell',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async function () {
    await browser?.close();
    await service?.close();
  });

  it('sign up, sign in, New, use the key, usage 0 → 1, revoke → 401 inactive_api_key', async function () {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1000, height: 900 });
    await signUp(page, service.url, 'ada@example.com', 'correct horse battery');
    expect(page.url()).to.equal(`${service.url}/account/settings`);

    // Sign out and in again through the form.
    await Promise.all([page.waitForNavigation(), page.click('.top button[type=submit]')]);
    expect(page.url()).to.equal(`${service.url}/account/sign-in`);
    await page.type('#email', 'ada@example.com');
    await page.type('#password', 'correct horse battery');
    await Promise.all([page.waitForNavigation(), page.click('main button[type=submit]')]);
    expect(page.url()).to.equal(`${service.url}/account/settings`);
    expect(await page.$eval('#usage', (e) => e.textContent)).to.equal('0 / 100');
    await page.screenshot({ path: path.join(ARTIFACTS, 'settings-before-new.png') });

    await Promise.all([page.waitForNavigation(), page.click('#new')]);
    const key = await page.$eval('#new-key', (e) => e.textContent!.trim());
    expect(key).to.match(/^sk_[0-9A-Za-z]{32}$/);
    expect(await page.$eval('#curl', (e) => e.textContent)).to.contain(`Bearer ${key}`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'settings-after-new.png') });

    const res = await post(service, DOC, { key });
    expect(res.status).to.equal(200);
    expect(isPdf(new Uint8Array(await res.arrayBuffer()))).to.equal(true);

    // New answers with a redirect (Post/Redirect/Get): reloading the page twice shows the key no more and creates
    // no other key.
    expect(page.url()).to.equal(`${service.url}/account/settings`);
    await page.reload();
    await page.reload();
    expect(await page.$eval('#usage', (e) => e.textContent)).to.equal('1 / 100');
    expect(await page.$('#new-key'), 'the key is shown once').to.equal(null);
    expect(await page.content()).not.to.contain(key);
    expect(await service.keys.listKeys('ada@example.com'), 'two reloads after New leave one key').to.have.length(1);

    await Promise.all([page.waitForNavigation(), page.click('a[href$="/revoke"]')]);
    await Promise.all([page.waitForNavigation(), page.click('#confirm-revoke')]);
    expect(await page.$eval('tbody', (e) => e.textContent)).to.contain('Revoked');
    const denied = await post(service, DOC, { key });
    expect(denied.status).to.equal(401);
    expect(((await denied.json()) as { error: string }).error).to.equal('inactive_api_key');

    // The operators' CLI sees the same data.
    const listed = await service.keys.listKeys('ada@example.com');
    expect(listed.map((k) => k.prefix)).to.include(key.slice(0, 9));
    await context.close();
  });

  it("the brand form: saved, shown again, applied to the documents of the account's keys; a bad colour refused; cleared", async function () {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1000, height: 1600 });
    await signUp(page, service.url, 'brand@example.com', 'correct horse battery');
    await Promise.all([page.waitForNavigation(), page.click('#new')]);
    const key = await page.$eval('#new-key', (e) => e.textContent!.trim());

    // An unreadable accent: the page says why, names the contrast, and nothing is stored.
    await page.type('#brand-accent', '#ffff00');
    await Promise.all([page.waitForNavigation(), page.click('#brand-save')]);
    expect(await page.$eval('#brand-error', (e) => e.textContent)).to.contain('accent_color #ffff00 has a contrast of 1.07:1');
    expect(await service.keys.getBrand('brand@example.com')).to.equal(undefined);

    await page.$eval('#brand-accent', (e) => ((e as HTMLInputElement).value = '#0e7490'));
    await page.select('#brand-theme', 'modern');
    await page.select('#brand-font', 'Arimo');
    await page.select('#brand-language', 'de');
    await page.type('#brand-footer', 'Brand GmbH · HRB 4711\nGeschäftsführerin: Ada');
    await Promise.all([page.waitForNavigation(), page.click('#brand-save')]);
    expect(page.url()).to.equal(`${service.url}/account/settings`);
    expect(await page.$eval('#brand-accent', (e) => (e as HTMLInputElement).value)).to.equal('#0e7490');
    expect(await page.$eval('#brand-theme', (e) => (e as HTMLSelectElement).value)).to.equal('modern');
    await page.screenshot({ path: path.join(ARTIFACTS, 'settings-brand.png'), fullPage: true });

    const res = await post(service, DOC, { key });
    expect([res.status, res.headers.get('content-language')]).to.deep.equal([200, 'de-DE']);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdfText(pdf)).to.contain('Brand GmbH · HRB 4711').and.contain('RECHNUNG');
    const api = (await (await fetch(`${service.url}/brand`, { headers: { authorization: `Bearer ${key}` } })).json()) as Record<
      string,
      unknown
    >;
    expect(api).to.deep.equal({
      theme: 'modern',
      accent_color: '#0e7490',
      font: 'Arimo',
      footer: 'Brand GmbH · HRB 4711\nGeschäftsführerin: Ada',
      language: 'de',
    });

    await Promise.all([page.waitForNavigation(), page.click('#brand-clear')]);
    expect(await service.keys.getBrand('brand@example.com')).to.equal(undefined);
    await context.close();
  });

  it('refuses a form post without a valid CSRF token', async function () {
    const noToken = await fetch(`${service.url}/account/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=ada%40example.com&password=correct+horse+battery',
    });
    expect(noToken.status).to.equal(403);
    const t = await formToken(service.url, '/account/sign-in');
    const wrong = await signInRaw(service.url, 'ada@example.com', 'correct horse battery', {
      cookie: t.cookie,
      csrf: `${t.csrf.slice(0, -1)}x`,
    });
    expect(wrong.status).to.equal(403);
    const right = await signInRaw(service.url, 'ada@example.com', 'correct horse battery', t);
    expect(right.status).to.equal(303);
  });

  it('answers a wrong password and an unknown email the same way', async function () {
    await signInRaw(service.url, 'grace@example.com', 'x').catch(() => undefined);
    const wrong = await signInRaw(service.url, 'ada@example.com', 'not the password');
    const unknown = await signInRaw(service.url, 'nobody@example.com', 'not the password');
    expect(wrong.status).to.equal(401);
    expect(unknown.status).to.equal(401);
    const text = async (r: Response) => (await r.text()).replace(/value="[^"]*"/g, '');
    expect(await text(wrong)).to.equal(await text(unknown));
  });

  it('refuses the 11th wrong password in a minute before checking it', async function () {
    // A fresh account, so that earlier tests' attempts do not count.
    const context = await browser.createBrowserContext();
    await signUp(await context.newPage(), service.url, 'limit@example.com', 'the right password');
    await context.close();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signInRaw(service.url, 'limit@example.com', `wrong ${i}`)).status);
    expect(statuses).to.deep.equal(Array(10).fill(401));
    // The 11th — even with the right password — is refused: the password is not checked.
    const eleventh = await signInRaw(service.url, 'limit@example.com', 'the right password');
    expect(eleventh.status).to.equal(429);
    expect(await eleventh.text()).to.contain('Too many sign-in attempts');
  });

  it('the session cookie does not authorize the API', async function () {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await signUp(page, service.url, 'cookie@example.com', 'a long password');
    const cookies = await page.cookies();
    const header = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect(header).to.contain('docgen_session=');
    const session = cookies.find((c) => c.name === 'docgen_session')!;
    expect(session.httpOnly).to.equal(true);
    expect(session.sameSite).to.equal('Lax');
    const res = await fetch(`${service.url}/`, {
      method: 'POST',
      headers: { cookie: header, 'content-type': 'application/json' },
      body: JSON.stringify(DOC),
    });
    expect(res.status).to.equal(401);
    expect(((await res.json()) as { error: string }).error).to.equal('invalid_request');
    await context.close();
  });
});

describe('account pages on the Redis store', function () {
  this.timeout(60000);
  it('sign up, New and the API share Redis with the CLI', async function () {
    const redis = await startRedis();
    const service = await startTestService({ REDIS_URL: redis.url });
    try {
      const t = await formToken(service.url, '/account/sign-up');
      const signUp = await fetch(`${service.url}/account/sign-up`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: t.cookie },
        body: new URLSearchParams({ csrf: t.csrf, email: 'redis@example.com', password: 'a long password' }).toString(),
      });
      expect(signUp.status).to.equal(303);
      const session = /docgen_session=[^;]+/.exec(signUp.headers.get('set-cookie') ?? '')![0];
      // Signed in, the forms carry a token derived from the session: read it from the settings page.
      const settingsPage = await (await fetch(`${service.url}/account/settings`, { headers: { cookie: session } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(settingsPage)![1]!;
      const created = await fetch(`${service.url}/account/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${t.cookie}; ${session}` },
        body: new URLSearchParams({ csrf }).toString(),
      });
      const key = /sk_[0-9A-Za-z]{32}/.exec(await created.text())![0];
      expect((await post(service, DOC, { key })).status).to.equal(200);
      expect((await service.keys.listKeys('redis@example.com'))[0]!.prefix).to.equal(key.slice(0, 9));
      expect(await service.keys.usage('redis@example.com', new Date().toISOString().slice(0, 7))).to.equal(1);

      // Sign-in attempts are counted in Redis: spread over two instances, the 11th is still refused.
      const other = await startTestService({ REDIS_URL: redis.url });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++)
          statuses.push((await signInRaw(i % 2 ? other.url : service.url, 'redis@example.com', `wrong ${i}`)).status);
        expect(statuses).to.deep.equal(Array(10).fill(401));
        expect((await signInRaw(other.url, 'redis@example.com', 'a long password')).status).to.equal(429);
        expect((await signInRaw(service.url, 'redis@example.com', 'a long password')).status).to.equal(429);
      } finally {
        await other.close();
      }
    } finally {
      await service.close();
      await redis.stop();
    }
  });
});

describe('account pages against hostile requests', function () {
  this.timeout(60000);
  let service: TestService;
  before(async function () {
    service = await startTestService({ TRUST_PROXY: 'loopback', API_KEY_FAILURES_PER_MINUTE: '60' });
  });
  after(async function () {
    await service?.close();
  });

  const signUpRaw = async (email: string, password: string) => {
    const t = await formToken(service.url, '/account/sign-up');
    return fetch(`${service.url}/account/sign-up`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: t.cookie },
      body: new URLSearchParams({ csrf: t.csrf, email, password }).toString(),
    });
  };

  it('a malformed cookie is ignored, never a 500', async function () {
    for (const page of ['/account', '/account/sign-in', '/account/sign-up', '/account/settings']) {
      const res = await fetch(`${service.url}${page}`, {
        redirect: 'manual',
        headers: { cookie: 'a=%; docgen_session=%E0%A4%A; docgen_csrf=%' },
      });
      expect(res.status, page).to.be.oneOf([200, 303]);
    }
  });

  it('passwords: 12 characters or more, not the email, not one character repeated', async function () {
    const weak = async (password: string) =>
      (await (await signUpRaw('grace@example.com', password)).text()).match(/class="error"[^>]*>([^<]+)/)?.[1];
    expect(await weak('elevenchars')).to.contain('12 to 200 characters');
    expect(await weak('aaaaaaaaaaaaaaaa')).to.contain('one character repeated');
    expect(await weak('grace@example.com')).to.contain('not your email');
    expect(await weak('my-grace-password')).to.contain('not your email');
    expect((await signUpRaw('grace@example.com', 'plenty of entropy here')).status).to.equal(303);
  });

  it('CSRF tokens are bound to the session, and a POST from another origin is refused', async function () {
    const session = async (email: string) => {
      const res = await signUpRaw(email, 'a fine long password');
      const cookie = /docgen_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
      const page = await (await fetch(`${service.url}/account/settings`, { headers: { cookie } })).text();
      return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]! };
    };
    const a = await session('a@example.com');
    const b = await session('b@example.com');
    const newKey = (cookie: string, csrf: string, headers: Record<string, string> = {}) =>
      fetch(`${service.url}/account/keys`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
        body: `csrf=${csrf}`,
      });
    expect((await newKey(b.cookie, a.csrf)).status, "A's token with B's session").to.equal(403);
    expect((await newKey(a.cookie, a.csrf, { origin: 'https://evil.example' })).status, 'another origin').to.equal(403);
    expect((await newKey(a.cookie, a.csrf, { origin: 'null' })).status, 'an opaque origin').to.equal(403);
    const port = new URL(service.url).port;
    expect((await newKey(a.cookie, a.csrf, { origin: `http://127.0.0.1:${Number(port) + 1}` })).status, 'another port').to.equal(403);
    // Behind a TLS proxy the browser says https while the service sees http: the same host is this site.
    expect((await newKey(a.cookie, a.csrf, { origin: `https://127.0.0.1:${port}` })).status).to.equal(303);
    expect((await newKey(a.cookie, a.csrf, { origin: service.url })).status).to.equal(303);
    expect(await service.keys.listKeys('a@example.com')).to.have.length(2);
    expect(await service.keys.listKeys('b@example.com')).to.have.length(0);
    // No body at all (so no token), with or without a form's content type: refused the same way, never a 404.
    for (const headers of [{}, { 'content-type': 'application/x-www-form-urlencoded' }] as Record<string, string>[]) {
      const empty = await fetch(`${service.url}/account/keys`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: a.cookie, origin: service.url, ...headers },
      });
      expect(empty.status, JSON.stringify(headers)).to.equal(403);
    }
    expect(await service.keys.listKeys('a@example.com')).to.have.length(2);
  });

  it('behind a trusted proxy, sign-in limits count each client (X-Forwarded-For), not the proxy', async function () {
    await signUpRaw('proxy@example.com', 'the right password 1');
    const attempt = async (client: string, email: string) => {
      const t = await formToken(service.url, '/account/sign-in');
      return fetch(`${service.url}/account/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: t.cookie, 'x-forwarded-for': client },
        body: new URLSearchParams({ csrf: t.csrf, email, password: 'wrong password!' }).toString(),
      });
    };
    // One client tries 30 emails: its 31st attempt is refused, another client behind the same proxy is not.
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await attempt('203.0.113.7', `guess${i}@example.com`)).status);
    expect(statuses.slice(0, 30)).to.deep.equal(Array(30).fill(401));
    expect(statuses[30]).to.equal(429);
    expect((await attempt('198.51.100.9', 'proxy@example.com')).status).to.equal(401);
  });

  it('wrong API keys from one address meet a limit: 429 with Retry-After, other addresses unaffected', async function () {
    const guess = (client: string) =>
      fetch(`${service.url}/`, {
        method: 'POST',
        headers: { authorization: `Bearer sk_${'x'.repeat(32)}`, 'x-forwarded-for': client, 'content-type': 'application/json' },
        body: '{}',
      });
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) statuses.push((await guess('203.0.113.50')).status);
    expect(statuses.filter((s) => s === 401)).to.have.length(60);
    expect(statuses.slice(60)).to.deep.equal(Array(10).fill(429));
    const limited = await guess('203.0.113.50');
    expect(limited.headers.get('retry-after')).to.equal('60');
    expect((await guess('198.51.100.60')).status).to.equal(401);
    // A valid key is never refused, also from the limited address (a neighbour behind the same NAT).
    expect((await post(service, DOC, { headers: { 'x-forwarded-for': '203.0.113.50' } })).status).to.equal(200);
  });
});
