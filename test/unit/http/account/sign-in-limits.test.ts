// The sign-in limits (sign-in-limits.ts): one attempt recorded per email (10 a minute) and per client address (30 a
// minute) in one call of the shared store, whose answer decides; Retry-After is one window.
import { expect } from 'chai';
import {
  recordSignIn,
  SIGN_IN_ATTEMPTS_PER_ADDRESS,
  SIGN_IN_ATTEMPTS_PER_EMAIL,
  SIGN_IN_RETRY_AFTER_SECONDS,
  SIGN_IN_WINDOW_MS,
} from '../../../../server/http/account/sign-in-limits';
import { fakeRequest } from '../../../helpers/fake-http';

function store(answer: boolean) {
  const calls: unknown[][] = [];
  return { calls, recordAttempt: async (...args: unknown[]) => (calls.push(args), answer) };
}

describe('sign-in limits', function () {
  it('records the email and the client address in one call, with their limits, the minute and the time', async function () {
    const s = store(true);
    const now = new Date(Date.UTC(2026, 0, 1));
    expect(await recordSignIn(s, fakeRequest({ ip: '203.0.113.9' }), 'ada@example.com', now)).to.equal(true);
    expect(s.calls).to.deep.equal([
      [
        [
          { key: 'email:ada@example.com', max: 10 },
          { key: 'ip:203.0.113.9', max: 30 },
        ],
        60_000,
        now.getTime(),
      ],
    ]);
    expect([SIGN_IN_ATTEMPTS_PER_EMAIL, SIGN_IN_ATTEMPTS_PER_ADDRESS, SIGN_IN_WINDOW_MS, SIGN_IN_RETRY_AFTER_SECONDS]).to.deep.equal([
      10, 30, 60_000, 60,
    ]);
  });

  it("answers the store's refusal, and counts a request without an address under the empty one", async function () {
    const s = store(false);
    expect(await recordSignIn(s, fakeRequest(), 'x@example.com', new Date(0))).to.equal(false);
    expect((s.calls[0]![0] as { key: string }[])[1]!.key).to.equal('ip:');
  });

  it('keeps an email that looks like another kind of key inside the email kind', async function () {
    const s = store(true);
    await recordSignIn(s, fakeRequest({ ip: '::1' }), 'ip:203.0.113.9', new Date(0));
    expect((s.calls[0]![0] as { key: string }[]).map((k) => k.key)).to.deep.equal(['email:ip:203.0.113.9', 'ip:::1']);
  });
});
