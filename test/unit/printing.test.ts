// The pure parts of typesetting real data: rate precision, printable text, the Han variant of a text, and the font
// choice per character (which must follow the fonts' real cmaps, not their declared ranges).
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { Decimal } from '../../server/money/totals';
import { loadFonts } from '../../server/render/fonts';
import { cachedFormatters, Formatter } from '../../server/render/format';
import { hanVariant } from '../../server/render/han-variant';
import { MAX_MARKS, printable } from '../../server/render/printable-text';

describe('printing real data', function () {
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

  it('collapses runs of blank lines and caps stacked combining marks', function () {
    expect(printable('a\r\n\r\n\n  \nb\n\n\nc\n\n')).to.equal('a\n\nb\n\nc');
    expect(printable('\n'.repeat(10000) + 'end')).to.equal('end');
    expect(printable('line1\u2028line2')).to.equal('line1\nline2');
    expect(printable('Z' + '\u0301'.repeat(9990))).to.equal('Z' + '\u0301'.repeat(MAX_MARKS));
    // Real text is untouched: Vietnamese, Thai, Devanagari conjuncts, Myanmar stacks.
    for (const text of ['Hóa đơn điện tử', 'ใบแจ้งหนี้ที่นี่', 'क्षत्रिय', 'ငွေတောင်းခံလွှာ']) expect(printable(text)).to.equal(text);
  });

  it('tells Japanese, Korean, Simplified and Traditional Chinese text apart', function () {
    expect(hanVariant('請求書 ありがとう')).to.equal('jp');
    expect(hanVariant('청구서 合計')).to.equal('kr');
    expect(hanVariant('增值税发票 数量')).to.equal('sc');
    expect(hanVariant('統一發票 數量')).to.equal('tc');
    expect(hanVariant('Invoice 42')).to.equal(undefined);
    // The middle dot and the prolonged sound mark are Chinese punctuation too, not kana.
    expect(hanVariant('約翰・史密斯 臺北市 發票')).to.equal('tc');
  });

  it('chooses for each character a family that really has its glyph, CJK by the text', function () {
    const fonts = loadFonts(path.join(projectRoot(), 'themes', 'fonts.json'), (name) => require.resolve(name, { paths: [projectRoot()] }));
    const families = (text: string) => [
      ...new Set(
        [
          ...fonts
            .forText(text)
            .faces.map((f) => f.css)
            .join('')
            .matchAll(/font-family: '([^']+)'/g),
        ].map((m) => m[1]),
      ),
    ];
    expect(families('Invoice 42')).to.deep.equal(['Noto Sans']);
    expect(families('বাংলা')).to.deep.equal(['Noto Sans', 'Noto Sans Bengali']);
    // Ranges claim more than the files draw: an SC slice claims ✅ and Noto Sans Arabic's symbols claim 📦.
    expect(families('✅ 📦')).to.deep.equal(['Noto Sans', 'Noto Emoji']);
    // A joiner goes with the character before it and pulls in no family of its own.
    expect(families('ক্ষ\u200d')).to.deep.equal(['Noto Sans', 'Noto Sans Bengali']);
    expect(fonts.forText('統一發票').stack.indexOf("'Noto Sans TC'")).to.be.lessThan(
      fonts.forText('統一發票').stack.indexOf("'Noto Sans JP'"),
    );
    expect(fonts.forText('増値税 ありがとう').stack.indexOf("'Noto Sans JP'")).to.be.lessThan(
      fonts.forText('増値税 ありがとう').stack.indexOf("'Noto Sans SC'"),
    );
    // Every family once in the stack, whatever the text.
    for (const text of ['Invoice', '統一發票', '請求書です']) {
      const stack = fonts.forText(text).stack.split(', ');
      expect(new Set(stack).size, text).to.equal(stack.length);
      expect(stack).to.include("'Noto Sans TC'");
    }
    // A document of 20,000 distinct Han characters: chosen in well under a second once the fonts are read.
    let han = '';
    for (let cp = 0x4e00; cp < 0x4e00 + 20000; cp++) han += String.fromCodePoint(cp);
    fonts.forText(han);
    const started = performance.now();
    fonts.forText(han);
    expect(performance.now() - started).to.be.lessThan(1000);
    // A Latin invoice does not grow with the new families: one subset in two weights.
    expect(fonts.forText('Invoice 42 — Acme Corp, 1,250.00 €').faces).to.have.length(2);
  });
});

describe('bounded caches (issue 14, finding 6)', function () {
  it('keeps at most 500 Intl formatters, whatever locale tags clients send', function () {
    for (let i = 0; i < 2100; i++) new Formatter(`en-US-x-t${i.toString(36)}`, 'USD', 2).formatMoney(new Decimal(1));
    expect(cachedFormatters()).to.be.at.most(500);
  });
});
