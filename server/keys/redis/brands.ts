// The Redis side of each account's brand (PUT /brand): one string per account, its settings as JSON text. Shares the
// store's connection; holds account settings, no document content. Key names in names.ts.
import type Redis from 'ioredis';
import type { BrandStore } from '../key-store';
import { k } from './names';

export class RedisBrands implements BrandStore {
  constructor(private readonly redis: Redis) {}

  async getBrand(account: string): Promise<string | undefined> {
    return (await this.redis.get(k.brand(account))) ?? undefined;
  }

  async putBrand(account: string, brand: string | undefined): Promise<void> {
    if (brand === undefined) await this.redis.del(k.brand(account));
    else await this.redis.set(k.brand(account), brand);
  }
}
