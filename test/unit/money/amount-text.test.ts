// The one writer of amounts for every e-invoice syntax, so that no syntax rounds on its own: exactly the currency's
// decimals, never "-0", and a refusal, not a rounding, of an amount money/ did not round.
import { expect } from 'chai';
import { amountText, decimalText } from '../../../server/money/amount-text';
import { Decimal } from '../../../server/money/totals';

describe('amount text (UBL and CII alike)', function () {
  it('writes exactly the minor units, no exponent, never -0', function () {
    expect(amountText(new Decimal('10.5'), 2)).to.equal('10.50');
    expect(amountText(new Decimal('1050'), 0)).to.equal('1050');
    expect(amountText(new Decimal('10.5'), 3)).to.equal('10.500');
    expect(amountText(new Decimal('-0'), 2)).to.equal('0.00');
    expect(amountText(new Decimal('1e12'), 2)).to.equal('1000000000000.00');
    expect(decimalText(new Decimal('1.2500'))).to.equal('1.25');
    expect(decimalText(new Decimal('1e-7'))).to.equal('0.0000001');
    expect(decimalText(new Decimal('-0'))).to.equal('0');
  });

  it('refuses an amount with more decimals than its currency instead of rounding it', function () {
    expect(() => amountText(new Decimal('10.005'), 2)).to.throw(/3 decimals, more than 2/);
    expect(() => amountText(new Decimal('0.5'), 0)).to.throw(/1 decimals, more than 0/);
  });
});
