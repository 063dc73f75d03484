// Emails as account names: one spelling per mailbox (ASCII whitespace around it dropped, NFC, lower case), and an email
// holding a control, whitespace or invisible character is refused, never cleaned.
import { expect } from 'chai';
import fc from 'fast-check';
import { emailProblem, MAX_EMAIL_LENGTH, normalizeEmail } from '../../../server/accounts/emails';

const HIDDEN_MESSAGE = 'Enter your email address without spaces, control or invisible characters.';

describe('emails', function () {
  it('have one spelling per mailbox: case, Unicode composition and the ASCII whitespace around them', function () {
    expect(normalizeEmail('A@B.co')).to.equal('a@b.co');
    expect(normalizeEmail(' \t a@b.co \r\n')).to.equal('a@b.co');
    expect(normalizeEmail('JOSE\u0301@Example.com')).to.equal('jos\u00e9@example.com');
    expect(normalizeEmail('jos\u00e9@example.com')).to.equal('jos\u00e9@example.com');
    // Not a string (missing, or a repeated field parsed as an array): nothing.
    expect(normalizeEmail(undefined)).to.equal('');
    expect(normalizeEmail(['a@b.co', 'c@d.co'])).to.equal('');
  });

  it('refuse controls, spaces and invisible characters anywhere, even where trimming would hide them', function () {
    const hidden = [
      '\u0000',
      '\u0001',
      '\u001f',
      '\u007f',
      '\u0080',
      '\u0085',
      '\u009f', // C0, DEL, C1
      '\t',
      ' ',
      '\u00a0',
      '\u1680',
      '\u2000',
      '\u2007',
      '\u200a',
      '\u202f',
      '\u205f',
      '\u3000', // spaces
      '\u2028',
      '\u2029', // line and paragraph separators
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u00ad',
      '\u180e', // zero-width, BOM, soft hyphen
      '\u200e',
      '\u200f',
      '\u061c',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069', // bidi
      '\u034f',
      '\ufe00',
      '\ufe0f',
      '\u{e0100}',
      '\u115f',
      '\u1160',
      '\u3164',
      '\uffa0',
      '\u2800', // ignorable, blank
      '\u{e0001}',
      '\u{e0041}',
      '\u{e007f}', // tags
      '\ue000',
      '\u{f0000}',
      '\ud800',
      '\u{e0080}',
      '\uffff', // private use, a lone surrogate, unassigned, non-character
      '\ufffd', // what bytes that were not UTF-8 are read as
    ];
    for (const c of hidden) {
      const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      // A tab or a space around the email is dropped (as browsers do), inside it is refused.
      const places = c === '\t' || c === ' ' ? [`a${c}@b.co`, `a@b${c}.co`] : [`a${c}@b.co`, `a@b.co${c}`, `${c}a@b.co`];
      for (const email of places) {
        expect(emailProblem(normalizeEmail(email)), `${code} in ${JSON.stringify(email)}`).to.equal(HIDDEN_MESSAGE);
      }
    }
  });

  it('accept ordinary addresses, international ones included; refuse what is not an address', function () {
    for (const ok of [
      'a@b.co',
      'first.last+tag@example.co.uk',
      'jos\u00e9@exampl\u00e9.fr',
      '\u7528\u6237@\u4f8b\u5b50.\u5e7f\u544a',
      'x@\u{1f600}.com',
    ]) {
      expect(emailProblem(normalizeEmail(ok)), ok).to.equal(undefined);
    }
    for (const bad of ['', 'a', 'a@b', '@b.co', 'a@', 'a@@b.co', 'a@b@c.co', `${'a'.repeat(MAX_EMAIL_LENGTH)}@b.co`]) {
      expect(emailProblem(normalizeEmail(bad)), bad).to.equal('Enter a valid email address.');
    }
  });

  it('normalizing is idempotent, and the NFC, NFD and lower-case spellings of one string normalize alike', function () {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 30 }), (s) => {
        const once = normalizeEmail(s);
        expect(normalizeEmail(once)).to.equal(once);
        for (const spelling of [s.normalize('NFC'), s.normalize('NFD'), s.toLowerCase(), s.toLowerCase().normalize('NFD')]) {
          expect(normalizeEmail(spelling), JSON.stringify(spelling)).to.equal(once);
        }
      }),
      { seed: 24, numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});
