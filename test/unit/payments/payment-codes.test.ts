// The payment codes' payloads and checks against their standards, and the QR drawing read back by ZXingReader: ISO
// 11649 creditor references and the Swiss QR reference with their guidelines' own examples, QR-IBANs, the EPC069-12
// payload line by line, every check naming its field, and the 331-byte limit.
import { expect } from 'chai';
import { Decimal } from '../../../server/money/decimal';
import { EPC_MAX_BYTES, epcPayload, epcProblems, type EpcTransfer } from '../../../server/payments/epc';
import { qrDrawing } from '../../../server/payments/qr';
import { isCreditorReference, isQrIban, isQrReference, isSepaIban, mod10Recursive } from '../../../server/payments/references';
import { rasterise, readQr } from '../../helpers/qr-read';

const transfer = (over: Partial<EpcTransfer> = {}): EpcTransfer => ({
  name: 'Northwind Traders GmbH',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  currency: 'EUR',
  amount: new Decimal('2354.86'),
  reference: 'RF18 5390 0754 7034',
  ...over,
});

describe('payment references', function () {
  it('ISO 11649 creditor references: the standard example, and one check digit off', function () {
    expect(isCreditorReference('RF18539007547034')).to.equal(true);
    expect(isCreditorReference('RF19539007547034')).to.equal(false);
    expect(isCreditorReference('RF18')).to.equal(false);
    expect(isCreditorReference('RF18' + 'A'.repeat(22))).to.equal(false);
  });

  it('Swiss QR references: the guidelines’ example, its check digit (modulo 10 recursive), and a wrong one', function () {
    expect(mod10Recursive('21000000000313947143000901')).to.equal(7);
    expect(isQrReference('210000000003139471430009017')).to.equal(true);
    expect(isQrReference('210000000003139471430009016')).to.equal(false);
    expect(isQrReference('21000000000313947143000901')).to.equal(false);
  });

  it('QR-IBANs are CH/LI IBANs with an institution identifier of 30000-31999; SEPA countries', function () {
    expect(isQrIban('CH4431999123000889012')).to.equal(true);
    expect(isQrIban('CH9300762011623852957')).to.equal(false);
    expect(isQrIban('CH4431999123000889013')).to.equal(false);
    expect(isSepaIban('DE89370400440532013000')).to.equal(true);
    expect(isSepaIban('CH9300762011623852957')).to.equal(true);
    expect(isSepaIban('BR1800360305000010009795493C1')).to.equal(false);
  });
});

describe('EPC QR code (EPC069-12 version 002)', function () {
  it('writes the payload line by line: BCD, 002, UTF-8, SCT, BIC, name, IBAN, amount, the RF reference structured', function () {
    expect(epcProblems(transfer())).to.deep.equal([]);
    expect(epcPayload(transfer()).split('\n')).to.deep.equal([
      'BCD',
      '002',
      '1',
      'SCT',
      'COBADEFFXXX',
      'Northwind Traders GmbH',
      'DE89370400440532013000',
      'EUR2354.86',
      '',
      'RF18539007547034',
    ]);
  });

  it('puts a reference that is not an RF one as remittance text, and leaves the BIC out when none is given', function () {
    const lines = epcPayload(transfer({ bic: undefined, reference: 'Rechnung INV-7 – Müller' })).split('\n');
    expect(lines).to.deep.equal([
      'BCD',
      '002',
      '1',
      'SCT',
      '',
      'Northwind Traders GmbH',
      'DE89370400440532013000',
      'EUR2354.86',
      '',
      '',
      'Rechnung INV-7 – Müller',
    ]);
  });

  it('refuses, naming the field: another currency, a non-SEPA or mistyped IBAN, a bad RF, nothing due, a long name', function () {
    const fields = (over: Partial<EpcTransfer>) => epcProblems(transfer(over)).map((p) => p.field);
    expect(fields({ currency: 'CHF' })).to.deep.equal(['currency']);
    expect(fields({ iban: 'DE89370400440532013001' })).to.deep.equal(['e_invoice.payment_means.iban']);
    expect(fields({ iban: 'BR1800360305000010009795493C1' })).to.deep.equal(['e_invoice.payment_means.iban']);
    expect(fields({ reference: 'RF19539007547034' })).to.deep.equal(['e_invoice.payment_means.payment_id']);
    expect(fields({ amount: new Decimal(0) })).to.deep.equal(['balance_due']);
    expect(fields({ name: 'N'.repeat(71) })).to.deep.equal(['e_invoice.payment_means.account_name']);
    expect(fields({ name: 'Two\nlines' })).to.deep.equal(['e_invoice.payment_means.account_name']);
    // A tab would go into the payload as it is (its fields are lines): refused like a line break.
    expect(fields({ name: 'Acme\tGmbH' })).to.deep.equal(['e_invoice.payment_means.account_name']);
    expect(fields({ reference: 'INV\t7' })).to.deep.equal(['e_invoice.payment_means.payment_id']);
    expect(fields({ bic: 'COBADE' })).to.deep.equal(['e_invoice.payment_means.bic']);
    // Invisible characters that change what a banking app shows: a bidi override, a zero-width space, a BOM, a NUL.
    for (const name of ['Northwind \u202eTraders', 'North\u200bwind', 'North\ufeffwind', 'North\u0000wind', 'A\u2067B'])
      expect(fields({ name }), JSON.stringify(name)).to.deep.equal(['e_invoice.payment_means.account_name']);
    expect(fields({ reference: 'INV-7\u202e' })).to.deep.equal(['e_invoice.payment_means.payment_id']);
    // Letters of any script, accents and emoji are what a name may hold.
    for (const name of ['Müller & Söhne GmbH', 'Łódź Sp. z o.o.', 'Ελληνικά ΑΕ', 'Café ☕ Co'])
      expect(fields({ name }), name).to.deep.equal([]);
  });

  it('stays within 331 bytes: the longest fields in multi-byte letters are refused, not cut', function () {
    const long = transfer({ name: 'Ü'.repeat(70), reference: '€'.repeat(140) });
    expect(Buffer.byteLength(epcPayload(long), 'utf8')).to.be.greaterThan(EPC_MAX_BYTES);
    expect(
      epcProblems(long)
        .map((p) => p.message)
        .join(),
    ).to.match(/exceed 331 bytes/);
  });

  it('is read back by ZXingReader from its drawing, byte for byte (umlauts and dashes in UTF-8)', function () {
    for (const t of [transfer(), transfer({ reference: 'Rechnung INV-7 – Müller', bic: undefined })]) {
      const payload = epcPayload(t);
      const drawing = qrDrawing(payload);
      expect(drawing.size).to.equal(drawing.version * 4 + 17 + 8);
      expect(readQr(rasterise(drawing))).to.equal(payload);
    }
  });
});
