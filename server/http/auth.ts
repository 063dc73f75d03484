// Bearer authentication (docs/decisions.md §5). Runs before the body is read or validated, so a bad key gets 401 even when
// the body is bad too. Puts the account on res.locals for logging and quota.
// Guessing is limited: after `maxFailures` wrong keys from one client address within a minute
// (API_KEY_FAILURES_PER_MINUTE, 60; req.ip, the client's through a trusted proxy), its further wrong keys get 429 with
// Retry-After instead of 401, counted atomically in the shared store. A valid key is never refused: clients behind
// one NAT or proxy are not locked out by a neighbour's bad key.
import type { RequestHandler } from 'express';
import type { AttemptStore, KeyRegistry } from '../keys/key-store';
import { requestErrors } from './request-errors';

const FAILED_KEYS_WINDOW_MS = 60_000;

export function requireApiKey(store: KeyRegistry & AttemptStore, maxFailures: number, clock: () => number = Date.now): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    const m = header ? /^\s*Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!header || !header.trim()) return next(requestErrors.missingKey());
    const failed = async () => {
      // Recorded only while under the limit (one atomic step): beyond it, the answer is 429.
      const counted =
        maxFailures <= 0 ||
        (await store.recordAttempt([{ key: `api-key-failures:${req.ip ?? ''}`, max: maxFailures }], FAILED_KEYS_WINDOW_MS, clock()));
      next(counted ? requestErrors.invalidKey() : requestErrors.tooManyFailedKeys(FAILED_KEYS_WINDOW_MS / 1000));
    };
    if (!m) return failed();
    const result = await store.authenticate(m[1]!);
    if (result.status === 'unknown') return failed();
    if (result.status === 'inactive') return next(requestErrors.inactiveKey());
    res.locals.account = result.account;
    res.locals.plan = result.plan;
    next();
  };
}
