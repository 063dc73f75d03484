// The Redis store's key names, in one namespace: accounts, hashed keys and their indexes, usage and reservations, and
// the people who sign in (users, sessions, one-time messages, attempts), and each account's brand.
const NS = 'docgen:';
export const k = {
  key: (hash: string) => `${NS}key:${hash}`,
  account: (name: string) => `${NS}account:${name}`,
  prefix: (prefix: string) => `${NS}prefix:${prefix}`,
  accountKeys: (name: string) => `${NS}account-keys:${name}`,
  allKeys: `${NS}keys`,
  usage: (account: string, period: string) => `${NS}usage:${account}:${period}`,
  reservations: (account: string, period: string) => `${NS}reservations:${account}:${period}`,
  committed: (account: string, period: string) => `${NS}committed:${account}:${period}`,
  user: (email: string) => `${NS}user:${email}`,
  session: (hash: string) => `${NS}session:${hash}`,
  flash: (id: string) => `${NS}flash:${id}`,
  attempts: (key: string) => `${NS}attempts:${key}`,
  brand: (account: string) => `${NS}brand:${account}`,
  brandStamp: (account: string) => `${NS}brand-stamp:${account}`,
};
