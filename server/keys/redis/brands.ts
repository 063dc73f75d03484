// The Redis side of each account's brand (PUT /brand): one string per account, its settings as JSON text, and beside it
// the stamp of its last write (a random UUID; cached-brands.ts reads it to tell whether the text it holds is still the
// account's), both written in one transaction. A brand written before stamps were kept has none: its stamp reads ''
// until its next write. Shares the store's connection; holds account settings, no document content. Key names in
// names.ts.
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { BrandBackend, StampedBrand } from '../key-store';
import { k } from './names';

export class RedisBrands implements BrandBackend {
  constructor(private readonly redis: Redis) {}

  async brandStamp(account: string): Promise<string | undefined> {
    // One round trip: the stamp, and whether there is a brand at all (for one written before stamps). Not atomic, and
    // need not be: a write between the two makes the brand be read whole, with its own stamp.
    const [[stampErr, stamp], [existsErr, exists]] = (await this.redis
      .pipeline()
      .get(k.brandStamp(account))
      .exists(k.brand(account))
      .exec())! as [[Error | null, string | null], [Error | null, number]];
    if (stampErr || existsErr) throw stampErr ?? existsErr;
    return exists ? (stamp ?? '') : undefined;
  }

  async stampedBrand(account: string): Promise<StampedBrand | undefined> {
    const [text, stamp] = await this.redis.mget(k.brand(account), k.brandStamp(account));
    return text === null || text === undefined ? undefined : { text, stamp: stamp ?? '' };
  }

  async putBrand(account: string, brand: string | undefined): Promise<void> {
    if (brand === undefined) await this.redis.del(k.brand(account), k.brandStamp(account));
    else await this.redis.multi().set(k.brand(account), brand).set(k.brandStamp(account), randomUUID()).exec();
  }
}
