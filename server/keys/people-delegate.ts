// The people part of a key store (users, sessions, one-time values, attempts), passed on to the backend's own module
// for it (sqlite-people.ts, redis-people.ts), so that each store class holds keys and usage only.
import type { PeopleStore } from './key-store';

export abstract class PeopleDelegate implements PeopleStore {
  protected abstract readonly people: PeopleStore;

  createUser(email: string, passwordHash: string): Promise<boolean> {
    return this.people.createUser(email, passwordHash);
  }
  findUser(email: string): Promise<{ email: string; passwordHash: string; account: string } | undefined> {
    return this.people.findUser(email);
  }
  createSession(tokenHash: string, email: string, expiresAt: number): Promise<void> {
    return this.people.createSession(tokenHash, email, expiresAt);
  }
  findSession(tokenHash: string, now: number): Promise<{ email: string; account: string } | undefined> {
    return this.people.findSession(tokenHash, now);
  }
  deleteSession(tokenHash: string): Promise<void> {
    return this.people.deleteSession(tokenHash);
  }
  putFlash(id: string, value: string, expiresAt: number): Promise<void> {
    return this.people.putFlash(id, value, expiresAt);
  }
  takeFlash(id: string, now: number): Promise<string | undefined> {
    return this.people.takeFlash(id, now);
  }
  recordAttempt(keys: { key: string; max: number }[], windowMs: number, now: number): Promise<boolean> {
    return this.people.recordAttempt(keys, windowMs, now);
  }
}
