// Chooses the store from the configuration (docs/decisions.md §5): Redis when REDIS_URL is set, else the SQLite file.
import type { Config } from '../config';
import type { KeyStore } from './key-store';
import { RedisKeyStore } from './redis/store';
import { SqliteKeyStore } from './sqlite/store';

export function openStore(config: Pick<Config, 'redisUrl' | 'sqlitePath'>): KeyStore {
  return config.redisUrl ? new RedisKeyStore(config.redisUrl) : new SqliteKeyStore(config.sqlitePath);
}
