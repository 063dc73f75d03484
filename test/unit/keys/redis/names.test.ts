// The Redis store's key names (redis/names.ts): every name in the docgen: namespace, one kind per prefix, so that no
// two kinds of data can share a key whatever an account, email or id holds.
import { expect } from 'chai';
import { k } from '../../../../server/keys/redis/names';

describe('Redis key names', function () {
  const names = (x: string) => [
    k.key(x),
    k.account(x),
    k.prefix(x),
    k.accountKeys(x),
    k.usage(x, '2026-01'),
    k.reservations(x, '2026-01'),
    k.committed(x, '2026-01'),
    k.user(x),
    k.session(x),
    k.flash(x),
    k.attempts(x),
    k.brand(x),
    k.brandStamp(x),
  ];

  it('names every kind of data in the docgen: namespace, each under its own prefix', function () {
    const all = [...names('x'), k.allKeys];
    for (const name of all) expect(name).to.match(/^docgen:/);
    const kinds = all.map((n) => n.split(':')[1]);
    expect(new Set(kinds).size, 'one prefix per kind').to.equal(all.length);
    expect(k.allKeys).to.equal('docgen:keys');
  });

  it('gives the same input different names in each kind, and different inputs different names', function () {
    expect(new Set(names('ada@example.com')).size).to.equal(names('x').length);
    expect(k.user('ada@example.com')).to.equal('docgen:user:ada@example.com');
    expect(k.usage('a', '2026-01')).to.not.equal(k.usage('a', '2026-02'));
    expect(k.usage('a', '2026-01')).to.equal('docgen:usage:a:2026-01');
    expect(k.reservations('a', '2026-01')).to.not.equal(k.committed('a', '2026-01'));
  });

  it('keeps an account named like another kind inside its own kind (an account "key:x" is no key)', function () {
    expect(k.account('key:x')).to.equal('docgen:account:key:x');
    expect(k.account('key:x')).to.not.equal(k.key('x'));
    expect(k.accountKeys('x')).to.not.equal(k.account('keys:x'));
  });
});
