// The store as the service uses it: a store that is busy (SQLite: another process holds the write lock), failing
// (SQLite: its disk full, read-only or failing under it) or down (Redis: no connection) must neither freeze the service
// nor give a 500. Each call is tried again a few times with
// asynchronous pauses (the event loop serves other requests meanwhile; SQLite's own busy wait is kept short, see
// sqlite/store.ts), then fails with errors.storeUnavailable() (try again in a second).
// Must not know about HTTP beyond that error.
import { errors } from '../errors';
import type { KeyStore } from './key-store';

/** Pauses between tries, in ms: the store is given about 250 ms in all before the request is refused. */
const PAUSES_MS = [25, 75, 150];

/** SQLite's result codes (extended ones included: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, ...) of a store that
 * cannot take a call now: busy or locked by another process, or its disk failing (an I/O error, full, read-only, a file
 * that cannot be opened). Never a constraint or a misuse, which are bugs. */
const SQLITE_TRANSIENT = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN)(_|$)/;

/**
 * What a store error means: `retry` when the call certainly did not happen (SQLite busy or locked: the statement or
 * transaction did not run; SQLite's disk failing under it, full, read-only or gone: the statement or transaction was
 * rolled back; Redis not connected: the command was not sent), `unavailable` when the store is gone but
 * the call may have happened (a connection lost mid-command: trying again could create a second key), undefined for
 * anything else (a bug or a constraint, which stays an error).
 */
export function transience(err: unknown): 'retry' | 'unavailable' | undefined {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && SQLITE_TRANSIENT.test(e.code)) return 'retry';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (/Stream isn't writeable|ECONNREFUSED|database is locked/.test(message)) return 'retry';
  if (e?.name === 'MaxRetriesPerRequestError' || /Connection is closed/.test(message)) return 'unavailable';
  return undefined;
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
            const kind = transience(err);
            if (!kind) throw err;
            onTransient?.(String(prop), err);
            if (kind === 'unavailable' || attempt >= PAUSES_MS.length) throw errors.storeUnavailable(1);
            await new Promise((resolve) => setTimeout(resolve, PAUSES_MS[attempt]));
          }
        }
      };
    },
  });
}
