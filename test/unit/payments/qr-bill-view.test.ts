// The Swiss QR-bill as the page prints it (render/view/qr-bill-view.ts): the groups the guidelines print the account and
// the references in, the amount with a space between thousands, the addresses with the country code before the post
// code outside Switzerland, the code drawn without a quiet zone, and the headings file's languages checked at start-up.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import QRCode from 'qrcode';
import { Decimal } from '../../../server/money/decimal';
import type { SwissBill } from '../../../server/payments/swiss-qr';
import { swissPayload } from '../../../server/payments/swiss-qr';
import { loadQrBillLabels } from '../../../server/render/labels/qr-bill-labels';
import { qrBillAmount, qrBillView } from '../../../server/render/view/qr-bill-view';
import { projectRoot } from '../../../server/config';

const LOCALES = path.join(projectRoot(), 'locales');
const labels = (() => {
  const problems: string[] = [];
  const of = loadQrBillLabels(LOCALES, problems);
  expect(problems).to.deep.equal([]);
  return of;
})();

const bill = (over: Partial<SwissBill> = {}): SwissBill => ({
  iban: 'CH64 3196 1000 0044 2155 7',
  creditor: { name: 'Max Muster & Söhne', street: 'Musterstrasse 123', postal_code: '8000', city: 'Seldwyla', country: 'CH' },
  debtor: { name: 'Simon Muster', street: 'Musterstrasse 1', postal_code: '8000', city: 'Seldwyla', country: 'CH' },
  currency: 'CHF',
  amount: new Decimal('50'),
  reference: '000008207791225857421286694',
  message: 'Payment of travel',
  ...over,
});

describe('the QR-bill as printed', function () {
  it('groups the account by four, a QR reference by five from the right, a creditor reference by four', function () {
    const qrr = qrBillView(bill(), swissPayload(bill()), 'en', labels('en'));
    expect(qrr.account).to.equal('CH64 3196 1000 0044 2155 7');
    expect(qrr.reference).to.equal('00 00082 07791 22585 74212 86694');
    const scor = bill({ iban: 'CH5800791123000889012', reference: 'rf18 5390 0754 7034'.toUpperCase() });
    expect(qrBillView(scor, swissPayload(scor), 'en', labels('en')).reference).to.equal('RF18 5390 0754 7034');
    const none = bill({ iban: 'CH5800791123000889012', reference: undefined });
    expect(qrBillView(none, swissPayload(none), 'en', labels('en')).reference).to.equal(undefined);
  });

  it('prints the amount with a space between thousands and a point before the cents', function () {
    expect(['0.05', '50.00', '1949.75', '1234567.80', '999999999.99'].map(qrBillAmount)).to.deep.equal([
      '0.05',
      '50.00',
      '1 949.75',
      '1 234 567.80',
      '999 999 999.99',
    ]);
  });

  it('prints the country code before the post code outside Switzerland, Liechtenstein included; no street, no line', function () {
    const abroad = bill({
      creditor: { name: 'Max Muster & Söhne', postal_code: '9490', city: 'Vaduz', country: 'LI' },
      debtor: { name: 'Sarah Beispiel', street: 'Musterstrasse 1', postal_code: '78462', city: 'Konstanz', country: 'DE' },
    });
    const view = qrBillView(abroad, swissPayload(abroad), 'de', labels('de'));
    expect(view.creditor).to.deep.equal(['Max Muster & Söhne', 'LI-9490 Vaduz']);
    expect(view.debtor).to.deep.equal(['Sarah Beispiel', 'Musterstrasse 1', 'DE-78462 Konstanz']);
    expect(qrBillView(bill(), swissPayload(bill()), 'en', labels('en')).creditor).to.deep.equal([
      'Max Muster & Söhne',
      'Musterstrasse 123',
      '8000 Seldwyla',
    ]);
    expect(qrBillView(bill({ debtor: undefined }), swissPayload(bill({ debtor: undefined })), 'en', labels('en')).debtor).to.equal(
      undefined,
    );
  });

  it("draws the code without a quiet zone, the symbol's own modules across, and says what it pays in the bill's language", function () {
    const payload = swissPayload(bill());
    const view = qrBillView(bill(), payload, 'fr', labels('fr'));
    const symbol = QRCode.create([{ data: Buffer.from(payload, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' });
    expect(view.code.modules).to.equal(symbol.modules.size);
    expect(view.code.path.startsWith('M0 0h7v1h-7z')).to.equal(true);
    expect(view.code.alt).to.equal('Code QR suisse : payer CHF 50.00 à Max Muster & Söhne');
    expect(view.labels.payment_part).to.equal('Section paiement');
  });

  it('sets long data in the smallest sizes the guidelines allow, each part on its own estimate; short data as recommended', function () {
    expect(qrBillView(bill(), swissPayload(bill()), 'en', labels('en')).compact).to.deep.equal({ receipt: false, payment: false });
    const long = bill({ creditor: { ...bill().creditor, name: 'W'.repeat(70), street: 'S'.repeat(70) } });
    expect(qrBillView(long, swissPayload(long), 'en', labels('en')).compact).to.deep.equal({ receipt: true, payment: false });
    const longer = bill({ ...long, debtor: { ...bill().debtor, name: 'N'.repeat(70), street: 'S'.repeat(70) }, message: 'M'.repeat(140) });
    expect(qrBillView(longer, swissPayload(longer), 'en', labels('en')).compact).to.deep.equal({ receipt: true, payment: true });
  });

  it('refuses a headings file that lacks a language or a key, or has one too many, listing every problem', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-qr-bill-labels-'));
    const table = JSON.parse(fs.readFileSync(path.join(LOCALES, 'qr-bill.json'), 'utf8'));
    delete table.languages.it;
    delete table.languages.en.code_alt;
    delete table.languages.de.amount;
    table.languages.fr.extra = 'x';
    fs.writeFileSync(path.join(dir, 'qr-bill.json'), JSON.stringify(table));
    const problems: string[] = [];
    loadQrBillLabels(dir, problems);
    expect(problems).to.deep.equal([
      'qr-bill.json: languages.en lacks code_alt',
      'qr-bill.json: languages.de lacks amount',
      'qr-bill.json: languages.fr has key(s) the QR-bill does not print: extra',
      'qr-bill.json: languages.it is missing',
    ]);
    fs.rmSync(path.join(dir, 'qr-bill.json'));
    const missing: string[] = [];
    loadQrBillLabels(dir, missing);
    expect(missing[0]).to.match(/^qr-bill\.json: ENOENT/);
  });
});
