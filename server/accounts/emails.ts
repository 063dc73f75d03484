// Emails as they name accounts: one spelling per mailbox, and nothing in it that a person cannot see. The form's
// value loses the ASCII whitespace around it (as a browser's email field does), is composed (Unicode NFC) and
// lower-cased, so that `A@B.co`, ` a@b.co ` and an `é` typed as e + U+0301 are the mailbox already signed up; an
// email that still holds a control, whitespace or invisible character (C0, DEL, C1, U+2028/9, zero-width and bidi
// controls, tags, variation selectors, unassigned code points) is refused, never cleaned: `a@b.co` + NUL is not
// quietly `a@b.co`. Used alike by sign-up and sign-in, and so alike for the SQLite and the Redis store.

/** The longest email accepted (the store's keys and the pages' values stay small). */
export const MAX_EMAIL_LENGTH = 200;

const AROUND = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;
/** Controls (C0, DEL, C1), format characters (zero-width, bidi, BOM, soft hyphen, tags), surrogates, private use,
 * unassigned code points, every kind of space and line separator, the other default-ignorable characters (Hangul
 * fillers, variation selectors, the combining grapheme joiner), the blank braille pattern, and the replacement
 * character U+FFFD (what a form's bytes that were not UTF-8, %ED%A0%80, are read as: no mailbox is named with it). */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Z}\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800\uFFFD]/u;

/** The one spelling of the email a form holds: a value that is not one string (missing, repeated) is ''. */
export function normalizeEmail(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.replace(AROUND, '').normalize('NFC').toLowerCase().normalize('NFC');
}

/** Why a (normalized) email cannot name a new account, or undefined. */
export function emailProblem(email: string): string | undefined {
  if (HIDDEN.test(email)) return 'Enter your email address without spaces, control or invisible characters.';
  if (email.length > MAX_EMAIL_LENGTH || !/^[^@]+@[^@]+\.[^@]+$/.test(email)) return 'Enter a valid email address.';
  return undefined;
}
