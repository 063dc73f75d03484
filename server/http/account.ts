// The account pages under /account: sign up, sign in, sign out, and the developer settings page (usage, API keys:
// New, shown once, revoke with a confirmation). Server-rendered (render/pages.ts), no front-end framework.
// Security: scrypt passwords; a session cookie (HttpOnly, SameSite=Lax, Secure behind TLS) whose token is stored only
// hashed; a CSRF token on every form (double submit: a cookie and a hidden field that must match); one message for an
// unknown email and a wrong password; sign-in attempts limited per email and per address, counted in the shared store
// (so several instances share one count). The API stays Bearer-only:
// nothing here authorizes POST / or POST /ubl.
import crypto from 'node:crypto';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { projectRoot, type Config } from '../config';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../accounts/passwords';
import type { KeyStore } from '../keys/key-store';
import { nextPeriodStart, periodOf } from '../quota/quota';
import { loadPages } from '../render/pages';

const SESSION_COOKIE = 'docgen_session';
const CSRF_COOKIE = 'docgen_csrf';
const SESSION_MS = 12 * 3600 * 1000;
const SAME_FOR_BOTH = 'Email or password is incorrect.';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const token = () => crypto.randomBytes(32).toString('base64url');

function cookies(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

/** Secure when the request reached us over TLS, directly or through the proxy. */
function secure(req: Request): boolean {
  return req.secure || req.get('x-forwarded-proto') === 'https';
}

export function accountRouter(store: KeyStore, config: Pick<Config, 'planLimits'>, clock: () => Date = () => new Date()): Router {
  const router = express.Router();
  const pages = loadPages(path.join(projectRoot(), 'templates', 'account'));
  router.use('/assets', express.static(path.join(projectRoot(), 'public', 'account')));
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));

  const setCookie = (req: Request, res: Response, name: string, value: string, maxAgeMs?: number) =>
    res.cookie(name, value, { httpOnly: true, sameSite: 'lax', secure: secure(req), path: '/account', ...(maxAgeMs ? { maxAge: maxAgeMs } : {}) });

  /** The CSRF token of this browser (set when missing). */
  const csrfOf = (req: Request, res: Response): string => {
    let value = cookies(req)[CSRF_COOKIE];
    if (!value || !/^[\w-]{40,}$/.test(value)) {
      value = token();
      setCookie(req, res, CSRF_COOKIE, value);
    }
    return value;
  };
  const csrfOk = (req: Request): boolean => {
    const cookie = cookies(req)[CSRF_COOKIE];
    const field = (req.body as { csrf?: string } | undefined)?.csrf;
    return Boolean(cookie && field && cookie.length === field.length && crypto.timingSafeEqual(Buffer.from(cookie), Buffer.from(field)));
  };
  const page = (req: Request, res: Response, name: string, data: Record<string, unknown>, status = 200) =>
    res.status(status).type('html').set('Cache-Control', 'no-store').send(pages.render(name, { ...data, csrf: csrfOf(req, res) }));
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
    const email = String(req.body.email ?? '').trim().toLowerCase();
    const password = String(req.body.password ?? '');
    const again = (error: string, status = 400) => page(req, res, 'sign-up', { title: 'Sign up', error, emailValue: email }, status);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 200) return again('Enter a valid email address.');
    if (password.length < 10 || password.length > 200) return again('Choose a password of 10 to 200 characters.');
    if (!(await store.createUser(email, await hashPassword(password)))) return again('An account with this email already exists. Sign in instead.', 409);
    await startSession(req, res, email);
    res.redirect(303, '/account/settings');
  });

  router.get('/sign-in', (req, res) => page(req, res, 'sign-in', { title: 'Sign in' }));
  router.post('/sign-in', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(res);
    const email = String(req.body.email ?? '').trim().toLowerCase();
    const password = String(req.body.password ?? '');
    // Checked before the password: the 11th attempt in a minute for one account, or the 31st from one address (several
    // people may share it), is refused outright.
    const limits = [{ key: `email:${email}`, max: 10 }, { key: `ip:${req.socket.remoteAddress ?? ''}`, max: 30 }];
    if (!(await store.recordAttempt(limits, 60_000, clock().getTime()))) {
      res.set('Retry-After', '60');
      return page(req, res, 'sign-in', { title: 'Sign in', error: 'Too many sign-in attempts. Wait a minute and try again.', emailValue: email }, 429);
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

  const settings = async (req: Request, res: Response, extra: Record<string, unknown> = {}) => {
    const who = await session(req);
    if (!who) return res.redirect(303, '/account/sign-in');
    const now = clock();
    const keys = await store.listKeys(who.account);
    const plan = keys[0]?.plan ?? 'free';
    const limit = plan === 'paid' ? config.planLimits.paid : config.planLimits.free;
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
      baseUrl: `${req.protocol}://${req.get('host')}`,
      ...extra,
    });
  };
  router.get('/settings', (req, res) => settings(req, res));

  router.post('/keys', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(res);
    const who = await session(req);
    if (!who) return res.redirect(303, '/account/sign-in');
    const { key } = await store.createKey(who.account);
    // Shown in this response only; a reload shows the list without it.
    return settings(req, res, { newKey: key });
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
