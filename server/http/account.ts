// The account pages under /account: sign up, sign in, sign out, and the developer settings page (usage, API keys:
// New, shown once, revoke with a confirmation). Server-rendered (render/pages.ts), no front-end framework.
// Security: scrypt passwords (12 characters or more, not the email, not one character repeated); a session cookie
// (HttpOnly, SameSite=Lax, Secure behind TLS) whose token is stored only hashed; a CSRF token on every form, derived
// from the session token once signed in (before that, a cookie and a hidden field that must match), and the Origin
// header checked on every POST; one message for an unknown email and a wrong password; sign-in attempts limited per
// email and per client address (the proxy-aware req.ip), counted in the shared store (so several instances share one
// count). A new key is shown once after a redirect (Post/Redirect/Get): it waits in the store for one read, encrypted
// with the session token, which only the browser holds. The API stays Bearer-only: nothing here authorizes POST /.
import crypto from 'node:crypto';
import path from 'node:path';
import { parse as parseCookies } from 'cookie';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { projectRoot, type Config } from '../config';
import { DUMMY_HASH, hashPassword, passwordProblem, verifyPassword } from '../accounts/passwords';
import { accountPlan, type KeyStore } from '../keys/key-store';
import { limitOf, nextPeriodStart, periodOf } from '../quota/quota';
import { loadPages } from '../render/pages';

const SESSION_COOKIE = 'docgen_session';
const CSRF_COOKIE = 'docgen_csrf';
const SESSION_MS = 12 * 3600 * 1000;
const SAME_FOR_BOTH = 'Email or password is incorrect.';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const token = () => crypto.randomBytes(32).toString('base64url');

/** The request's cookies (npm cookie: a malformed value such as `a=%` is kept as sent, never an exception). */
function cookies(req: Request): Record<string, string | undefined> {
  return parseCookies(req.get('cookie') ?? '');
}

/** Secure when the request reached us over TLS, directly or through a proxy (trusted by TRUST_PROXY, or saying so in
 * X-Forwarded-Proto: a client that lies about it only makes its own browser withhold the cookie). */
function secure(req: Request): boolean {
  return req.secure || req.get('x-forwarded-proto') === 'https';
}

/** Whether an Origin header names this site: its host (and port) is the one the request was sent to. The scheme is
 * not compared: behind a TLS proxy the service sees http while the browser says https. */
function sameSite(origin: string, req: Request): boolean {
  try {
    return (
      new URL(origin).host === (req.get('x-forwarded-host') && req.app.get('trust proxy') ? req.get('x-forwarded-host') : req.get('host'))
    );
  } catch {
    return false;
  }
}

/** A new key waits for its one display at most this long. */
const FLASH_MS = 5 * 60_000;
const derive = (purpose: string, sessionToken: string) => crypto.createHash('sha256').update(`${purpose}:${sessionToken}`).digest();

/** The new key, encrypted so that only the holder of the session cookie can read it back (AES-256-GCM). */
function seal(text: string, sessionToken: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', derive('flash-key', sessionToken), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(sealed: string, sessionToken: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', derive('flash-key', sessionToken), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

export function accountRouter(store: KeyStore, config: Pick<Config, 'planLimits'>, clock: () => Date = () => new Date()): Router {
  const router = express.Router();
  const pages = loadPages(path.join(projectRoot(), 'templates', 'account'));
  router.use('/assets', express.static(path.join(projectRoot(), 'public', 'account')));
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));

  const setCookie = (req: Request, res: Response, name: string, value: string, maxAgeMs?: number) =>
    res.cookie(name, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secure(req),
      path: '/account',
      ...(maxAgeMs ? { maxAge: maxAgeMs } : {}),
    });

  /** The CSRF token for this browser's forms: derived from its session token when it has one (so a token is worth
   * nothing with another session), else a random one in its own cookie (set when missing). */
  const csrfOf = (req: Request, res: Response): string => {
    const sessionToken = cookies(req)[SESSION_COOKIE];
    if (sessionToken) return derive('csrf', sessionToken).toString('base64url');
    let value = cookies(req)[CSRF_COOKIE];
    if (!value || !/^[\w-]{40,}$/.test(value)) {
      value = token();
      setCookie(req, res, CSRF_COOKIE, value);
    }
    return value;
  };
  const csrfOk = (req: Request): boolean => {
    const sessionToken = cookies(req)[SESSION_COOKIE];
    const expected = sessionToken ? derive('csrf', sessionToken).toString('base64url') : cookies(req)[CSRF_COOKIE];
    const field = (req.body as { csrf?: string } | undefined)?.csrf;
    return Boolean(
      expected &&
      typeof field === 'string' &&
      expected.length === field.length &&
      crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(field)),
    );
  };
  // Every form POST must come from a page of this site: a browser names the page's origin in Origin. (With helmet's
  // `no-referrer` policy a browser sends `Origin: null` even from our own pages, so these pages say `same-origin`.)
  router.use((req: Request, res: Response, next: NextFunction) => {
    res.set('Referrer-Policy', 'same-origin');
    const origin = req.get('origin');
    if (req.method !== 'POST' || !origin) return next();
    if (!sameSite(origin, req)) return refuseCsrf(res);
    next();
  });
  const page = (req: Request, res: Response, name: string, data: Record<string, unknown>, status = 200) =>
    res
      .status(status)
      .type('html')
      .set('Cache-Control', 'no-store')
      .send(pages.render(name, { ...data, csrf: csrfOf(req, res) }));
  const session = async (req: Request) => {
    const value = cookies(req)[SESSION_COOKIE];
    return value ? store.findSession(sha256(value), clock().getTime()) : undefined;
  };
  const startSession = async (req: Request, res: Response, email: string) => {
    const value = token();
    await store.createSession(sha256(value), email, clock().getTime() + SESSION_MS);
    setCookie(req, res, SESSION_COOKIE, value, SESSION_MS);
  };
  const refuseCsrf = (res: Response) =>
    res.status(403).type('text').send('The form has expired or did not come from this site. Reload the page and try again.');

  router.get('/', async (req, res) => res.redirect(303, (await session(req)) ? '/account/settings' : '/account/sign-in'));

  router.get('/sign-up', (req, res) => page(req, res, 'sign-up', { title: 'Sign up' }));
  router.post('/sign-up', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(res);
    const email = String(req.body.email ?? '')
      .trim()
      .toLowerCase();
    const password = String(req.body.password ?? '');
    const again = (error: string, status = 400) => page(req, res, 'sign-up', { title: 'Sign up', error, emailValue: email }, status);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 200) return again('Enter a valid email address.');
    const weak = passwordProblem(password, email);
    if (weak) return again(weak);
    if (!(await store.createUser(email, await hashPassword(password))))
      return again('An account with this email already exists. Sign in instead.', 409);
    await startSession(req, res, email);
    res.redirect(303, '/account/settings');
  });

  router.get('/sign-in', (req, res) => page(req, res, 'sign-in', { title: 'Sign in' }));
  router.post('/sign-in', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(res);
    const email = String(req.body.email ?? '')
      .trim()
      .toLowerCase();
    const password = String(req.body.password ?? '');
    // Checked before the password: the 11th attempt in a minute for one account, or the 31st from one address (several
    // people may share it), is refused outright.
    const limits = [
      { key: `email:${email}`, max: 10 },
      { key: `ip:${req.ip ?? ''}`, max: 30 },
    ];
    if (!(await store.recordAttempt(limits, 60_000, clock().getTime()))) {
      res.set('Retry-After', '60');
      return page(
        req,
        res,
        'sign-in',
        { title: 'Sign in', error: 'Too many sign-in attempts. Wait a minute and try again.', emailValue: email },
        429,
      );
    }
    const user = await store.findUser(email);
    // An unknown email still costs one scrypt, so that both failures look and take the same.
    const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH).catch(() => false);
    if (!user || !ok) return page(req, res, 'sign-in', { title: 'Sign in', error: SAME_FOR_BOTH, emailValue: email }, 401);
    await startSession(req, res, user.email);
    res.redirect(303, '/account/settings');
  });

  router.post('/sign-out', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(res);
    const value = cookies(req)[SESSION_COOKIE];
    if (value) await store.deleteSession(sha256(value));
    res.clearCookie(SESSION_COOKIE, { path: '/account' });
    res.redirect(303, '/account/sign-in');
  });

  const settings = async (req: Request, res: Response) => {
    const who = await session(req);
    if (!who) return res.redirect(303, '/account/sign-in');
    const now = clock();
    const keys = await store.listKeys(who.account);
    const plan = accountPlan(keys);
    const limit = limitOf(config.planLimits, plan);
    const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'never');
    return page(req, res, 'settings', {
      title: 'Developer settings',
      signedIn: true,
      email: who.email,
      plan,
      used: await store.usage(who.account, periodOf(now)),
      limit: limit ?? 'unlimited',
      reset: nextPeriodStart(now).toISOString().slice(0, 10),
      keys: keys.map((k) => ({ prefix: k.prefix, created: day(k.createdAt), lastUsed: day(k.lastUsedAt), active: k.active })),
      newKey: await takeNewKey(req),
      baseUrl: `${req.protocol}://${req.get('host')}`,
    });
  };
  router.get('/settings', (req, res) => settings(req, res));

  /** The key created just before this page, once: read and removed in one step. */
  async function takeNewKey(req: Request): Promise<string | undefined> {
    const sessionToken = cookies(req)[SESSION_COOKIE];
    if (!sessionToken) return undefined;
    const sealed = await store.takeFlash(sha256(`flash:${sessionToken}`), clock().getTime());
    return sealed ? unseal(sealed, sessionToken) : undefined;
  }

  // Post/Redirect/Get: the key goes to the store for one read and the answer is a redirect, so that reloading the
  // page shows nothing new and creates nothing.
  router.post('/keys', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(res);
    const who = await session(req);
    if (!who) return res.redirect(303, '/account/sign-in');
    const sessionToken = cookies(req)[SESSION_COOKIE]!;
    const { key } = await store.createKey(who.account);
    await store.putFlash(sha256(`flash:${sessionToken}`), seal(key, sessionToken), clock().getTime() + FLASH_MS);
    res.redirect(303, '/account/settings');
  });

  const ownKey = async (account: string, prefix: string) => (await store.listKeys(account)).find((k) => k.prefix === prefix);
  router.get('/keys/:prefix/revoke', async (req, res) => {
    const who = await session(req);
    if (!who) return res.redirect(303, '/account/sign-in');
    const prefix = String(req.params.prefix);
    if (!(await ownKey(who.account, prefix))) return res.status(404).type('text').send('No such key.');
    return page(req, res, 'revoke', { title: 'Revoke key', signedIn: true, email: who.email, prefix });
  });
  router.post('/keys/:prefix/revoke', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(res);
    const who = await session(req);
    if (!who) return res.redirect(303, '/account/sign-in');
    const prefix = String(req.params.prefix);
    if (!(await ownKey(who.account, prefix))) return res.status(404).type('text').send('No such key.');
    await store.revokeKey(prefix);
    res.redirect(303, '/account/settings');
  });
  return router;
}
