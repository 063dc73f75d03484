// Every password check costs one scrypt of the current parameters, so that its timing tells nobody who has an account:
// the dummy hash an unknown email is checked against is a real hash with the parameters of a fresh one, and a missing
// or unreadable stored hash costs the same scrypt to refuse as a real hash costs to check (counted, not timed).
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { dummyHash, hashPassword } from '../../../server/accounts/passwords';

/** `scrypt$N$r$p$salt$hash`: the parameters, and the salt's and the hash's lengths. */
const shape = (stored: string) => {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  return { scheme, n, r, p, salt: salt?.length, hash: hash?.length, rest: rest.length };
};

describe('password checks cost the same', function () {
  this.timeout(30000);

  it('the dummy hash is a real hash with the parameters of a fresh one, made once', async function () {
    const fresh = await hashPassword('a fine long password');
    const dummy = await dummyHash();
    expect(shape(dummy)).to.deep.equal(shape(fresh));
    expect(dummy).not.to.equal(fresh);
    expect(await dummyHash(), 'made once').to.equal(dummy);
  });

  it('no stored hash, or a malformed one, costs one scrypt of the current parameters, as a real hash does', async function () {
    // Counted, not timed (how long a scrypt takes belongs in a benchmark): a copy of the module whose scrypt is
    // watched, so that every run and its parameters are seen, and which of them ran to the end.
    const runs: { N: number; r: number; p: number; keylen: number; ok?: boolean }[] = [];
    const original = crypto.scrypt;
    const load = createRequire(__filename);
    const id = load.resolve('../../../server/accounts/passwords');
    const cached = load.cache[id];
    delete load.cache[id];
    (crypto as { scrypt: unknown }).scrypt = (
      password: crypto.BinaryLike,
      salt: crypto.BinaryLike,
      keylen: number,
      options: crypto.ScryptOptions,
      done: (err: Error | null, key: Buffer) => void,
    ) => {
      const run: (typeof runs)[number] = { N: options.N!, r: options.r!, p: options.p!, keylen };
      runs.push(run);
      original(password, salt, keylen, options, (err, key) => {
        run.ok = !err;
        done(err, key);
      });
    };
    let watched: typeof import('../../../server/accounts/passwords');
    try {
      watched = load(id) as typeof watched;
    } finally {
      (crypto as { scrypt: unknown }).scrypt = original;
      if (cached) load.cache[id] = cached;
      else delete load.cache[id];
    }
    const real = await watched.hashPassword('the right password');
    await watched.dummyHash();
    const { n, r, p } = shape(real);
    const current = { N: Number(n), r: Number(r), p: Number(p), keylen: 32, ok: true };
    const cases: Record<string, string | undefined> = {
      'a real hash, wrong password': real,
      'no stored hash (unknown email)': undefined,
      'a truncated hash': real.slice(0, real.lastIndexOf('$')),
      'another scheme': '$2b$12$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234',
      'a cost scrypt refuses': real.replace('$32768$', '$1000$'),
      empty: '',
    };
    for (const [name, stored] of Object.entries(cases)) {
      runs.length = 0;
      expect(await watched.verifyPassword('a wrong password', stored), name).to.equal(false);
      // One scrypt ran to the end, with the current parameters (a cost scrypt refuses fails at once, doing no work).
      expect(
        runs.filter((run) => run.ok),
        name,
      ).to.deep.equal([current]);
    }
  });
});
