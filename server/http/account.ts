// The account pages under /account: sign up, sign in, sign out, and the developer settings page (usage, API keys:
// New, shown once, revoke with a confirmation; the account's brand, checked as PUT /brand checks it). Server-rendered (account/pages.ts, read at start-up), no front-end framework. This module
// is the routes only; the rules live beside it in account/: cookies and the origin check (cookies.ts), sessions whose
// token is stored only hashed (session.ts), the CSRF token on every form and the Origin check on every POST
// (csrf.ts), the one-time display of a new key (flash.ts), the sign-in attempt limits (sign-in-limits.ts), the
// sign-up limit per client address (sign-up-limits.ts), and the pages' errors as HTML through the error catalogue
// (error-page.ts).
// Security: scrypt passwords (12 characters or more, not the email, not one character repeated); one spelling per
// mailbox and no hidden characters in emails (accounts/emails.ts); one message for an unknown email and a wrong
// password. The API stays Bearer-only: nothing here authorizes POST /.
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { projectRoot, type Config } from '../config';
import { emailProblem, normalizeEmail } from '../accounts/emails';
import { dummyHash, hashPassword, passwordProblem, verifyPassword } from '../accounts/passwords';
import { DomainError } from '../errors';
import type { Brand } from '../documents/brand';
import { accountPlan, type KeyStore } from '../keys/key-store';
import { limitOf, nextPeriodStart, periodOf } from '../quota/quota';
import type { PageRenderer } from './account/pages';
import { csrfOf, csrfOk, sameOriginPosts } from './account/csrf';
import { pageErrors, sendPageError, type FormAgain } from './account/error-page';
import { newKeyFlash, type NewKeyFlash } from './account/flash';
import { sessions, type Sessions } from './account/session';
import { recordSignIn, SIGN_IN_RETRY_AFTER_SECONDS } from './account/sign-in-limits';
import { recordSignUp, SIGN_UP_RETRY_AFTER_SECONDS } from './account/sign-up-limits';
import { accountErrors } from './account/errors';

const SIGN_IN = '/account/sign-in';
const SETTINGS = '/account/settings';

type AccountConfig = Pick<Config, 'planLimits' | 'signUpsPerHour'>;

/** The brand form's choices and its check (the pipeline's, as PUT /brand: documents/brand.ts, the logo fetched once). */
export interface BrandForm {
  check(body: Record<string, unknown>): Promise<Brand>;
  themes: readonly string[];
  fonts: readonly string[];
  languages: readonly string[];
}

/** The brand's fields as the form sends them. */
const BRAND_FIELDS = ['theme', 'accent_color', 'text_color', 'font', 'logo', 'footer', 'language', 'page_size'] as const;

/** A form field as one string: '' when it is missing or not one string (a repeated field is an array). */
const fieldOf = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};
/** The email of a form, in the one spelling that names its account (accounts/emails.ts). */
const emailOf = (req: Request) => normalizeEmail(fieldOf(req, 'email'));
const passwordOf = (req: Request) => fieldOf(req, 'password');

/** What the routes share: the store, sessions, the new key's flash, and the two answers (a page, an error). */
interface Account {
  store: KeyStore;
  config: AccountConfig;
  clock: () => Date;
  brand?: BrandForm;
  session: Sessions;
  flash: NewKeyFlash;
  page(req: Request, res: Response, name: string, data: Record<string, unknown>): void;
  /** An error answer: the form shown again with the message (it keeps its CSRF token), or the error page. */
  fail(req: Request, res: Response, err: DomainError, form?: FormAgain): void;
  refuseCsrf(req: Request, res: Response): void;
}

export function accountRouter(
  store: KeyStore,
  pages: PageRenderer,
  config: AccountConfig,
  clock: () => Date = () => new Date(),
  brand?: BrandForm,
): Router {
  const router = express.Router();
  const account = accountOf(store, pages, config, clock, brand);
  // The hash an unknown email is checked against, made now with the current parameters (passwords.ts).
  void dummyHash();
  router.use('/assets', express.static(path.join(projectRoot(), 'public', 'account')));
  // Forms are small; the brand form may carry a logo as a data: URI (as PUT /brand may).
  const forms = express.urlencoded({ extended: false, limit: '16kb' });
  const brandForm = express.urlencoded({ extended: false, limit: '3mb' });
  router.use((req, res, next) => (req.path === '/brand' ? brandForm : forms)(req, res, next));
  router.use(sameOriginPosts(account.refuseCsrf));

  router.get('/', async (req, res) => res.redirect(303, (await account.session.find(req)) ? SETTINGS : SIGN_IN));
  signUpRoutes(router, account);
  signInRoutes(router, account);
  settingsRoute(router, account);
  keyRoutes(router, account);
  brandRoute(router, account);

  // Anything else under /account, and the refusals that come before a route (a body too large or not readable, a
  // key prefix that does not decode), answer as pages too, never as the API's JSON.
  router.use((req, res) => account.fail(req, res, accountErrors.pageNotFound()));
  router.use(pageErrors(pages));
  return router;
}

function accountOf(store: KeyStore, pages: PageRenderer, config: AccountConfig, clock: () => Date, brand?: BrandForm): Account {
  const fail = (req: Request, res: Response, err: DomainError, form?: FormAgain) =>
    sendPageError(res, pages, err, form && { name: form.name, data: { ...form.data, csrf: csrfOf(req, res) } });
  return {
    store,
    config,
    clock,
    brand,
    session: sessions(store, clock),
    flash: newKeyFlash(store, clock),
    page: (req, res, name, data) =>
      res
        .type('html')
        .set('Cache-Control', 'no-store')
        .send(pages.render(name, { ...data, csrf: csrfOf(req, res) })),
    fail,
    refuseCsrf: (req, res) => fail(req, res, accountErrors.formExpired()),
  };
}

function signUpRoutes(router: Router, { store, config, clock, session, page, fail, refuseCsrf }: Account): void {
  router.get('/sign-up', (req, res) => page(req, res, 'sign-up', { title: 'Sign up' }));
  router.post('/sign-up', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(req, res);
    const email = emailOf(req);
    const password = passwordOf(req);
    const again = (err: DomainError) => fail(req, res, err, { name: 'sign-up', data: { title: 'Sign up', emailValue: email } });
    const bad = emailProblem(email);
    if (bad) return again(accountErrors.invalidEmail(bad));
    const weak = passwordProblem(password, email);
    if (weak) return again(accountErrors.weakPassword(weak));
    // A valid form counts against its address's sign-ups, taken email or not (each costs a scrypt and tells whether
    // the email has an account); one over the limit is refused before the password is hashed.
    if (!(await recordSignUp(store, req, config.signUpsPerHour, clock())))
      return again(accountErrors.tooManySignUps(SIGN_UP_RETRY_AFTER_SECONDS));
    if (!(await store.createUser(email, await hashPassword(password)))) return again(accountErrors.emailTaken());
    await session.start(req, res, email);
    res.redirect(303, SETTINGS);
  });
}

function signInRoutes(router: Router, { store, clock, session, page, fail, refuseCsrf }: Account): void {
  router.get('/sign-in', (req, res) => page(req, res, 'sign-in', { title: 'Sign in' }));
  router.post('/sign-in', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(req, res);
    const email = emailOf(req);
    const password = passwordOf(req);
    const again = (err: DomainError) => fail(req, res, err, { name: 'sign-in', data: { title: 'Sign in', emailValue: email } });
    // Checked before the password: an attempt over the limits is refused outright.
    if (!(await recordSignIn(store, req, email, clock()))) return again(accountErrors.tooManySignIns(SIGN_IN_RETRY_AFTER_SECONDS));
    const user = await store.findUser(email);
    // An unknown email (or an unreadable stored hash) still costs one scrypt of the same parameters, so that every
    // answer takes the same time and both failures look the same.
    const ok = await verifyPassword(password, user?.passwordHash);
    if (!user || !ok) return again(accountErrors.wrongCredentials());
    await session.start(req, res, user.email);
    res.redirect(303, SETTINGS);
  });

  router.post('/sign-out', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(req, res);
    await session.end(req, res);
    res.redirect(303, SIGN_IN);
  });
}

/** What the settings page shows: usage, keys, the new key once, and the brand form with its choices. */
async function settingsData(req: Request, who: { email: string; account: string }, account: Account): Promise<Record<string, unknown>> {
  const { store, config, clock, flash } = account;
  const now = clock();
  const keys = await store.listKeys(who.account);
  const plan = accountPlan(keys);
  const limit = limitOf(config.planLimits, plan);
  const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'never');
  return {
    title: 'Developer settings',
    signedIn: true,
    email: who.email,
    plan,
    used: await store.usage(who.account, periodOf(now)),
    limit: limit ?? 'unlimited',
    reset: nextPeriodStart(now).toISOString().slice(0, 10),
    keys: keys.map((k) => ({ prefix: k.prefix, created: day(k.createdAt), lastUsed: day(k.lastUsedAt), active: k.active })),
    newKey: await flash.take(req),
    baseUrl: `${req.protocol}://${req.get('host')}`,
    brand: account.brand && (await brandFormData(account.brand, await storedBrand(store, who.account))),
  };
}

async function storedBrand(store: KeyStore, account: string): Promise<Brand> {
  const text = await store.getBrand(account);
  try {
    return text ? (JSON.parse(text) as Brand) : {};
  } catch {
    return {};
  }
}

/** The form's values and its selects' options, the stored brand's chosen. */
async function brandFormData(form: BrandForm, brand: Brand): Promise<Record<string, unknown>> {
  const options = (values: readonly string[], chosen: string | undefined) => [
    { value: '', label: 'the request’s or the default', selected: chosen === undefined },
    ...values.map((value) => ({ value, label: value, selected: value === chosen })),
  ];
  return {
    ...brand,
    logo: undefined,
    hasLogo: brand.logo !== undefined,
    logoPreview: brand.logo?.startsWith('data:image/') ? brand.logo : undefined,
    themes: options(form.themes, brand.theme),
    fonts: options(form.fonts, brand.font),
    languages: options(form.languages, brand.language?.split(/[-_]/)[0]),
    papers: options(['letter', 'a4'], brand.page_size),
  };
}

function settingsRoute(router: Router, account: Account): void {
  const { session, page } = account;
  router.get('/settings', async (req, res) => {
    const who = await session.find(req);
    if (!who) return res.redirect(303, SIGN_IN);
    return page(req, res, 'settings', await settingsData(req, who, account));
  });
}

/** POST /account/brand: the form's brand checked as PUT /brand checks it and stored (Save), or removed (Clear). An
 * empty logo keeps the stored one unless "remove the logo" is ticked. */
function brandRoute(router: Router, account: Account): void {
  const { store, session, fail, refuseCsrf, brand: form } = account;
  if (!form) return;
  router.post('/brand', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(req, res);
    const who = await session.find(req);
    if (!who) return res.redirect(303, SIGN_IN);
    if (fieldOf(req, 'action') === 'clear') {
      await store.putBrand(who.account, undefined);
      return res.redirect(303, SETTINGS);
    }
    const sent: Record<string, unknown> = {};
    for (const field of BRAND_FIELDS) {
      const value = fieldOf(req, field).trim();
      if (value !== '') sent[field] = field === 'footer' ? fieldOf(req, field).replace(/\r\n?/g, '\n').trim() : value;
    }
    const before = await storedBrand(store, who.account);
    if (sent.logo === undefined && before.logo && fieldOf(req, 'remove_logo') !== 'yes') sent.logo = before.logo;
    try {
      const brand = await form.check(sent);
      await store.putBrand(who.account, Object.keys(brand).length > 0 ? JSON.stringify(brand) : undefined);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const data = await settingsData(req, who, account);
      return fail(req, res, err, {
        name: 'settings',
        data: { ...data, brand: await brandFormData(form, sent as Brand), brandError: true },
      });
    }
    res.redirect(303, SETTINGS);
  });
}

function keyRoutes(router: Router, { store, session, flash, page, fail, refuseCsrf }: Account): void {
  // Post/Redirect/Get: the key goes to the store for one read and the answer is a redirect, so that reloading the
  // page shows nothing new and creates nothing.
  router.post('/keys', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(req, res);
    const who = await session.find(req);
    if (!who) return res.redirect(303, SIGN_IN);
    const { key } = await store.createKey(who.account);
    await flash.put(req, key);
    res.redirect(303, SETTINGS);
  });

  const ownKey = async (account: string, prefix: string) => (await store.listKeys(account)).find((k) => k.prefix === prefix);
  router.get('/keys/:prefix/revoke', async (req, res) => {
    const who = await session.find(req);
    if (!who) return res.redirect(303, SIGN_IN);
    const prefix = String(req.params.prefix);
    if (!(await ownKey(who.account, prefix))) return fail(req, res, accountErrors.keyNotFound());
    return page(req, res, 'revoke', { title: 'Revoke key', signedIn: true, email: who.email, prefix });
  });
  router.post('/keys/:prefix/revoke', async (req, res) => {
    if (!csrfOk(req)) return refuseCsrf(req, res);
    const who = await session.find(req);
    if (!who) return res.redirect(303, SIGN_IN);
    const prefix = String(req.params.prefix);
    if (!(await ownKey(who.account, prefix))) return fail(req, res, accountErrors.keyNotFound());
    await store.revokeKey(prefix);
    res.redirect(303, SETTINGS);
  });
}
