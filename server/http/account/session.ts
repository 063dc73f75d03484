// Sessions of the account pages: a random token in the session cookie, stored only as its SHA-256 (a copy of the
// store signs nobody in), 12 hours long; and the secrets derived from that token (the CSRF token, the key that seals
// a new API key), so that each is worth nothing with another session. Does not decide who may do what: the routes do.
import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import type { KeyStore } from '../../keys/key-store';
import { COOKIE_PATH, SESSION_COOKIE, cookies, setCookie } from './cookies';

export const SESSION_MS = 12 * 3600 * 1000;

export const sha256 = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');
/** 32 random bytes, URL-safe: session tokens and the CSRF token of a browser not yet signed in. */
export const newToken = (): string => crypto.randomBytes(32).toString('base64url');
/** A secret for one `purpose`, derived from the session token (which only the browser holds). */
export const derive = (purpose: string, sessionToken: string): Buffer =>
  crypto.createHash('sha256').update(`${purpose}:${sessionToken}`).digest();

/** The session token the browser sent, if any (not checked against the store). */
export function sessionTokenOf(req: Request): string | undefined {
  return cookies(req)[SESSION_COOKIE];
}

export interface Sessions {
  /** The signed-in person, or undefined (no cookie, an unknown or expired token). */
  find(req: Request): Promise<{ email: string; account: string } | undefined>;
  /** Signs `email` in: a new token, stored hashed, sent in the session cookie. */
  start(req: Request, res: Response, email: string): Promise<void>;
  /** Signs out: the stored session is deleted and the cookie cleared. */
  end(req: Request, res: Response): Promise<void>;
}

export function sessions(store: Pick<KeyStore, 'createSession' | 'findSession' | 'deleteSession'>, clock: () => Date): Sessions {
  return {
    async find(req) {
      const value = sessionTokenOf(req);
      return value ? store.findSession(sha256(value), clock().getTime()) : undefined;
    },
    async start(req, res, email) {
      const value = newToken();
      await store.createSession(sha256(value), email, clock().getTime() + SESSION_MS);
      setCookie(req, res, SESSION_COOKIE, value, SESSION_MS);
    },
    async end(req, res) {
      const value = sessionTokenOf(req);
      if (value) await store.deleteSession(sha256(value));
      res.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH });
    },
  };
}
