// Cross-site request forgery: a token on every form and the Origin header on every POST. Signed in, the token is
// derived from the session token (worth nothing with another session); before that, it is a random value in its own
// cookie that the hidden field must match. What a refusal looks like is the caller's (the router passes it in).
import crypto from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { CSRF_COOKIE, cookies, sameSite, setCookie } from './cookies';
import { derive, newToken, sessionTokenOf } from './session';

/** The token a signed-in browser's forms carry. */
const sessionCsrf = (sessionToken: string) => derive('csrf', sessionToken).toString('base64url');

/** The CSRF token for this browser's forms: derived from its session token when it has one, else a random one in its
 * own cookie (set when missing or not one of ours). */
export function csrfOf(req: Request, res: Response): string {
  const sessionToken = sessionTokenOf(req);
  if (sessionToken) return sessionCsrf(sessionToken);
  let value = cookies(req)[CSRF_COOKIE];
  if (!value || !/^[\w-]{40,}$/.test(value)) {
    value = newToken();
    setCookie(req, res, CSRF_COOKIE, value);
  }
  return value;
}

/** Whether the posted form's `csrf` field is this browser's token (compared in constant time). */
export function csrfOk(req: Request): boolean {
  const sessionToken = sessionTokenOf(req);
  const expected = sessionToken ? sessionCsrf(sessionToken) : cookies(req)[CSRF_COOKIE];
  const field = (req.body as { csrf?: string } | undefined)?.csrf;
  return Boolean(
    expected &&
    typeof field === 'string' &&
    expected.length === field.length &&
    crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(field)),
  );
}

/**
 * Every form POST must come from a page of this site: a browser names the page's origin in Origin, and a POST whose
 * Origin names another site (or `null`) goes to `refuse`. A POST without Origin passes on to the token check. (With
 * helmet's `no-referrer` policy a browser sends `Origin: null` even from our own pages, so these pages say
 * `same-origin`.)
 */
export function sameOriginPosts(refuse: (req: Request, res: Response) => void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    res.set('Referrer-Policy', 'same-origin');
    const origin = req.get('origin');
    if (req.method !== 'POST' || !origin) return next();
    if (!sameSite(origin, req)) return refuse(req, res);
    next();
  };
}
