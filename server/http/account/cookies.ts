// The account pages' cookies and the one question about the request's origin: reading cookies, setting them
// (HttpOnly, SameSite=Lax, Secure behind TLS, scoped to /account), and whether an Origin header names this site.
// Knows nothing of sessions, CSRF tokens or the store: it only reads and writes headers.
import { parse as parseCookies } from 'cookie';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'docgen_session';
export const CSRF_COOKIE = 'docgen_csrf';
/** Every account cookie is sent back only to the account pages, never to the API. */
export const COOKIE_PATH = '/account';

/** The request's cookies (npm cookie: a malformed value such as `a=%` is kept as sent, never an exception). */
export function cookies(req: Request): Record<string, string | undefined> {
  return parseCookies(req.get('cookie') ?? '');
}

/** Secure when the request reached us over TLS, directly or through a proxy (trusted by TRUST_PROXY, or saying so in
 * X-Forwarded-Proto: a client that lies about it only makes its own browser withhold the cookie). */
export function secure(req: Request): boolean {
  return req.secure || req.get('x-forwarded-proto') === 'https';
}

/** Whether an Origin header names this site: its host (and port) is the one the request was sent to. The scheme is
 * not compared: behind a TLS proxy the service sees http while the browser says https. */
export function sameSite(origin: string, req: Request): boolean {
  try {
    return (
      new URL(origin).host === (req.get('x-forwarded-host') && req.app.get('trust proxy') ? req.get('x-forwarded-host') : req.get('host'))
    );
  } catch {
    return false;
  }
}

/** Sets an account cookie; without `maxAgeMs` it lasts as long as the browser session. */
export function setCookie(req: Request, res: Response, name: string, value: string, maxAgeMs?: number): void {
  res.cookie(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(req),
    path: COOKIE_PATH,
    ...(maxAgeMs ? { maxAge: maxAgeMs } : {}),
  });
}
