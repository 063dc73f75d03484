// How many sign-in attempts are allowed, and the check itself: counted in the shared store (so several instances
// share one count), per email and per client address (the proxy-aware req.ip). Checked before the password, so a
// refused attempt costs no scrypt and tells nothing about the password. Does not answer the request: the route does.
import type { Request } from 'express';
import type { KeyStore } from '../../keys/key-store';

/** The window the attempts are counted in. */
export const SIGN_IN_WINDOW_MS = 60_000;
/** Attempts for one account within the window; the next is refused outright. */
export const SIGN_IN_ATTEMPTS_PER_EMAIL = 10;
/** Attempts from one client address within the window: more than per email, since several people may share one. */
export const SIGN_IN_ATTEMPTS_PER_ADDRESS = 30;
/** What a refused browser is told to wait (Retry-After): at most one window. */
export const SIGN_IN_RETRY_AFTER_SECONDS = SIGN_IN_WINDOW_MS / 1000;

/** Records one attempt for `email` from this client, or returns false (nothing recorded) when either is used up. */
export function recordSignIn(store: Pick<KeyStore, 'recordAttempt'>, req: Request, email: string, now: Date): Promise<boolean> {
  return store.recordAttempt(
    [
      { key: `email:${email}`, max: SIGN_IN_ATTEMPTS_PER_EMAIL },
      { key: `ip:${req.ip ?? ''}`, max: SIGN_IN_ATTEMPTS_PER_ADDRESS },
    ],
    SIGN_IN_WINDOW_MS,
    now.getTime(),
  );
}
