// Bearer authentication (decisions §5). Runs before the body is read or validated, so a bad key gets 401 even when
// the body is bad too. Puts the account on res.locals for logging and quota.
import type { RequestHandler } from 'express';
import { errors } from '../errors';
import type { KeyStore } from '../keys/key-store';

export function requireApiKey(store: KeyStore): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    const m = header ? /^\s*Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!header || !header.trim()) return next(errors.missingKey());
    if (!m) return next(errors.invalidKey());
    const result = await store.authenticate(m[1]!);
    if (result.status === 'unknown') return next(errors.invalidKey());
    if (result.status === 'inactive') return next(errors.inactiveKey());
    res.locals.account = result.account;
    res.locals.plan = result.plan;
    next();
  };
}
