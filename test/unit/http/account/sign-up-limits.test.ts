// The sign-up limit (sign-up-limits.ts): per client address, SIGN_UPS_PER_HOUR within a sliding hour, counted in the
// shared store; 0 means no limit and records nothing.
import { expect } from 'chai';
import { recordSignUp, SIGN_UP_RETRY_AFTER_SECONDS, SIGN_UP_WINDOW_MS } from '../../../../server/http/account/sign-up-limits';
import { fakeRequest } from '../../../helpers/fake-http';

function store(answer: boolean) {
  const calls: unknown[][] = [];
  return { calls, recordAttempt: async (...args: unknown[]) => (calls.push(args), answer) };
}

describe('sign-up limits', function () {
  it('records one sign-up per client address within the hour, the store deciding', async function () {
    const s = store(false);
    const now = new Date(Date.UTC(2026, 0, 1));
    expect(await recordSignUp(s, fakeRequest({ ip: '198.51.100.4' }), 3, now)).to.equal(false);
    expect(s.calls).to.deep.equal([[[{ key: 'sign-up:198.51.100.4', max: 3 }], 3_600_000, now.getTime()]]);
    expect([SIGN_UP_WINDOW_MS, SIGN_UP_RETRY_AFTER_SECONDS]).to.deep.equal([3_600_000, 3600]);
  });

  it('with no limit (0) lets every sign-up through and records nothing', async function () {
    const s = store(false);
    expect(await recordSignUp(s, fakeRequest({ ip: '198.51.100.4' }), 0, new Date())).to.equal(true);
    expect(s.calls).to.deep.equal([]);
  });

  it('counts a request without an address under the empty one', async function () {
    const s = store(true);
    expect(await recordSignUp(s, fakeRequest(), 1, new Date(0))).to.equal(true);
    expect((s.calls[0]![0] as { key: string }[])[0]!.key).to.equal('sign-up:');
  });
});
