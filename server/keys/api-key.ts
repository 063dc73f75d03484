// API keys (docs/decisions.md §5): `sk_` + 32 random base62 characters. Only a SHA-256 hash is ever stored; comparison is
// constant-time. Owns key generation and hashing; storage is in the key stores.
import crypto from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^sk_[0-9A-Za-z]{32}$/;
/** Characters of a key kept for display and revocation (`sk_` + 6): enough to tell keys apart, useless to an attacker. */
export const PREFIX_LENGTH = 9;

export function generateApiKey(): string {
  let out = '';
  while (out.length < 32) {
    // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
    for (const byte of crypto.randomBytes(48)) {
      if (byte < 248 && out.length < 32) out += ALPHABET[byte % 62];
    }
  }
  return `sk_${out}`;
}

export function looksLikeApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
