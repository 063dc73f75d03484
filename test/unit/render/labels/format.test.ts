// Display formatting (render/labels/format.ts): a unit price keeps the precision it was sent with (metered usage), amounts
// keep the currency's minor units, and the Intl formatters behind both stay bounded whatever tags clients send.
import { expect } from 'chai';
import { Decimal } from '../../../../server/money/totals';
import { cachedFormatters, Formatter } from '../../../../server/render/labels/format';

describe('display formatting', function () {
  it('prints a rate with its own decimals: at least the minor units, at most 6, zeros trimmed', function () {
    const usd = new Formatter('en-US', 'USD', 2);
    expect(usd.formatRate(new Decimal('0.0012'))).to.equal('$0.0012');
    expect(usd.formatRate(new Decimal('0.00045'))).to.equal('$0.00045');
    expect(usd.formatRate(new Decimal('150'))).to.equal('$150.00');
    expect(usd.formatRate(new Decimal('150.5000'))).to.equal('$150.50');
    expect(usd.formatRate(new Decimal('1250000'))).to.equal('$1,250,000.00');
    expect(usd.formatRate(new Decimal('0.0000005'))).to.equal('$0.000001'); // the 7th decimal rounds half away from zero
    expect(usd.formatMoney(new Decimal('0.0012'))).to.equal('$0.00'); // amounts keep the minor units
    expect(new Formatter('fr-FR', 'EUR', 2).formatRate(new Decimal('0.0375'))).to.equal('0,0375\u00a0€');
    expect(new Formatter('en-US', 'JPY', 0).formatRate(new Decimal('12500000'))).to.equal('¥12,500,000');
    expect(new Formatter('en-US', 'KWD', 3).formatRate(new Decimal('1.5'))).to.equal('KWD\u00a01.500');
  });

  it('keeps at most 500 Intl formatters, whatever locale tags clients send', function () {
    for (let i = 0; i < 2100; i++) new Formatter(`en-US-x-t${i.toString(36)}`, 'USD', 2).formatMoney(new Decimal(1));
    expect(cachedFormatters()).to.be.at.most(500);
  });
});
