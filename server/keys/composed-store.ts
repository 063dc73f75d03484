// One KeyStore from its parts (keys, usage, users, attempts, brands, health), each a module of its backend (sqlite/,
// redis/): the store's users see one object, each backend keeps one concern per module. Passes calls on, nothing more.
import type { AttemptStore, BrandStore, KeyRegistry, KeyStore, StoreHealth, UsageStore, UserStore } from './key-store';

export interface StoreParts {
  keys: KeyRegistry;
  usage: UsageStore;
  users: UserStore;
  attempts: AttemptStore;
  brands: BrandStore;
  health: StoreHealth;
}

export class ComposedStore implements KeyStore {
  constructor(private readonly parts: StoreParts) {}

  // Keys
  authenticate: KeyStore['authenticate'] = (key) => this.parts.keys.authenticate(key);
  createKey: KeyStore['createKey'] = (account, plan) => this.parts.keys.createKey(account, plan);
  listKeys: KeyStore['listKeys'] = (account) => this.parts.keys.listKeys(account);
  revokeKey: KeyStore['revokeKey'] = (keyOrPrefix) => this.parts.keys.revokeKey(keyOrPrefix);
  countKeys: KeyStore['countKeys'] = () => this.parts.keys.countKeys();
  setPlan: KeyStore['setPlan'] = (account, plan) => this.parts.keys.setPlan(account, plan);
  // Usage
  reserve: KeyStore['reserve'] = (account, period, limit, ttlMs, now, count, ids) =>
    this.parts.usage.reserve(account, period, limit, ttlMs, now, count, ids);
  commit: KeyStore['commit'] = (account, period, id) => this.parts.usage.commit(account, period, id);
  release: KeyStore['release'] = (account, period, reservation) => this.parts.usage.release(account, period, reservation);
  usage: KeyStore['usage'] = (account, period) => this.parts.usage.usage(account, period);
  addUsage: KeyStore['addUsage'] = (account, period, count) => this.parts.usage.addUsage(account, period, count);
  // Users
  createUser: KeyStore['createUser'] = (email, passwordHash) => this.parts.users.createUser(email, passwordHash);
  findUser: KeyStore['findUser'] = (email) => this.parts.users.findUser(email);
  createSession: KeyStore['createSession'] = (tokenHash, email, expiresAt) => this.parts.users.createSession(tokenHash, email, expiresAt);
  findSession: KeyStore['findSession'] = (tokenHash, now) => this.parts.users.findSession(tokenHash, now);
  deleteSession: KeyStore['deleteSession'] = (tokenHash) => this.parts.users.deleteSession(tokenHash);
  putFlash: KeyStore['putFlash'] = (id, value, expiresAt) => this.parts.users.putFlash(id, value, expiresAt);
  takeFlash: KeyStore['takeFlash'] = (id, now) => this.parts.users.takeFlash(id, now);
  // Attempts
  recordAttempt: KeyStore['recordAttempt'] = (keys, windowMs, now) => this.parts.attempts.recordAttempt(keys, windowMs, now);
  // Brands
  getBrand: KeyStore['getBrand'] = (account) => this.parts.brands.getBrand(account);
  putBrand: KeyStore['putBrand'] = (account, brand) => this.parts.brands.putBrand(account, brand);
  // Health
  check: KeyStore['check'] = () => this.parts.health.check();
  close: KeyStore['close'] = () => this.parts.health.close();
}
