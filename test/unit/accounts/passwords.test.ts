// Passwords (scrypt, a salt per hash) and the policy for new ones.
import { expect } from 'chai';
import { dummyHash, hashPassword, MIN_PASSWORD_LENGTH, passwordProblem, verifyPassword } from '../../../server/accounts/passwords';

describe('passwords', function () {
  this.timeout(10000);

  it('hash with a salt of their own and verify only the same password', async function () {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a)
      .to.match(/^scrypt\$/)
      .and.not.equal(b);
    expect(await verifyPassword('correct horse battery', a)).to.equal(true);
    expect(await verifyPassword('correct horse batterY', a)).to.equal(false);
    expect(await verifyPassword('anything at all', await dummyHash())).to.equal(false);
    expect(await verifyPassword('anything at all', undefined)).to.equal(false);
    expect(await verifyPassword('anything at all', 'not a hash')).to.equal(false);
  });

  it(`are refused under ${MIN_PASSWORD_LENGTH} or over 200 characters, as the email, or one character repeated`, function () {
    expect(passwordProblem('short', 'ada@example.com')).to.match(/12 to 200/);
    expect(passwordProblem('x'.repeat(201) + 'y', 'ada@example.com')).to.match(/12 to 200/);
    expect(passwordProblem('ada@example.com', 'ada@example.com')).to.match(/email/);
    expect(passwordProblem('lovelace-1815-ok', 'lovelace@example.com')).to.match(/email/);
    expect(passwordProblem('aaaaaaaaaaaaaa', 'ada@example.com')).to.match(/repeated/);
    expect(passwordProblem('a long and fine passphrase', 'ada@example.com')).to.equal(undefined);
  });
});
