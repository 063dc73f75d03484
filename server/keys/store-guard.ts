// The store as the service uses it: a store that is busy (SQLite: another process holds the write lock) or down
// (Redis: no connection) must neither freeze the service nor give a 500. Each call is tried again a few times with
// asynchronous pauses (the event loop serves other requests meanwhile; SQLite's own busy wait is kept short, see
// sqlite-key-store.ts), then fails with errors.storeUnavailable(), a 503 with Retry-After.
// Must not know about HTTP beyond that error.
import { errors } from '../errors';
import type { KeyStore } from './key-store';

/** Pauses between tries, in ms: the store is given about 250 ms in all before the request is refused. */
const PAUSES_MS = [25, 75, 150];

/** A store error that passes (busy, locked, disconnected), as opposed to a bug or a constraint. */
export function isTransient(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  if (e?.code === 'SQLITE_BUSY' || e?.code === 'SQLITE_LOCKED' || e?.code === 'SQLITE_BUSY_SNAPSHOT') return true;
  if (e?.name === 'MaxRetriesPerRequestError') return true;
  return typeof e?.message === 'string' && /Connection is closed|Stream isn't writeable|ECONNREFUSED|database is locked/.test(e.message);
}

export function guardStore(store: KeyStore, onTransient?: (method: string, err: unknown) => void): KeyStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || prop === 'close') return value;
      return async (...args: unknown[]) => {
        for (let attempt = 0; ; attempt++) {
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } catch (err) {
            if (!isTransient(err)) throw err;
            onTransient?.(String(prop), err);
            if (attempt >= PAUSES_MS.length) throw errors.storeUnavailable(1);
            await new Promise((resolve) => setTimeout(resolve, PAUSES_MS[attempt]));
          }
        }
      };
    },
  });
}
