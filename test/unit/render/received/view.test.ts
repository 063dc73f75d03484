// A received e-invoice as the page prints it (render/received-*.ts), from the full EN 16931 model of the e-invoice
// tests with the real catalogues: the request it reads as (parties, dates, references, lines with their units and
// identifiers), its stated amounts in the rows and totals, the block of the terms the other documents do not print
// (VAT breakdown, payment, references, parties' identifiers, payee, tax representative, delivery, attachments,
// notes) in English and German, codes in words, and the check line.
import { expect } from 'chai';
import { type Assets } from '../../../../server/assets';
import type { EInvoice } from '../../../../server/einvoice/model';
import { Decimal } from '../../../../server/money/totals';
import { negotiateLocale } from '../../../../server/render/labels/locale';
import { receivedView, type ReceivedCheck, type ReceivedPage } from '../../../../server/render/received/view';
import { fullInvoice } from '../../../helpers/einvoice-full';
import { projectAssets } from '../../../helpers/project-assets';

const CHECK: ReceivedCheck = {
  specification: 'urn:cen.eu:en16931:2017',
  ruleSets: [
    { name: 'EN 16931', version: '1.3.16' },
    { name: 'Peppol BIS Billing', version: '3.0.19' },
  ],
  valid: true,
  broken: [],
};
const plain = (t: string) => t.replace(/[\u00a0\u202f]/g, ' ');

describe('a received e-invoice as the page prints it', function () {
  let assets: Assets;
  before(function () {
    assets = projectAssets();
  });
  function page(invoice: EInvoice, tag = 'en-GB', check: ReceivedCheck = CHECK): ReceivedPage {
    const locale = negotiateLocale([tag], assets.catalogues.defaultTags);
    return receivedView(invoice, check, { catalogues: assets.catalogues, locale, timeZone: 'UTC' }, { theme: 'slate', pageSize: 'a4' });
  }
  const section = (p: ReceivedPage, key: string) =>
    p.view.received.sections.find((s) => s.key === key)?.rows.map((r) => `${r.label}: ${plain(r.value)}`);

  it('reads as a request: parties with their address lines, dates, purchase order, period, payee, lines', function () {
    const { doc } = page(fullInvoice());
    expect([doc.type, doc.theme, doc.page_size, doc.number, doc.currency]).to.deep.equal(['invoice', 'slate', 'a4', 'RE-2026-0042', 'EUR']);
    expect(doc.from.split('\n')).to.deep.equal([
      'Nordlicht Software GmbH',
      'Hafenstraße 12',
      'Kontor 3',
      '2. OG',
      '20457 Hamburg, HH',
      'Germany',
    ]);
    expect(doc.to.split('\n')[0]).to.equal('Kunde AG');
    expect(doc.ship_to!.split('\n')).to.deep.equal(['Lager Nord', 'Kaistraße 9', 'Halle 2', 'Rampe 5', '24103 Kiel, SH', 'Germany']);
    expect([doc.date, doc.due_date, doc.delivery_date, doc.payment_terms, doc.purchase_order]).to.deep.equal([
      '2026-03-02',
      '2026-04-01',
      '2026-02-27',
      'Net 30 days',
      'PO-7781',
    ]);
    expect([doc.invoice_period, doc.preceding_invoices, doc.e_invoice?.payee?.name]).to.deep.equal([
      { start: '2026-02-01', end: '2026-02-28' },
      [{ number: 'RE-2026-0001', date: '2026-01-15' }],
      'Factoring Bank AG',
    ]);
    const [first, second] = doc.items;
    expect([first!.name, first!.unit, first!.seller_item_id, first!.standard_item_id?.id, first!.note]).to.deep.equal([
      'Development',
      'HUR',
      'DEV-SR',
      '4012345000009',
      'Work on the harbour project',
    ]);
    expect(first!.attributes!.map((a) => `${a.name}: ${a.value}`)).to.deep.equal([
      'Level: Senior',
      'Gross Price: €60.00',
      'Price Discount: €10.10',
      'Order Line: 3',
      'Account: ACC-4410',
      'Object: METER-0815 (AAB)',
      'Classification: 72260000 (TST 19.0501)',
    ]);
    expect([second!.name, second!.unit, second!.attributes]).to.deep.equal(['Training', 'C62', undefined]);
  });

  it('a credit note (381) is one, its order among the references; a postal code after the city where that is the custom', function () {
    const invoice = fullInvoice();
    const buyer = { ...invoice.buyer, address: { street: '1 High St', city: 'London', postalCode: 'SW1A 1AA', country: 'GB' } };
    const p = page({ ...invoice, typeCode: '381', buyer });
    expect([p.doc.type, p.doc.purchase_order, p.doc.to.split('\n').slice(1)]).to.deep.equal([
      'credit_note',
      undefined,
      ['1 High St', 'London SW1A 1AA', 'United Kingdom'],
    ]);
    expect(section(p, 'references')).to.include('Purchase Order: PO-7781');
  });

  it('prints each line with ITS stated amount, one cent off quantity × price, and the stated totals', function () {
    const invoice = fullInvoice();
    const lines = invoice.lines.map((l, i) => (i === 1 ? { ...l, net: new Decimal('80.01') } : l));
    const { view } = page({ ...invoice, lines, totals: { ...invoice.totals, lineNet: new Decimal('229.71') } });
    const amounts = view.rows.map((r) => r.at(-1)!.text);
    expect(amounts).to.deep.equal(['€149.70', '-€10.00', '+€10.00', '€80.01']);
    expect(view.rows[3]!.map((c) => plain(c.text))).to.deep.equal(['Training', '2', '€40.00', '0%', '€80.01']);
    expect(view.totals.map((t) => `${t.label} ${t.value}`)).to.deep.equal([
      'Subtotal €229.71',
      'Discount (10%) -€14.97',
      'Freight €5.00',
      'Tax (19% of €139.73) €26.55',
      'Tax (0% of €80.00) €0.00',
      'Total €246.28',
      'Amount Paid €20.00',
      'Rounding €0.01',
      'Balance €226.29',
    ]);
  });

  it('the VAT breakdown: each category in words with its code, rate, taxable amount, tax and exemption reason', function () {
    const vat = page(fullInvoice()).view.received.vat!;
    expect(vat.columns.map((c) => c.label)).to.deep.equal(['Category', 'Rate', 'Taxable Amount', 'VAT', 'Exemption Reason']);
    expect(vat.rows.map((r) => r.map((c) => c.text))).to.deep.equal([
      ['Standard rate (S)', '19%', '€139.73', '€26.55', ''],
      ['Exempt from VAT (E)', '0%', '€80.00', '€0.00', 'Exempt education\nVATEX-EU-132-1I'],
    ]);
    expect(vat.foot.map((r) => `${r.label}: ${r.value}`)).to.deep.equal(['VAT in USD: US$28.00', 'Tax Point Date: Invoice date (3)']);
  });

  it('payment: the means in words, IBAN in groups, holder, BIC, remittance, further account, card, direct debit', function () {
    expect(section(page(fullInvoice()), 'payment')).to.deep.equal([
      'Payment Means: SEPA credit transfer (58)',
      'IBAN: DE02 1203 0000 0000 2020 51',
      'Account Holder: Nordlicht Software GmbH',
      'BIC: BYLADEM1001',
      'Payment Reference: RE-2026-0042',
      'Further Account: DE89 3704 0044 0532 0130 00\nNordlicht Software GmbH\nCOBADEFFXXX',
      'Card: card ending 1234\nJana Berger',
      'Mandate Reference: MANDATE-1',
      'Creditor ID: DE98ZZZ09999999999',
      'Debited Account: DE75 5121 0800 1245 1261 99',
      'Payment Note: PayPal: https://pay.example/42',
    ]);
  });

  it('references, the parties with their identifiers and schemes, payee, tax representative, delivery', function () {
    const p = page(fullInvoice());
    expect(section(p, 'references')).to.deep.equal([
      'Buyer Reference: 04011000-12345-03',
      'Project: PRJ-77',
      'Contract: CON-2026-1',
      'Sales Order: SO-55',
      'Receiving Advice: RA-9',
      'Despatch Advice: DA-8',
      'Tender or Lot: LOT-3',
      'Invoiced Object: OBJ-1 (AAA)',
      'Buyer Accounting Reference: 4711-000',
      'Business Process: urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
      'Specification: urn:cen.eu:en16931:2017',
    ]);
    expect(section(p, 'seller')).to.deep.equal([
      'Trading Name: Nordlicht',
      'VAT ID: DE123456789',
      'Tax Registration ID: 22/815/08150',
      'Legal Registration ID: HRB 123456 (SIREN)',
      'Identifier: SUP-001\n4000001123452 (GLN)',
      'Electronic Address: invoices@nordlicht.example (EM)',
      'Legal Information: Stammkapital 25.000 EUR',
      'Contact: Jana Berger\n+49 40 1234567\nbilling@nordlicht.example',
    ]);
    expect(section(p, 'buyer')).to.include('Electronic Address: DE987654321 (9930)');
    expect(section(p, 'payee')).to.deep.equal([
      'Name: Factoring Bank AG',
      'Identifier: 4000001000005 (GLN)',
      'Legal Registration ID: HRB 999 (SIREN)',
    ]);
    expect(section(p, 'tax-representative')).to.deep.equal([
      'Name: Steuervertreter GmbH',
      'VAT ID: DE111111111',
      'Address: Am Zoll 1\nHof\nBüro 4\n28195 Bremen, HB\nGermany',
    ]);
    expect(section(p, 'delivery')).to.deep.equal(['Location: 4000001000012 (GLN)']);
    expect(p.view.received.sections.map((s) => s.key)).to.deep.equal([
      'payment',
      'references',
      'seller',
      'buyer',
      'payee',
      'tax-representative',
      'delivery',
      'attachments',
    ]);
  });

  it('lists the attached documents by id, description, file name or address, never their content; notes with codes', function () {
    const p = page(fullInvoice());
    expect(section(p, 'attachments')).to.deep.equal(['TS-1: Timesheet\nhttps://docs.example/ts-1', 'DN-2: Delivery note\ndelivery.pdf']);
    expect(JSON.stringify(p.view)).not.to.contain('JVBERi0xLjQK');
    expect(p.view.received.notes!.rows.map((r) => [r.label, r.value])).to.deep.equal([
      ['', 'Thank you for your business.'],
      ['General information (AAI)', 'General information'],
    ]);
  });

  it('in German: the block, the codes in words and the check line translated', function () {
    const p = page(fullInvoice(), 'de-DE', { ...CHECK, valid: false, broken: ['BR-CO-16', 'BR-06'] });
    expect(p.view.received.check).to.deep.equal({
      text: 'Geprüft nach EN 16931 1.3.16 und Peppol BIS Billing 3.0.19: 2 Regeln verletzt (BR-CO-16, BR-06)',
      valid: false,
    });
    expect(p.view.received.vat!.rows.map((r) => plain(r[0]!.text + ' ' + r[2]!.text))).to.deep.equal([
      'Regelsteuersatz (S) 139,73 €',
      'Steuerbefreit (E) 80,00 €',
    ]);
    expect(section(p, 'payment')!.slice(0, 3)).to.deep.equal([
      'Zahlungsart: SEPA-Überweisung (58)\nSEPA credit transfer',
      'IBAN: DE02 1203 0000 0000 2020 51',
      'Kontoinhaber: Nordlicht Software GmbH',
    ]);
    expect(p.view.received.sections.map((s) => s.title)).to.deep.equal([
      'Zahlung',
      'Referenzen',
      'Verkäufer',
      'Käufer',
      'Zahlungsempfänger',
      'Steuervertreter',
      'Lieferung',
      'Anlagen',
    ]);
  });

  it('the check line: valid, one rule, ten named and how many more, not valid without names, the specification alone', function () {
    const line = (check: Partial<ReceivedCheck>, tag = 'en-GB') =>
      page(fullInvoice(), tag, { ...CHECK, ...check }).view.received.check.text;
    expect(line({})).to.equal('Checked against EN 16931 1.3.16 and Peppol BIS Billing 3.0.19: valid');
    expect(line({ valid: false, broken: ['BR-06'] })).to.equal(
      'Checked against EN 16931 1.3.16 and Peppol BIS Billing 3.0.19: 1 rule broken (BR-06)',
    );
    const twelve = Array.from({ length: 12 }, (_, i) => `BR-${String(i + 1).padStart(2, '0')}`);
    expect(line({ valid: false, broken: twelve })).to.match(/: 12 rules broken \(BR-01, BR-02, .*, BR-10, 2 more\)$/);
    expect(line({ valid: false, broken: [] })).to.match(/: not valid$/);
    expect(line({ ruleSets: [] }, 'fr-FR')).to.equal('Contrôlée selon urn:cen.eu:en16931:2017 : valide');
  });

  it('another document type (BT-3) in words first in the details; a credit note type is a credit note', function () {
    const selfBilled = page({ ...fullInvoice(), typeCode: '389' }, 'de-DE');
    expect([selfBilled.doc.type, selfBilled.view.details[0]]).to.deep.equal([
      'invoice',
      { label: 'Belegart', value: 'Selbst ausgestellte Rechnung (Gutschriftverfahren) (389)' },
    ]);
    const factored = page({ ...fullInvoice(), typeCode: '396' });
    expect([factored.doc.type, factored.view.details[0]]).to.deep.equal([
      'credit_note',
      { label: 'Document Type', value: 'Factored credit note (396)' },
    ]);
    expect(page({ ...fullInvoice(), typeCode: '261' }).doc.type).to.equal('credit_note');
    expect(page(fullInvoice()).view.details[0]!.label).to.equal('Date');
  });

  it("a price per 100 units in the line's unit or its own, a contact's department, no tax line without BT-110", function () {
    const invoice = fullInvoice();
    const [first, second] = invoice.lines;
    const lines = [
      { ...first!, baseQuantity: new Decimal('100'), grossPrice: undefined, priceDiscount: undefined },
      { ...second!, unitCode: 'KGM', baseQuantity: new Decimal('1000'), baseQuantityUnitCode: 'GRM' },
    ];
    const seller = { ...invoice.seller, contact: { ...invoice.seller.contact, department: 'Accounts Receivable' } };
    const p = page({ ...invoice, lines, seller, totals: { ...invoice.totals, taxAbsent: true } });
    expect(p.doc.items.map((i) => i.attributes?.filter((a) => a.name === 'Price per').map((a) => plain(a.value)))).to.deep.equal([
      ['100 h'],
      ['1,000 g'],
    ]);
    expect(section(p, 'seller')).to.include('Contact: Jana Berger\nAccounts Receivable\n+49 40 1234567\nbilling@nordlicht.example');
    expect(p.view.totals.map((t) => t.label).filter((l) => l.startsWith('Tax'))).to.deep.equal([
      'Tax (19% of €139.73)',
      'Tax (0% of €80.00)',
    ]);
    const one = { ...invoice, vatBreakdown: invoice.vatBreakdown.slice(0, 1), totals: { ...invoice.totals, taxAbsent: true } };
    expect(
      page(one)
        .view.totals.map((t) => t.label)
        .filter((l) => l.startsWith('Tax')),
    ).to.deep.equal(['Tax (19% of €139.73)']);
  });

  it('a code the lists do not name prints as itself; a category without a rate prints no rate', function () {
    const invoice = fullInvoice();
    const vatBreakdown = [{ ...invoice.vatBreakdown[1]!, category: { code: 'O' as const } }];
    const p = page({ ...invoice, payment: { ...invoice.payment!, code: '31', text: undefined }, vatBreakdown });
    expect(section(p, 'payment')![0]).to.equal('Payment Means: 31');
    expect(p.view.received.vat!.rows[0]!.slice(0, 2).map((c) => c.text)).to.deep.equal(['Outside the scope of VAT (O)', '']);
  });
});
