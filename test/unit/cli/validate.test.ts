// The validate CLI's summary (cli/validate.ts): the verdict with the syntax, document type and specification, each
// rule set with its counts in words (or why it was skipped), then each error and warning with its line or location.
import { expect } from 'chai';
import { summary } from '../../../server/cli/validate';
import type { ValidationReport } from '../../../server/einvoice/received/check';

const report = (over: Partial<ValidationReport> = {}): ValidationReport => ({
  valid: true,
  syntax: 'ubl',
  document_type: 'credit_note',
  specification: 'urn:cen.eu:en16931:2017',
  profile: 'en16931',
  french: false,
  rule_sets: [],
  errors: [],
  warnings: [],
  ...over,
});

describe('validate CLI summary', function () {
  it('says valid, with the syntax upper-cased and the document type in words', function () {
    expect(summary('a.xml', report())).to.equal('a.xml: valid (UBL credit note, urn:cen.eu:en16931:2017)\n');
  });

  it('says NOT valid and "no specification" when the document states none', function () {
    expect(summary('b.xml', report({ valid: false, syntax: 'cii', document_type: 'invoice', specification: null }))).to.equal(
      'b.xml: NOT valid (CII invoice, no specification)\n',
    );
  });

  it('lists each rule set with its counts, singular or plural, or why it was skipped', function () {
    const text = summary(
      'c.xml',
      report({
        rule_sets: [
          { name: 'XSD', version: '2.1', fatal: 0, warnings: 0 },
          { name: 'EN 16931 UBL', version: '1.3.14', fatal: 1, warnings: 2 },
          { name: 'Peppol', version: '3.0', fatal: 2, warnings: 1 },
          { name: 'XRechnung', version: '3.0', fatal: 0, warnings: 0, skipped: 'not run: the document failed its XSD' },
        ],
      }),
    );
    expect(text.split('\n').slice(1, 5)).to.deep.equal([
      '  XSD 2.1: 0 errors, 0 warnings',
      '  EN 16931 UBL 1.3.14: 1 error, 2 warnings',
      '  Peppol 3.0: 2 errors, 1 warning',
      '  XRechnung 3.0: not run: the document failed its XSD',
    ]);
  });

  it('lists errors then warnings, each at its line and column (column 1 when unknown) or its location', function () {
    const text = summary(
      'd.xml',
      report({
        valid: false,
        errors: [
          { rule: 'XSD', severity: 'fatal', message: 'bad element', location: '/Invoice', rule_set: 'XSD', line: 3, column: 7 },
          { rule: 'XSD', severity: 'fatal', message: 'no column', location: '/Invoice', rule_set: 'XSD', line: 9 },
          { rule: 'BR-CO-16', severity: 'fatal', message: 'amount due', location: '/*:Invoice[1]', rule_set: 'EN 16931 UBL' },
        ],
        warnings: [
          { rule: 'PEPPOL-R002', severity: 'warning', message: 'one note', location: '/*:Invoice[1]/*:Note[2]', rule_set: 'Peppol' },
        ],
      }),
    );
    expect(text.split('\n').slice(1)).to.deep.equal([
      '  error XSD at line 3:7: bad element',
      '  error XSD at line 9:1: no column',
      '  error BR-CO-16 at /*:Invoice[1]: amount due',
      '  warning PEPPOL-R002 at /*:Invoice[1]/*:Note[2]: one note',
      '',
    ]);
  });
});
