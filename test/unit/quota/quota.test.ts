import { expect } from 'chai';
import path from 'node:path';
import { projectRoot } from '../../../server/config';
import { loadCountedMessages } from '../../../server/messages';
import { limitOf, nextPeriodStart, periodOf, quotaExceeded, retryAfterSeconds } from '../../../server/quota/quota';

describe('quota (unit)', () => {
  const now = new Date('2026-11-23T10:00:00Z');
  const messages = loadCountedMessages(path.join(projectRoot(), 'locales', 'api'));

  it('says the limit with the plural its number takes (i18n plural rules), grouped in thousands', () => {
    expect(quotaExceeded(messages, 1, 'free', now).message).to.contain('monthly limit of 1 document of the free plan.');
    expect(quotaExceeded(messages, 2, 'free', now).message).to.contain('monthly limit of 2 documents of the free plan.');
    expect(quotaExceeded(messages, 100, 'paid', now).message).to.contain('monthly limit of 100 documents of the paid plan.');
    expect(quotaExceeded(messages, 1_000_000, 'paid', now).message).to.contain('monthly limit of 1,000,000 documents');
    expect(quotaExceeded(messages, 0, 'free', now).message).to.contain('monthly limit of 0 documents');
  });

  it('names the reset instant and the seconds to it, which are also the retry time', () => {
    const err = quotaExceeded(messages, 5, 'free', now);
    expect(err.code).to.equal('quota_exceeded');
    expect(err.message).to.contain('It resets at 2026-12-01T00:00:00Z (in 655200 s)');
    expect(err.facts.retryAfterSeconds).to.equal(655_200);
  });

  it('periods are UTC calendar months; the last second of a year is 1 s from the next period', () => {
    expect(periodOf(new Date('2026-12-31T23:59:59Z'))).to.equal('2026-12');
    expect(nextPeriodStart(new Date('2026-12-31T23:59:59Z')).toISOString()).to.equal('2027-01-01T00:00:00.000Z');
    expect(retryAfterSeconds(new Date('2026-12-31T23:59:59Z'))).to.equal(1);
    expect(retryAfterSeconds(new Date('2026-12-31T23:59:59.999Z'))).to.equal(1);
  });

  it('reads a plan limit from the one rule (null: unlimited)', () => {
    expect(limitOf({ free: 100, paid: null }, 'free')).to.equal(100);
    expect(limitOf({ free: 100, paid: null }, 'paid')).to.equal(null);
  });
});
