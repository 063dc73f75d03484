// The shared store: Redis (ioredis), for several service instances behind a load balancer, with the same data as the
// SQLite store. This module owns the connection and its health; each concern has its own module on it: keys.ts,
// usage.ts, users.ts, attempts.ts (key names in names.ts). Must not hold document content.
import Redis from 'ioredis';
import { ComposedStore } from '../composed-store';
import { RedisAttempts } from './attempts';
import { RedisBrands } from './brands';
import { CachedBrands } from '../cached-brands';
import { RedisKeys } from './keys';
import { RedisUsage } from './usage';
import { RedisUsers } from './users';

/** `redis://…`, `rediss://…` or `unix:///path/to/socket`. */
export function connectRedis(url: string): Redis {
  const options = { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false };
  return url.startsWith('unix://') ? new Redis({ ...options, path: url.slice('unix://'.length) }) : new Redis(url, options);
}

export class RedisKeyStore extends ComposedStore {
  constructor(url: string) {
    const redis = connectRedis(url);
    // Once connected, a lost connection fails commands at once instead of queueing them until Redis is back (which
    // held requests for half a minute): store-guard.ts then raises store_unavailable. Before the first connection
    // commands wait, so that start-up does not race the connect.
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
    // Connection errors are expected while Redis is down; each failed command is reported by the guard.
    redis.on('error', () => undefined);
    super({
      keys: new RedisKeys(redis),
      usage: new RedisUsage(redis),
      users: new RedisUsers(redis),
      attempts: new RedisAttempts(redis),
      brands: new CachedBrands(new RedisBrands(redis)),
      health: {
        check: async () => redis.status === 'ready',
        close: async () => {
          await redis.quit().catch(() => redis.disconnect());
        },
      },
    });
  }
}
