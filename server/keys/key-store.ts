// The store's interfaces, one per concern: accounts and their API keys (hashed), monthly usage, the people who sign
// in (users, sessions, one-time messages), the attempts behind the sign-in and wrong-key limits, and each account's
// brand. The service
// authenticates and counts quota with it; the keys CLI manages it. Each backend implements every part in a module of
// its own (sqlite/, redis/) and composes them into one KeyStore (composed-store.ts); each user of the store asks only
// for the part it needs. Both backends make a reservation atomic: the check of used + reserved against the limit and
// the new reservation happen as one step, so parallel requests never overshoot, within one instance or across many.

export type Plan = 'free' | 'paid';

/** An account's plan, from its keys (each carries its account's plan); an account without keys is on the free plan. */
export function accountPlan(keys: readonly { plan: Plan }[]): Plan {
  return keys[0]?.plan ?? 'free';
}
export const PLANS: readonly Plan[] = ['free', 'paid'];

export interface KeyInfo {
  prefix: string;
  account: string;
  plan: Plan;
  active: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export type AuthResult = { status: 'ok'; account: string; plan: Plan } | { status: 'unknown' } | { status: 'inactive' };

/** Accounts and their keys. */
export interface KeyRegistry {
  authenticate(key: string): Promise<AuthResult>;
  /** Creates the account if needed (with `plan`, default free; an existing account takes `plan` when given). */
  createKey(account: string, plan?: Plan): Promise<{ key: string; info: KeyInfo }>;
  listKeys(account?: string): Promise<KeyInfo[]>;
  /** Revokes a key given whole or by its displayed prefix. Throws when a prefix matches several keys. */
  revokeKey(keyOrPrefix: string): Promise<KeyInfo | undefined>;
  countKeys(): Promise<number>;
  /** Sets an existing account's plan; false when there is no such account. */
  setPlan(account: string, plan: Plan): Promise<boolean>;
}

/** What a reservation saw, in the same atomic step that made it (or refused it). */
export interface Reservation {
  /** The reservation ids (one per document), or undefined when the limit refused them (nothing was reserved). */
  ids: string[] | undefined;
  /** used + reserved for the account and period before this reservation: the quota's remaining is read from it. */
  seen: number;
}

/** Monthly usage and the reservations that make the quota exact under concurrency. */
export interface UsageStore {
  /**
   * Reserves `count` documents (1 for a single request, a batch's size) of `period` (YYYY-MM) for `account`, all or
   * none: when used + reserved + `count` is within `limit`. Reservations older than `ttlMs` no longer count (a
   * crashed instance cannot hold quota forever). The check, the count it returns and the reservations are one
   * atomic step. `ids`: the reservations' ids (`count` of them; made here when absent), known to the caller before
   * the call, so that a reservation whose outcome a lost connection hid can still be released.
   */
  reserve(account: string, period: string, limit: number, ttlMs: number, now: Date, count?: number, ids?: string[]): Promise<Reservation>;
  /** Counts one document as used and drops its reservation (unlimited plans reserve nothing). `id` is the document's
   * (its reservation's, or its own): a commit repeated with the same id counts once, so that a commit whose outcome
   * was lost with a connection can be sent again. */
  commit(account: string, period: string, id: string): Promise<void>;
  /** Drops a reservation without counting anything. */
  release(account: string, period: string, reservation: string): Promise<void>;
  /** Documents counted for `account` in `period`. */
  usage(account: string, period: string): Promise<number>;
  /** Adds `count` used documents (operators' corrections, tests). */
  addUsage(account: string, period: string, count: number): Promise<void>;
}

/** People who sign in to manage an account (the account is named by the email it was signed up with). */
export interface UserStore {
  /** Creates the user and its free-plan account; false when the email is taken. */
  createUser(email: string, passwordHash: string): Promise<boolean>;
  findUser(email: string): Promise<{ email: string; passwordHash: string; account: string } | undefined>;
  /** Sessions are stored by the hash of their token; they expire at `expiresAt` (ms). */
  createSession(tokenHash: string, email: string, expiresAt: number): Promise<void>;
  findSession(tokenHash: string, now: number): Promise<{ email: string; account: string } | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Keeps `value` under `id` until `expiresAt` (ms) or until it is taken, whichever is first (one-time messages). */
  putFlash(id: string, value: string, expiresAt: number): Promise<void>;
  /** The value under `id`, removed in the same step; undefined when there is none (or it expired). */
  takeFlash(id: string, now: number): Promise<string | undefined>;
}

/** Attempts counted in a sliding window (sign-ins per email and address, sign-ups and wrong API keys per address). */
export interface AttemptStore {
  /**
   * Records one attempt under each key if none has reached its limit within the last `windowMs`; false (nothing
   * recorded) otherwise. Shared by every instance that shares the store, like the quota. Limits of different
   * windows share the store (a minute, an hour): each key keeps its attempts for its own window.
   */
  recordAttempt(keys: { key: string; max: number }[], windowMs: number, now: number): Promise<boolean>;
}

/** Each account's brand (PUT /brand): its settings as JSON text (documents/brand.ts), never another account's. */
export interface BrandStore {
  /** The account's brand as stored, or undefined when it has none. */
  getBrand(account: string): Promise<string | undefined>;
  /** Replaces the account's brand (undefined: removes it). */
  putBrand(account: string, brand: string | undefined): Promise<void>;
}

/** An account's brand as a backend holds it: its text, and a stamp every write changes (a new random one; '' for a
 * brand written before stamps were kept, which only its next write stamps). */
export interface StampedBrand {
  text: string;
  stamp: string;
}

/** What SQLite and Redis keep of brands; cached-brands.ts makes the BrandStore of it. An account's stamp is a few
 * bytes to read where its brand may be megabytes (a logo), so a document reads the stamp and the brand only when the
 * stamp is not the one it holds: a change made through any instance is seen by every other at once. */
export interface BrandBackend {
  /** The account's brand's stamp, or undefined when it has none. */
  brandStamp(account: string): Promise<string | undefined>;
  /** The account's brand and its stamp, read together, or undefined when it has none. */
  stampedBrand(account: string): Promise<StampedBrand | undefined>;
  /** Replaces the account's brand, with a new stamp (undefined: removes both). */
  putBrand(account: string, brand: string | undefined): Promise<void>;
}

/** Whether the store answers, and its end. */
export interface StoreHealth {
  /** Whether the store answers (SQLite: its file is still the one opened; Redis: connected), for readiness. */
  check(): Promise<boolean>;
  close(): Promise<void>;
}

/** The whole store, as each backend composes it (composed-store.ts). */
export interface KeyStore extends KeyRegistry, UsageStore, UserStore, AttemptStore, BrandStore, StoreHealth {}

export class KeyStoreError extends Error {}
