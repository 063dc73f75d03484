// The Swiss QR code's payload (Swiss Implementation Guidelines for the QR-bill 2.3) and its checks: the 31 lines of
// the data structure for a QR-IBAN with a QR reference (the guidelines' first sample's data), an IBAN with a creditor
// reference and one without, every refusal naming its field, and the payload read back by ZXingReader.
import { expect } from 'chai';
import { Decimal } from '../../../server/money/decimal';
import { qrDrawing } from '../../../server/payments/qr';
import { swissPayload, swissProblems, type SwissBill } from '../../../server/payments/swiss-qr';
import { rasterise, readQr } from '../../helpers/qr-read';

/** The guidelines' (2.1, annex A) first example (QR-IBAN, QR reference), without its billing information. */
const sample = (over: Partial<SwissBill> = {}): SwissBill => ({
  iban: 'CH44 3199 9123 0008 8901 2',
  creditor: { name: 'Robert Schneider AG', street: 'Rue du Lac 1268', postal_code: '2501', city: 'Biel', country: 'CH' },
  debtor: { name: 'Pia-Maria Rutschmann-Schnyder', street: 'Grosse Marktgasse 28', postal_code: '9400', city: 'Rorschach', country: 'CH' },
  currency: 'CHF',
  amount: new Decimal('1949.75'),
  reference: '21 00000 00003 13947 14300 09017',
  message: 'Order of 15 June 2020',
  ...over,
});

describe('Swiss QR code (QR-bill 2.3)', function () {
  it('writes the 31 lines: SPC 0200 1, the QR-IBAN, the creditor (S), no ultimate creditor, amount, CHF, the debtor, QRR', function () {
    expect(swissProblems(sample())).to.deep.equal([]);
    const lines = swissPayload(sample()).split('\r\n');
    expect(lines).to.have.length(31);
    expect(lines).to.deep.equal([
      'SPC',
      '0200',
      '1',
      'CH4431999123000889012',
      'S',
      'Robert Schneider AG',
      'Rue du Lac 1268',
      '',
      '2501',
      'Biel',
      'CH',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '1949.75',
      'CHF',
      'S',
      'Pia-Maria Rutschmann-Schnyder',
      'Grosse Marktgasse 28',
      '',
      '9400',
      'Rorschach',
      'CH',
      'QRR',
      '210000000003139471430009017',
      'Order of 15 June 2020',
      'EPD',
    ]);
  });

  it('an IBAN with a creditor reference is SCOR; without a reference NON; no debtor leaves seven empty lines', function () {
    const scor = swissPayload(sample({ iban: 'CH93 0076 2011 6238 5295 7', reference: 'RF18 5390 0754 7034', currency: 'EUR' })).split(
      '\r\n',
    );
    expect([scor[3], scor[19], scor[27], scor[28]]).to.deep.equal(['CH9300762011623852957', 'EUR', 'SCOR', 'RF18539007547034']);
    const none = swissPayload(sample({ iban: 'CH9300762011623852957', reference: undefined, debtor: undefined })).split('\r\n');
    expect(none.slice(20, 27)).to.deep.equal(['', '', '', '', '', '', '']);
    expect([none[27], none[28]]).to.deep.equal(['NON', '']);
  });

  it('refuses, naming the field, every case the guidelines rule out', function () {
    const fields = (over: Partial<SwissBill>) => swissProblems(sample(over)).map((p) => p.field);
    expect(fields({ reference: undefined }), 'a QR-IBAN without a QR reference').to.deep.equal(['e_invoice.payment_means.payment_id']);
    expect(fields({ reference: '210000000003139471430009016' }), 'a wrong check digit').to.deep.equal([
      'e_invoice.payment_means.payment_id',
    ]);
    expect(fields({ iban: 'CH9300762011623852957' }), 'a QR reference without a QR-IBAN').to.deep.equal([
      'e_invoice.payment_means.payment_id',
    ]);
    expect(fields({ iban: 'CH9300762011623852957', reference: 'RF19539007547034' })).to.deep.equal(['e_invoice.payment_means.payment_id']);
    expect(fields({ iban: 'DE89370400440532013000' }), 'not CH or LI').to.include('e_invoice.payment_means.iban');
    expect(fields({ currency: 'USD' })).to.deep.equal(['currency']);
    expect(fields({ amount: new Decimal(0) })).to.deep.equal(['balance_due']);
    expect(fields({ creditor: { name: 'Robert Schneider AG', postal_code: '2501', country: 'CH' } })).to.deep.equal([
      'e_invoice.seller.city',
    ]);
    expect(fields({ creditor: { ...sample().creditor, name: 'Роберт Шнайдер' } }), 'outside the character set').to.deep.equal([
      'e_invoice.seller.name',
    ]);
    expect(fields({ debtor: { name: 'Pia Rutschmann' } })).to.deep.equal([
      'e_invoice.buyer.postal_code',
      'e_invoice.buyer.city',
      'e_invoice.buyer.country',
    ]);
    expect(fields({ message: 'x'.repeat(141) })).to.deep.equal(['number']);
  });

  it('is read back by ZXingReader from its drawing, byte for byte (the lines CR LF apart, umlauts in UTF-8)', function () {
    const bill = sample({
      debtor: { name: 'Zürcher Bäckerei AG', street: 'Bahnhofstrasse 1', postal_code: '8001', city: 'Zürich', country: 'CH' },
    });
    const payload = swissPayload(bill);
    expect(readQr(rasterise(qrDrawing(payload)))).to.equal(payload);
  });
});
