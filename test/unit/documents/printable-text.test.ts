// Printable text (documents/printable-text.ts): what a request sends is kept, but no text may make the page unreadable
// or endless (runs of blank lines, stacked combining marks).
import { expect } from 'chai';
import { MAX_MARKS, printable } from '../../../server/documents/printable-text';

describe('printable text', function () {
  it('collapses runs of blank lines and caps stacked combining marks', function () {
    expect(printable('a\r\n\r\n\n  \nb\n\n\nc\n\n')).to.equal('a\n\nb\n\nc');
    expect(printable('\n'.repeat(10000) + 'end')).to.equal('end');
    expect(printable('line1\u2028line2')).to.equal('line1\nline2');
    expect(printable('Z' + '\u0301'.repeat(9990))).to.equal('Z' + '\u0301'.repeat(MAX_MARKS));
    // Real text is untouched: Vietnamese, Thai, Devanagari conjuncts, Myanmar stacks.
    for (const text of ['Hóa đơn điện tử', 'ใบแจ้งหนี้ที่นี่', 'क्षत्रिय', 'ငွေတောင်းခံလွှာ']) expect(printable(text)).to.equal(text);
  });

  it('prints mathematical letters and digits as the letters and digits they style (no shipped font draws them)', function () {
    expect(printable('𝔘𝔫𝔦𝔠𝔬𝔡𝔢 Ltd')).to.equal('Unicode Ltd');
    expect(printable('𝐁𝐨𝐥𝐝 𝟏𝟐𝟑 · 𝓢𝓬𝓻𝓲𝓹𝓽 · 𝕯𝖔𝖚𝖇𝖑𝖊 · 𝚖𝚘𝚗𝚘')).to.equal('Bold 123 · Script · Double · mono');
    expect(printable('𝛼 + 𝛽')).to.equal('α + β');
    // Over many calls (a global pattern keeps no state between texts), and beside other scripts, untouched.
    for (let i = 0; i < 3; i++) expect(printable(`فاتورة 𝔄 ${i}`)).to.equal(`فاتورة A ${i}`);
    expect(printable('ℌ𝔢𝔩𝔩𝔬')).to.equal('ℌello'); // U+210C is a letterlike symbol outside the block: kept, and drawn
  });
});
