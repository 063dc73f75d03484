// The errors of the account pages (sign-up, sign-in, keys): a form that is not valid or has expired, credentials that
// do not match, a key or page that is not there, and the sign-in and sign-up limits. Each is a DomainError with a code
// of server/errors.ts; the account pages show them (error-page.ts), never the API.
import { DomainError } from '../../errors';

export const accountErrors = {
  /** Account pages: the sign-up email is not an email address, or holds hidden characters (accounts/emails.ts). */
  invalidEmail(reason = 'Enter a valid email address.'): DomainError {
    return new DomainError('invalid_form', reason);
  },
  /** Account pages: the new password breaks the policy; `reason` says which rule (accounts/passwords.ts). */
  weakPassword(reason: string): DomainError {
    return new DomainError('invalid_form', reason);
  },
  /** Account pages: one sentence for an unknown email and a wrong password, so that neither is told apart. */
  wrongCredentials(): DomainError {
    return new DomainError('wrong_credentials', 'Email or password is incorrect.');
  },
  /** Account pages: a form without a valid CSRF token, or posted from another site. */
  formExpired(): DomainError {
    return new DomainError('form_expired', 'The form has expired or did not come from this site. Reload the page and try again.');
  },
  /** Account pages: the signed-in account has no key with this prefix (someone else's key is no key at all). */
  keyNotFound(): DomainError {
    return new DomainError('key_not_found', 'No such key.');
  },
  /** Account pages: a path under /account that is none of the pages. */
  pageNotFound(): DomainError {
    return new DomainError('not_found', 'No such page. Your account is at /account.');
  },
  emailTaken(): DomainError {
    return new DomainError('email_taken', 'An account with this email already exists. Sign in instead.');
  },
  /** Account pages: the sign-in attempts of an email or of a client address are used up for the window. */
  tooManySignIns(retryAfterSeconds: number): DomainError {
    const wait = retryAfterSeconds === 60 ? 'a minute' : `${retryAfterSeconds} s`;
    return new DomainError('too_many_sign_ins', `Too many sign-in attempts. Wait ${wait} and try again.`, { retryAfterSeconds });
  },
  /** Account pages: the sign-ups of a client address are used up for the window (SIGN_UPS_PER_HOUR). */
  tooManySignUps(retryAfterSeconds: number): DomainError {
    const wait = retryAfterSeconds === 3600 ? 'an hour' : `${retryAfterSeconds} s`;
    return new DomainError('too_many_sign_ups', `Too many sign-ups from your address. Wait ${wait} and try again.`, { retryAfterSeconds });
  },
};
