// Sign-ups: limited per client address (the proxy-aware address, as the sign-in limits count it), and one account per
// mailbox: an email holding control, whitespace or invisible characters is refused, and two spellings of one mailbox
// (case, Unicode composition, surrounding spaces) make one account. On the SQLite file and on a real Redis, over real
// HTTP.
import { expect } from 'chai';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeRenderer, startTestService, type TestService } from '../helpers/service';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PASSWORD = 'a fine long password';
const HOUR_MS = 3600_000;

for (const backend of ['SQLite', 'Redis'] as const) {
  describe(`sign-ups on ${backend}`, function () {
    this.timeout(60000);
    let redis: TestRedis | undefined;
    let service: TestService;
    /** The service's clock runs this far ahead of the real one (the limit's window is an hour). */
    let ahead = 0;
    let clientCount = 0;
    /** A client address of its own, so that one test's sign-ups do not count against another's. */
    const newClient = () => `192.0.2.${++clientCount}`;

    before(async function () {
      redis = backend === 'Redis' ? await startRedis() : undefined;
      // The proxy is trusted in this configuration: the client address is the one X-Forwarded-For names.
      service = await startTestService(
        { TRUST_PROXY: 'loopback', ...(redis ? { REDIS_URL: redis.url } : {}) },
        { pdf: fakeRenderer(), clock: () => new Date(Date.now() + ahead) },
      );
    });
    after(async function () {
      await service?.close();
      await redis?.stop();
    });

    const post = async (pathname: string, fields: Record<string, string>, client: string) => {
      const page = await fetch(`${service.url}${pathname}`);
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
      return fetch(`${service.url}${pathname}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...FORM, cookie, 'x-forwarded-for': client },
        body: new URLSearchParams({ csrf, ...fields }).toString(),
      });
    };
    const signUp = (email: string, client = newClient(), password = PASSWORD) => post('/account/sign-up', { email, password }, client);
    const errorOf = async (res: Response) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(await res.text())?.[1];

    it('the 6th sign-up from one address within the hour is refused (429, Retry-After); another address still signs up', async function () {
      const client = newClient();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await signUp(`many${i}@example.com`, client)).status);
      console.log(`      ${backend}: 6 sign-ups from one address: ${statuses.join(', ')}`);
      expect(statuses).to.deep.equal([303, 303, 303, 303, 303, 429]);
      expect(await service.keys.findUser('many5@example.com'), 'the 6th made no account').to.equal(undefined);
      const refused = await signUp('many6@example.com', client);
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.equal('3600');
      expect(refused.headers.get('content-type')).to.match(/^text\/html/);
      expect(await errorOf(refused)).to.equal('Too many sign-ups from your address. Wait an hour and try again.');
      expect((await signUp('other@example.com', newClient())).status, 'another address').to.equal(303);
    });

    it('the count is kept for the whole hour, whatever other limits do in between, and then frees up', async function () {
      const client = newClient();
      try {
        for (let i = 0; i < 5; i++) expect((await signUp(`hour${i}@example.com`, client)).status).to.equal(303);
        // A sign-in two minutes later: the sign-in limits' one-minute window must not drop the sign-ups' hour.
        ahead = 2 * 60_000;
        expect((await post('/account/sign-in', { email: 'hour0@example.com', password: 'a wrong password' }, client)).status).to.equal(401);
        ahead = 3 * 60_000;
        expect((await signUp('hour5@example.com', client)).status, 'three minutes on').to.equal(429);
        ahead = HOUR_MS + 60_000;
        expect((await signUp('hour5@example.com', client)).status, 'an hour on').to.equal(303);
      } finally {
        ahead = 0;
      }
    });

    it('refuses an email holding control, whitespace or invisible characters, naming the email', async function () {
      const hostile = {
        NUL: 'a@b.co\u0000',
        'NUL inside': 'a\u0000@b.co',
        'C0 (BEL)': 'a\u0007@b.co',
        DEL: 'a@b.co\u007f',
        'C1 (NEL)': 'a@b.co\u0085',
        'a tab inside': 'a\t@b.co',
        'a space inside': 'a b@b.co',
        'no-break space': 'a@b.co\u00a0',
        'line separator': 'a@b.co\u2028',
        'paragraph separator': 'a@b.co\u2029',
        'zero-width space': 'a\u200b@b.co',
        'zero-width joiner': 'a@b\u200d.co',
        'left-to-right mark': 'a@b.co\u200e',
        'right-to-left override': 'a@\u202eoc.b',
        'first strong isolate': 'a@b.co\u2068',
        'word joiner': 'a@b\u2060.co',
        BOM: '\ufeffa@b.co',
        'soft hyphen': 'a\u00ad@b.co',
        'Hangul filler': 'a\u3164@b.co',
        'variation selector': 'a\ufe0f@b.co',
        'tag character': 'a@b.co\u{e0041}',
        'unassigned code point': 'a@b.co\u{e0080}',
      };
      const answers: { name: string; status: number; error: string | undefined }[] = [];
      for (const [name, email] of Object.entries(hostile)) {
        const res = await signUp(email);
        answers.push({ name, status: res.status, error: await errorOf(res) });
      }
      const created = answers.filter((a) => a.status === 303).map((a) => a.name);
      console.log(`      ${backend}: hostile emails that made an account: ${created.length} of ${answers.length} (${created.join(', ')})`);
      for (const { name, status, error } of answers) {
        expect(status, name).to.equal(400);
        expect(error, name).to.equal('Enter your email address without spaces, control or invisible characters.');
      }
      expect(await service.keys.findUser('a@b.co\u0000')).to.equal(undefined);
    });

    it('two spellings of one mailbox make one account: case, NFC, surrounding spaces; either signs in', async function () {
      expect((await signUp('a@b.co')).status).to.equal(303);
      const spellings = {
        'upper case': 'A@B.co',
        'surrounding spaces': '  a@b.co \t',
        'NUL after': 'a@b.co\u0000',
      };
      for (const [name, email] of Object.entries(spellings)) expect((await signUp(email)).status, name).to.be.oneOf([400, 409]);
      expect((await signUp('A@B.co')).status).to.equal(409);
      // é as one code point (NFC), and as e + a combining acute accent (NFD): one mailbox.
      expect((await signUp('jos\u00e9@example.com')).status).to.equal(303);
      const nfd = await signUp('JOSE\u0301@example.com');
      console.log(`      ${backend}: the decomposed spelling of josé@example.com answered ${nfd.status}`);
      expect(nfd.status, 'the decomposed spelling').to.equal(409);
      expect(await errorOf(nfd)).to.equal('An account with this email already exists. Sign in instead.');
      expect(await service.keys.findUser('jose\u0301@example.com'), 'no account under the decomposed spelling').to.equal(undefined);
      // Either spelling signs in to the one account.
      expect((await post('/account/sign-in', { email: 'Jose\u0301@Example.com', password: PASSWORD }, newClient())).status).to.equal(303);
      expect((await post('/account/sign-in', { email: ' A@b.CO ', password: PASSWORD }, newClient())).status).to.equal(303);
    });
  });
}

describe('sign-up limit: SIGN_UPS_PER_HOUR', function () {
  this.timeout(60000);
  const signUps = async (env: Record<string, string>, count: number) => {
    const service = await startTestService(env, { pdf: fakeRenderer() });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        const page = await fetch(`${service.url}/account/sign-up`);
        const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
        const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
        const res = await fetch(`${service.url}/account/sign-up`, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...FORM, cookie, 'x-forwarded-for': '203.0.113.99' },
          body: new URLSearchParams({ csrf, email: `n${i}@example.com`, password: PASSWORD }).toString(),
        });
        statuses.push(res.status);
      }
      return statuses;
    } finally {
      await service.close();
    }
  };

  it('is configurable; 0 is no limit; without a trusted proxy X-Forwarded-For is not believed', async function () {
    expect(await signUps({ SIGN_UPS_PER_HOUR: '2' }, 3)).to.deep.equal([303, 303, 429]);
    expect(await signUps({ SIGN_UPS_PER_HOUR: '0' }, 7)).to.deep.equal(Array(7).fill(303));
    // No TRUST_PROXY: every request is 127.0.0.1's, whatever X-Forwarded-For says, so the 6th is refused.
    const untrusted = await signUps({}, 6);
    expect(untrusted).to.deep.equal([303, 303, 303, 303, 303, 429]);
  });
});
