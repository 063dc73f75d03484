// Dates in requests (docs/decisions.md §4): ISO 8601, unambiguous English forms, numeric dates read by the locale; only real
// calendar dates.
import { expect } from 'chai';
import { parseDocumentDate, parseIsoDate, todayIso } from '../../../server/documents/dates';

describe('dates', function () {
  it('reads ISO 8601 (with a time or not) and the English forms clients send', function () {
    for (const [text, iso] of [
      ['2015-02-09', '2015-02-09'],
      ['2015-02-09T10:30:00Z', '2015-02-09'],
      ['Feb 9, 2015', '2015-02-09'],
      ['February 9 2015', '2015-02-09'],
      ['Feb. 9th, 2015', '2015-02-09'],
      ['9 Feb 2015', '2015-02-09'],
      ['09-Feb-2015', '2015-02-09'],
      ['  9   February,  2015 ', '2015-02-09'],
      ['2024/06/03', '2024-06-03'],
    ] as const) {
      expect(parseDocumentDate(text, 'en-US'), text).to.equal(iso);
    }
  });

  it('checks the time of an ISO date-time: hours, minutes, seconds and the offset must be real', function () {
    for (const text of [
      '2015-02-09T23:59:59Z',
      '2015-02-09T00:00',
      '2015-02-09 12:00:00.123+05:30',
      '2015-02-09T23:59:60Z',
      '2015-02-09T10:30-0800',
    ]) {
      expect(parseDocumentDate(text, 'en-US'), text).to.equal('2015-02-09');
    }
    for (const text of [
      '2015-02-09T25:61:00Z',
      '2015-02-09T24:00:00Z',
      '2015-02-09T12:60',
      '2015-02-09T12:00:61',
      '2015-02-09T12:00+24:00',
      '2015-02-09T12:00+05:60',
      '2015-02-09T1:2:3',
      '2015-02-09T::',
      '2015-02-09T12:00Zjunk',
    ]) {
      expect(parseDocumentDate(text, 'en-US'), text).to.equal(undefined);
    }
  });

  it('reads numeric dates month first in en-US and day first everywhere else', function () {
    expect(parseDocumentDate('03/06/2024', 'en-US')).to.equal('2024-03-06');
    expect(parseDocumentDate('03/06/2024', 'en-GB')).to.equal('2024-06-03');
    expect(parseDocumentDate('3.6.2024', 'de-DE')).to.equal('2024-06-03');
  });

  it('refuses what is not a real calendar date', function () {
    for (const text of ['2015-02-30', '2023-02-29', 'Feb 30, 2015', '13/13/2024', 'Smarch 1, 2015', 'next Tuesday', '']) {
      expect(parseDocumentDate(text, 'en-US'), text).to.equal(undefined);
    }
    expect(parseDocumentDate('2024-02-29', 'en-US')).to.equal('2024-02-29'); // a leap day
    expect(parseIsoDate('2015-02-09')?.toISOString()).to.equal('2015-02-09T00:00:00.000Z');
    expect(parseIsoDate('2015-02-30')).to.equal(undefined);
  });

  it("gives today's date in the configured time zone", function () {
    const now = new Date('2026-11-23T23:30:00Z');
    expect(todayIso('UTC', now)).to.equal('2026-11-23');
    expect(todayIso('Asia/Tokyo', now)).to.equal('2026-11-24');
    expect(todayIso('America/Los_Angeles', now)).to.equal('2026-11-23');
  });
});
