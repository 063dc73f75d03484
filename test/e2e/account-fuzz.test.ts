// Property-based fuzzing (fast-check, fixed seed) of the account pages' forms: hostile values in every field of every
// account route over real HTTP (huge values, `email[]=x` arrays, repeated fields, NUL and other controls, bytes that
// are not UTF-8, broken percent-encoding, missing fields, prototype names), wrong or missing content types and
// encodings, foreign origins, garbage client addresses and cookies, signed in or not. Never a 5xx; every 4xx is an HTML
// page (the form again or the error page) whose error paragraph says what is wrong, as the account pages render their
// errors (account/error-page.ts). FUZZ_RUNS=<n> runs more cases (default 300).
import { expect } from 'chai';
import fc from 'fast-check';
import { derive, sha256 } from '../../server/http/account/session';
import { fakeRenderer, startTestService, type TestService } from '../helpers/service';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const PASSWORD = 'a fine long password';

/** Percent-encodes every byte: any byte sequence (not UTF-8, NUL, `&`, `=`) reaches the form parser as sent. */
const pct = (bytes: Uint8Array) => Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const enc = (s: string) => pct(Buffer.from(s, 'utf8'));

const HIDDEN = ['\u0000', '\u0007', '\u007f', '\u0085', '\u00a0', '\u2028', '\u2029', '\u200b', '\u200d', '\u202e', '\u2066', '\ufeff'];

/** One hostile value, already encoded for a form body. */
const hostileValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }).map(enc),
  fc.uint8Array({ maxLength: 40 }).map(pct),
  fc.constantFrom('%', '%E0%A4%A', '%00', 'a%40b.co%00', '%ED%A0%80', '%C0%80', '%FF%FE', '+', '%26%3D', '', 'a@b.co', 'A%40B.CO'),
  fc.constantFrom(201, 4000, 15000, 17000, 70000).map((n) => 'a'.repeat(n)),
  fc
    .tuple(fc.emailAddress(), fc.constantFrom(...HIDDEN), fc.nat(40))
    .map(([email, c, at]) => enc(email.slice(0, at) + c + email.slice(at))),
  fc.emailAddress().map(enc),
);

type Shape = 'missing' | 'valid' | 'hostile' | 'array' | 'repeated' | 'bracket' | 'bare';
const shape = fc.constantFrom<Shape>('missing', 'valid', 'valid', 'hostile', 'hostile', 'array', 'repeated', 'bracket', 'bare');
/** The CSRF field is mostly right, so that most cases reach the fields behind it. */
const csrfShape = fc.oneof({ weight: 4, arbitrary: fc.constant<Shape>('valid') }, { weight: 1, arbitrary: shape });
/** A field as it appears in the body: absent, the valid value, a hostile one, `name[]=`, twice, `name[x]=`, bare. */
const fieldText = (name: string, s: Shape, valid: string, hostile: string): string | undefined =>
  ({
    missing: undefined,
    valid: `${name}=${valid}`,
    hostile: `${name}=${hostile}`,
    array: `${name}[]=${hostile}`,
    repeated: `${name}=${valid}&${name}=${hostile}`,
    bracket: `${name}[x]=${hostile}`,
    bare: name,
  })[s];

const latin1 = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });

interface Route {
  method: 'GET' | 'POST';
  path: string;
  fields: string[];
}
const ROUTES: Route[] = [
  { method: 'POST', path: '/account/sign-up', fields: ['csrf', 'email', 'password'] },
  { method: 'POST', path: '/account/sign-in', fields: ['csrf', 'email', 'password'] },
  { method: 'POST', path: '/account/sign-out', fields: ['csrf'] },
  { method: 'POST', path: '/account/keys', fields: ['csrf'] },
  { method: 'POST', path: '/account/keys/:prefix/revoke', fields: ['csrf'] },
  { method: 'GET', path: '/account/keys/:prefix/revoke', fields: [] },
  { method: 'GET', path: '/account', fields: [] },
  { method: 'GET', path: '/account/sign-up', fields: [] },
  { method: 'GET', path: '/account/sign-in', fields: [] },
  { method: 'GET', path: '/account/settings', fields: [] },
];

const hostileCase = fc.record({
  // Mostly the two forms that take fields; every route now and then.
  route: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(ROUTES[0]!, ROUTES[1]!) }, { weight: 2, arbitrary: fc.constantFrom(...ROUTES) }),
  signedIn: fc.boolean(),
  shapes: fc.tuple(csrfShape, shape, shape),
  values: fc.array(hostileValue, { minLength: 3, maxLength: 3 }),
  email: fc.emailAddress(),
  extra: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    {
      weight: 1,
      arbitrary: fc.subarray(['__proto__=x', '__proto__[csrf]=x', 'constructor=y', 'toString=z', 'hasOwnProperty=1', '=x', '&&', 'csrf']),
    },
  ),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/x-www-form-urlencoded') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        undefined,
        'application/x-www-form-urlencoded; charset=utf-8',
        'application/x-www-form-urlencoded; charset=iso-8859-1',
        'application/x-www-form-urlencoded; charset=utf-16',
        'application/x-www-form-urlencoded; charset=x-unknown',
        'application/json',
        'text/plain',
        'multipart/form-data; boundary=x',
        'text/html',
        '*/*',
        '',
      ),
    },
  ),
  json: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  contentEncoding: fc.oneof(
    { weight: 8, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown') },
  ),
  origin: fc.oneof(
    { weight: 12, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('SELF', 'null', 'https://evil.example', 'http://[', 'http://127.0.0.1:1') },
    { weight: 1, arbitrary: latin1 },
  ),
  client: fc.oneof({ weight: 6, arbitrary: fc.ipV4() }, { weight: 1, arbitrary: fc.ipV6() }, { weight: 1, arbitrary: latin1 }),
  cookieNoise: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: latin1.map((s) => s.replace(/;/g, '')) }),
  prefix: fc.oneof(
    { weight: 2, arbitrary: fc.constant('OWN') },
    {
      weight: 3,
      arbitrary: fc.oneof(
        hostileValue.map((v) => v.slice(0, 3000)),
        fc.constantFrom('..', '%2F', '%', '%E0%A4%A', '%00'),
      ),
    },
  ),
  query: fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: hostileValue.map((v) => `?q=${v.slice(0, 3000)}&email[]=x`) },
  ),
});

describe('account pages against generated hostile input', function () {
  this.timeout(600000);
  let service: TestService;
  let formCookie: string;
  let formCsrf: string;
  let ownPrefix: string;
  const statuses = new Map<number, number>();

  before(async function () {
    // The client address comes from X-Forwarded-For (generated per case), so the per-address limits rarely end a
    // case before its fields are read; they are met now and then, and their 429 pages are checked like the rest.
    service = await startTestService({ TRUST_PROXY: 'loopback' }, { pdf: fakeRenderer() });
    const page = await fetch(`${service.url}/account/sign-up`);
    formCookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
    formCsrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const res = await fetch(`${service.url}/account/sign-up`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: formCookie },
      body: new URLSearchParams({ csrf: formCsrf, email: 'fuzz@example.com', password: PASSWORD }).toString(),
    });
    expect(res.status).to.equal(303);
    ownPrefix = (await service.keys.createKey('fuzz@example.com')).info.prefix;
  });
  after(async function () {
    const summary = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(', ');
    console.log(`      account fuzz: ${RUNS} cases; statuses ${summary}`);
    await service?.close();
  });

  // First, while the limits of the empty email ('email[]=x' has none) are untouched by the generated cases.
  it('named cases: arrays, NUL, a missing field, a huge or unreadable body, a prefix that does not decode, no such page', async function () {
    const send = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${service.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: formCookie,
          'x-forwarded-for': '198.51.100.201',
          ...headers,
        },
        body,
      });
    const page = async (res: Response) => ({
      status: res.status,
      type: (res.headers.get('content-type') ?? '').split(';')[0],
      error: /<p class="error" role="alert">([^<]+)<\/p>/.exec(await res.text())?.[1],
    });
    const csrf = `csrf=${formCsrf}`;
    const pw = `password=${enc(PASSWORD)}`;
    const invalidEmail = { status: 400, type: 'text/html', error: 'Enter a valid email address.' };
    expect(await page(await send('/account/sign-up', `${csrf}&email[]=a%40b.co&${pw}`))).to.deep.equal(invalidEmail);
    expect(await page(await send('/account/sign-up', `${csrf}&email=a%40b.co&email=c%40d.co&${pw}`))).to.deep.equal(invalidEmail);
    expect(await page(await send('/account/sign-up', `${csrf}&${pw}`))).to.deep.equal(invalidEmail);
    expect(await page(await send('/account/sign-up', `${csrf}&email=a%40b.co%00&${pw}`))).to.deep.equal({
      status: 400,
      type: 'text/html',
      error: 'Enter your email address without spaces, control or invisible characters.',
    });
    expect(await page(await send('/account/sign-up', `${csrf}&email=new%40example.com&password[]=x`))).to.deep.equal({
      status: 400,
      type: 'text/html',
      error: 'Choose a password of 12 to 200 characters.',
    });
    expect(await page(await send('/account/sign-in', `${csrf}&email[]=x&password[]=y`))).to.deep.equal({
      status: 401,
      type: 'text/html',
      error: 'Email or password is incorrect.',
    });
    expect(await page(await send('/account/sign-up', `${csrf}&email=${'a'.repeat(17000)}`))).to.deep.equal({
      status: 413,
      type: 'text/html',
      error: 'The request body is larger than the limit of 16384 bytes. Send fewer or shorter fields.',
    });
    expect(await page(await send('/account/sign-in', `${csrf}&email=x`, { 'content-encoding': 'gzip' }))).to.deep.equal({
      status: 400,
      type: 'text/html',
      error: 'The request body could not be read (incorrect header check); check its Content-Encoding and length.',
    });
    expect(
      await page(await send('/account/sign-in', csrf, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16' })),
    ).to.deep.equal({
      status: 415,
      type: 'text/html',
      // Handlebars escapes the = sign.
      error: 'The body is declared as utf-16; only UTF-8 is read. Send the body in UTF-8 (charset&#x3D;utf-8, or no charset).',
    });
    expect(
      await page(await send('/account/sign-in', JSON.stringify({ csrf: formCsrf }), { 'content-type': 'application/json' })),
    ).to.deep.equal({
      status: 403,
      type: 'text/html',
      error: 'The form has expired or did not come from this site. Reload the page and try again.',
    });
    expect(await page(await send('/account/keys/%E0%A4%A/revoke', csrf))).to.deep.equal({
      status: 404,
      type: 'text/html',
      error: 'No such key.',
    });
    expect(await page(await fetch(`${service.url}/account/no-such-page`))).to.deep.equal({
      status: 404,
      type: 'text/html',
      error: 'No such page. Your account is at /account.',
    });
  });

  it(`never answers 5xx; every 4xx is an HTML page saying what is wrong (${RUNS} cases, fixed seed)`, async function () {
    await fc.assert(
      fc.asyncProperty(hostileCase, async (c) => {
        // A signed-in browser: a session of its own (sign-out ends it), its CSRF token derived from the session.
        let cookie = formCookie;
        let csrf = formCsrf;
        if (c.signedIn) {
          const token = sha256(`${Math.random()}`);
          await service.keys.createSession(sha256(token), 'fuzz@example.com', Date.now() + 3600_000);
          cookie = `docgen_session=${token}; ${formCookie}`;
          csrf = derive('csrf', token).toString('base64url');
        }
        if (c.cookieNoise) cookie = `${c.cookieNoise}; ${cookie}`;
        const valid: Record<string, string> = { csrf, email: enc(c.email), password: enc(PASSWORD) };
        const parts = c.route.fields.map((name, i) => fieldText(name, c.shapes[i]!, valid[name]!, c.values[i]!));
        const form = [...parts, ...c.extra].filter((p): p is string => p !== undefined).join('&');
        const body = c.json
          ? JSON.stringify(Object.fromEntries(c.route.fields.map((n, i) => [n, c.shapes[i] === 'valid' ? valid[n] : [c.values[i]]])))
          : form;
        const path = c.route.path.replace(':prefix', c.prefix === 'OWN' ? ownPrefix : c.prefix) + c.query;
        const headers: Record<string, string> = { cookie, 'x-forwarded-for': c.client };
        if (c.route.method === 'POST') {
          if (c.contentType !== undefined) headers['content-type'] = c.contentType;
          if (c.contentEncoding) headers['content-encoding'] = c.contentEncoding;
        }
        if (c.origin) headers.origin = c.origin === 'SELF' ? service.url : c.origin;
        const res = await fetch(`${service.url}${path}`, {
          method: c.route.method,
          redirect: 'manual',
          headers,
          body: c.route.method === 'POST' ? body : undefined,
        });
        const html = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const what = `${c.route.method} ${path.slice(0, 120)} ${JSON.stringify(headers).slice(0, 300)} ${body.slice(0, 300)} → ${res.status} ${html.slice(0, 300)}`;
        expect(res.status, what).to.be.below(500);
        if (res.status >= 400) {
          expect(res.headers.get('content-type'), what).to.match(/^text\/html/);
          expect(html, what).to.match(/^<!DOCTYPE html>/);
          const message = /<p class="error" role="alert">([^<]+)<\/p>/.exec(html)?.[1];
          expect(message, what).to.match(/^[A-Z].{10,}\.$/);
        }
      }),
      { seed: 24_08, numRuns: RUNS, endOnFailure: true },
    );
    // And the service still works: a valid sign-up from a fresh address.
    const res = await fetch(`${service.url}/account/sign-up`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: formCookie, 'x-forwarded-for': '198.51.100.200' },
      body: new URLSearchParams({ csrf: formCsrf, email: 'after-fuzz@example.com', password: PASSWORD }).toString(),
    });
    expect(res.status).to.equal(303);
  });
});
