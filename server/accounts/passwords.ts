// Password hashing with node:crypto scrypt (N=2^15, r=8, p=1), a random 16-byte salt per user, and a constant-time
// comparison. Stored as `scrypt$N$r$p$salt$hash` (base64url), so the cost can be raised later per user. Every
// verification runs one scrypt, also for an unknown email or an unreadable stored hash (against a dummy hash made at
// start-up with the current parameters), so that its time tells nothing about who has an account.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** A stored hash's parts, or undefined when it is not one this module wrote (another scheme, a part missing, a
 * number or a base64url part that does not parse). */
function parseHash(stored: string): { salt: Buffer; hash: Buffer; options: crypto.ScryptOptions } | undefined {
  const m = /^scrypt\$(\d{1,10})\$(\d{1,4})\$(\d{1,4})\$([\w-]{22,86})\$([\w-]{43,86})$/.exec(stored);
  if (!m) return undefined;
  return {
    salt: Buffer.from(m[4]!, 'base64url'),
    hash: Buffer.from(m[5]!, 'base64url'),
    options: { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]), maxmem: MAXMEM },
  };
}

let dummy: Promise<string> | undefined;

/**
 * The hash an unknown email (or a stored hash that cannot be read) is checked against, so that every sign-in costs
 * one scrypt of the same parameters: a real hash of a random password, made with the current parameters the first
 * time it is asked for (the account router asks when it is built, at start-up), so it can never drift from them.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomBytes(32).toString('base64url'));
  return dummy;
}

/**
 * Whether `password` is the one `stored` was made of. Always runs one scrypt: with the stored hash's parameters, or,
 * when there is no stored hash (an unknown email) or it cannot be read or used, with the dummy's, which are the
 * current ones; the answer is then false. So an unknown email, a wrong password and a right one take the same time.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parts = stored === undefined ? undefined : parseHash(stored);
  if (parts) {
    try {
      const actual = await scrypt(password, parts.salt, parts.hash.length, parts.options);
      return crypto.timingSafeEqual(actual, parts.hash);
    } catch {
      // Parameters scrypt refuses (N not a power of two, over the memory bound): as unreadable as a malformed hash.
    }
  }
  const fallback = parseHash(await dummyHash())!;
  await scrypt(password, fallback.salt, fallback.hash.length, fallback.options);
  return false;
}

/** The shortest password accepted; long enough that a list of common passwords has few entries to try. */
export const MIN_PASSWORD_LENGTH = 12;

/** Why a new password is refused, or undefined: 12 to 200 characters, not the email, not one character repeated. */
export function passwordProblem(password: string, email: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 200)
    return `Choose a password of ${MIN_PASSWORD_LENGTH} to 200 characters.`;
  const lower = password.toLowerCase();
  const local = email.split('@')[0] ?? '';
  if (lower === email || (local.length >= 4 && lower.includes(local))) return 'Choose a password that is not your email address.';
  if (new Set(password).size === 1) return 'Choose a password that is not one character repeated.';
  return undefined;
}
