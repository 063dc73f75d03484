// Password hashing with node:crypto scrypt (N=2^15, r=8, p=1), a random 16-byte salt per user, and a constant-time
// comparison. Stored as `scrypt$N$r$p$salt$hash` (base64url), so the cost can be raised later per user.
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

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** A hash to compare against when the email is unknown, so that both answers take the same time. */
export const DUMMY_HASH = 'scrypt$32768$8$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

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
