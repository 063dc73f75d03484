// Every password check costs one scrypt of the current parameters, so that its timing tells nobody who has an account:
// the dummy hash an unknown email is checked against is a real hash with the parameters of a fresh one, and a missing
// or unreadable stored hash takes as long to refuse as a real hash takes to check.
import { expect } from 'chai';
import { dummyHash, hashPassword, verifyPassword } from '../../../server/accounts/passwords';

/** `scrypt$N$r$p$salt$hash`: the parameters, and the salt's and the hash's lengths. */
const shape = (stored: string) => {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  return { scheme, n, r, p, salt: salt?.length, hash: hash?.length, rest: rest.length };
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('password checks cost the same', function () {
  this.timeout(30000);

  it('the dummy hash is a real hash with the parameters of a fresh one, made once', async function () {
    const fresh = await hashPassword('a fine long password');
    const dummy = await dummyHash();
    expect(shape(dummy)).to.deep.equal(shape(fresh));
    expect(dummy).not.to.equal(fresh);
    expect(await dummyHash(), 'made once').to.equal(dummy);
  });

  it('no stored hash, or a malformed one, takes as long as a real hash (median of interleaved checks)', async function () {
    // A measurement on a shared machine: a burst of load elsewhere may skew one run (before the fix a malformed hash
    // took no time at all, in every run).
    this.retries(2);
    const real = await hashPassword('the right password');
    const cases: Record<string, string | undefined> = {
      'a real hash, wrong password': real,
      'no stored hash (unknown email)': undefined,
      'a truncated hash': real.slice(0, real.lastIndexOf('$')),
      'another scheme': '$2b$12$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234',
      'a cost scrypt refuses': real.replace('$32768$', '$1000$'),
      empty: '',
    };
    const times = new Map(Object.keys(cases).map((name) => [name, [] as number[]]));
    for (let round = 0; round < 5; round++) {
      for (const [name, stored] of Object.entries(cases)) {
        const started = performance.now();
        expect(await verifyPassword('a wrong password', stored), name).to.equal(false);
        times.get(name)!.push(performance.now() - started);
      }
    }
    const reference = median(times.get('a real hash, wrong password')!);
    for (const [name, ms] of times) expect(median(ms) / reference, name).to.be.within(0.7, 1.4);
  });
});
