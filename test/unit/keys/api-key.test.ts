// API keys (docs/decisions.md §5): sk_ + 32 base62 characters, stored only as a SHA-256 hash, compared in constant time.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, PREFIX_LENGTH, sameHash } from '../../../server/keys/api-key';

describe('API keys', function () {
  it('are sk_ and 32 base62 characters, all different', function () {
    const keys = new Set(Array.from({ length: 2000 }, generateApiKey));
    expect(keys.size).to.equal(2000);
    for (const key of keys) expect(key).to.match(/^sk_[0-9A-Za-z]{32}$/);
    // Every base62 character turns up (no biased alphabet).
    expect(new Set([...keys].join('').slice(0, 64000).replace(/sk_/g, '')).size).to.equal(62);
  });

  it('are recognised by shape only', function () {
    expect(looksLikeApiKey(generateApiKey())).to.equal(true);
    for (const bad of ['', 'sk_', `sk_${'a'.repeat(31)}`, `sk_${'a'.repeat(33)}`, `pk_${'a'.repeat(32)}`, `sk_${'a'.repeat(31)}!`]) {
      expect(looksLikeApiKey(bad), bad).to.equal(false);
    }
  });

  it('are kept as a SHA-256 hash, shown by a prefix, and compared by hash', function () {
    const key = 'sk_' + 'A'.repeat(32);
    expect(hashApiKey(key)).to.equal(crypto.createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey(key))
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.include('AAAA');
    expect(keyPrefix(key)).to.equal(key.slice(0, PREFIX_LENGTH)).and.have.length(9);
    expect(sameHash(hashApiKey(key), hashApiKey(key))).to.equal(true);
    expect(sameHash(hashApiKey(key), hashApiKey(key.replace(/A$/, 'B')))).to.equal(false);
    expect(sameHash(hashApiKey(key), 'abcd')).to.equal(false); // another length: not equal, no throw
  });
});
