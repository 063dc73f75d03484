// Bearer authentication (decisions §5). Runs before the body is read or validated, so a bad key gets 401 even when
// the body is bad too. Puts the account on res.locals for logging and quota.
// Guessing is limited: a client address (req.ip, the client's through a trusted proxy) with `maxFailures` wrong keys
// within a minute (API_KEY_FAILURES_PER_MINUTE, 60) gets 429 with Retry-After before its next key is even looked up,
// counted in the shared store.
import type { RequestHandler } from 'express';
import { errors } from '../errors';
import type { KeyStore } from '../keys/key-store';

const FAILED_KEYS_WINDOW_MS = 60_000;

export function requireApiKey(store: KeyStore, maxFailures: number, clock: () => number = Date.now): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    const m = header ? /^\s*Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!header || !header.trim()) return next(errors.missingKey());
    const failures = `api-key-failures:${req.ip ?? ''}`;
    if (maxFailures > 0 && (await store.countAttempts(failures, FAILED_KEYS_WINDOW_MS, clock())) >= maxFailures) {
      return next(errors.tooManyFailedKeys(FAILED_KEYS_WINDOW_MS / 1000));
    }
    const failed = async () => {
      if (maxFailures > 0) await store.recordAttempt([{ key: failures, max: Number.MAX_SAFE_INTEGER }], FAILED_KEYS_WINDOW_MS, clock());
      next(errors.invalidKey());
    };
    if (!m) return failed();
    const result = await store.authenticate(m[1]!);
    if (result.status === 'unknown') return failed();
    if (result.status === 'inactive') return next(errors.inactiveKey());
    res.locals.account = result.account;
    res.locals.plan = result.plan;
    next();
  };
}
