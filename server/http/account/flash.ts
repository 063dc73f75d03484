// The one-time display of a new API key (Post/Redirect/Get): the key waits in the shared store for one read, at most
// five minutes, encrypted with a key derived from the session token (AES-256-GCM), which only the browser holds, so
// the store never holds a readable key. Does not create keys: the route does, then hands the key here.
import crypto from 'node:crypto';
import type { Request } from 'express';
import type { KeyStore } from '../../keys/key-store';
import { derive, sessionTokenOf, sha256 } from './session';

/** A new key waits for its one display at most this long. */
export const FLASH_MS = 5 * 60_000;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `text`, encrypted so that only the holder of the session token can read it back. */
export function seal(text: string, sessionToken: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', derive('flash-key', sessionToken), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The sealed text, or undefined when it was sealed for another session or altered. */
export function unseal(sealed: string, sessionToken: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', derive('flash-key', sessionToken), raw.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

export interface NewKeyFlash {
  /** Keeps `key` for this browser's next settings page (the request must carry a session cookie). */
  put(req: Request, key: string): Promise<void>;
  /** The key kept for this browser, once: read and removed in one step. */
  take(req: Request): Promise<string | undefined>;
}

export function newKeyFlash(store: Pick<KeyStore, 'putFlash' | 'takeFlash'>, clock: () => Date): NewKeyFlash {
  // Stored under a hash of the session token that differs from the session's own id.
  const idOf = (sessionToken: string) => sha256(`flash:${sessionToken}`);
  return {
    async put(req, key) {
      const sessionToken = sessionTokenOf(req);
      if (!sessionToken) return;
      await store.putFlash(idOf(sessionToken), seal(key, sessionToken), clock().getTime() + FLASH_MS);
    },
    async take(req) {
      const sessionToken = sessionTokenOf(req);
      if (!sessionToken) return undefined;
      const sealed = await store.takeFlash(idOf(sessionToken), clock().getTime());
      return sealed ? unseal(sealed, sessionToken) : undefined;
    },
  };
}
