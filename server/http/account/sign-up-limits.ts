// How many accounts one client may sign up, and the check itself: counted in the shared store like the sign-in
// attempts (sign-in-limits.ts), per client address (the proxy-aware req.ip: behind TRUST_PROXY the client's, not the
// proxy's), SIGN_UPS_PER_HOUR within a sliding hour. Checked once the form is valid and before the password is hashed,
// so a refused sign-up costs no scrypt and makes no account; a form refused as invalid counts nothing. Does not answer
// the request: the route does.
import type { Request } from 'express';
import type { KeyStore } from '../../keys/key-store';

/** The window the sign-ups are counted in. */
export const SIGN_UP_WINDOW_MS = 3600_000;
/** What a refused browser is told to wait (Retry-After): at most one window. */
export const SIGN_UP_RETRY_AFTER_SECONDS = SIGN_UP_WINDOW_MS / 1000;

/** Records one sign-up from this client, or returns false (nothing recorded) when its `perHour` are used up; 0: no
 * limit (nothing is recorded). */
export function recordSignUp(store: Pick<KeyStore, 'recordAttempt'>, req: Request, perHour: number, now: Date): Promise<boolean> {
  if (perHour === 0) return Promise.resolve(true);
  return store.recordAttempt([{ key: `sign-up:${req.ip ?? ''}`, max: perHour }], SIGN_UP_WINDOW_MS, now.getTime());
}
