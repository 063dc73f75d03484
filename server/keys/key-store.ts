// The key store interface: accounts with a plan, and their API keys (hashed). The service authenticates with it and
// the keys CLI manages it. Implementations: sqlite-key-store.ts (the embedded default).

export type Plan = 'free' | 'paid';
export const PLANS: readonly Plan[] = ['free', 'paid'];

export interface KeyInfo {
  prefix: string;
  account: string;
  plan: Plan;
  active: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export type AuthResult =
  | { status: 'ok'; account: string; plan: Plan }
  | { status: 'unknown' }
  | { status: 'inactive' };

export interface KeyStore {
  authenticate(key: string): Promise<AuthResult>;
  /** Creates the account if needed (with `plan`, default free; an existing account takes `plan` when given). */
  createKey(account: string, plan?: Plan): Promise<{ key: string; info: KeyInfo }>;
  listKeys(account?: string): Promise<KeyInfo[]>;
  /** Revokes a key given whole or by its displayed prefix. Throws when a prefix matches several keys. */
  revokeKey(keyOrPrefix: string): Promise<KeyInfo | undefined>;
  countKeys(): Promise<number>;
  close(): Promise<void>;
}

export class KeyStoreError extends Error {}
