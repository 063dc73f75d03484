// A request and its totals as the EN 16931 model (server/einvoice/map.ts with map-dates.ts, map-lines.ts and
// map-parts.ts), one syntax-free model for UBL and CII: every problem of a request reported at once, dates read in the
// request's locale, the type codes, the references a conformant e-invoice needs stood in when the client sends none,
// the lines with their units and periods, the payment, and the totals carried from money/ unchanged.
import { expect } from 'chai';
import type { DocumentRequest } from '../../../server/documents/model';
import { DomainError } from '../../../server/errors';
import { toEInvoice, type MapInput } from '../../../server/einvoice/map';
import type { EInvoice } from '../../../server/einvoice/model';
import { computeTotals } from '../../../server/money/totals';
import { E_INVOICE } from '../../helpers/e-invoice-request';
import { documentRequest } from '../../helpers/money';

const NOW = new Date('2026-11-26T12:00:00Z');
const LABELS = { discount: 'Discount', shipping: 'Shipping' };

function request(fields: Partial<DocumentRequest> = {}): DocumentRequest {
  return documentRequest({
    number: 'INV-1',
    date: '2026-03-02',
    items: [
      { name: 'Consulting', quantity: 3, unit_cost: 150, unit: 'HUR' } as DocumentRequest['items'][number],
      { name: 'Licence', quantity: 1, unit_cost: 99.99 },
    ],
    fields: { tax: '%', discounts: false, shipping: false },
    tax: 21,
    e_invoice: E_INVOICE as DocumentRequest['e_invoice'],
    ...fields,
  });
}

function map(doc: DocumentRequest, input: Partial<MapInput> = {}): EInvoice {
  return toEInvoice({
    doc,
    totals: computeTotals(doc),
    syntax: 'ubl',
    defaultProfile: 'peppol',
    localeTag: 'en-US',
    timeZone: 'UTC',
    labels: LABELS,
    now: NOW,
    ...input,
  });
}

function refusal(doc: DocumentRequest, input: Partial<MapInput> = {}): DomainError {
  try {
    map(doc, input);
  } catch (err) {
    expect(err).to.be.instanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('mapped');
}
const fields = (err: DomainError) => err.facts.details!.map((d) => d.field);

describe('e-invoice model from a request (map.ts)', function () {
  it('an invoice: number, dates, currency, parties, lines, one VAT category and the totals of money/', function () {
    const doc = request();
    const totals = computeTotals(doc);
    const inv = map(doc);
    expect(inv).to.include({ profile: 'peppol', typeCode: '380', number: 'INV-1', issueDate: '2026-03-02', currency: 'EUR' });
    expect(inv.seller.vatId).to.equal('BE0123456749');
    expect(inv.buyer.address?.country).to.equal('NL');
    expect(
      inv.lines.map((l) => [l.id, l.quantity.toFixed(), l.unitCode, l.net.toFixed(2), l.vat.code, l.vat.rate?.toFixed()]),
    ).to.deep.equal([
      ['1', '3', 'HUR', '450.00', 'S', '21'],
      ['2', '1', 'C62', '99.99', 'S', '21'],
    ]);
    expect(inv.vatBreakdown.map((b) => [b.category.code, b.taxable.toFixed(2), b.tax.toFixed(2)])).to.deep.equal([
      ['S', '549.99', '115.50'],
    ]);
    expect(inv.totals.lineNet.eq(totals.subtotal)).to.equal(true);
    expect(inv.totals.tax.eq(totals.tax.amount)).to.equal(true);
    expect(inv.totals.taxInclusive.toFixed(2)).to.equal('665.49');
    expect(inv.totals.payable.toFixed(2)).to.equal('665.49');
    expect([inv.totals.allowances, inv.totals.charges, inv.totals.prepaid]).to.deep.equal([undefined, undefined, undefined]);
    expect(inv.minorUnits).to.equal(2);
  });

  it('every problem at once: no number, an unreadable date, a period ending before it starts, a VAT rate it cannot express', function () {
    const err = refusal(
      request({
        number: undefined,
        due_date: 'someday',
        invoice_period: { start: '2026-03-31', end: '2026-03-01' },
        items: [
          { name: 'A', quantity: 1, unit_cost: 10, tax: 19 },
          { name: 'B', quantity: 1, unit_cost: 10, tax: 7, tax_category: 'E' },
        ],
      }),
    );
    expect(err.code).to.equal('validation_failed');
    expect(fields(err)).to.include.members(['number', 'due_date', 'invoice_period.end']);
    expect(fields(err).some((f) => f.startsWith('items[1]'))).to.equal(true);
  });

  it('dates: numeric ones read month first for en-US and day first elsewhere; a missing issue date is today where the document is', function () {
    expect(map(request({ date: '03/04/2026' })).issueDate).to.equal('2026-03-04');
    expect(map(request({ date: '03/04/2026' }), { localeTag: 'de-DE' }).issueDate).to.equal('2026-04-03');
    expect(map(request({ date: 'Nov 2, 2026', due_date: '2026-12-02' })).dueDate).to.equal('2026-12-02');
    const late = new Date('2026-11-26T23:30:00Z');
    expect(map(request({ date: undefined }), { now: late }).issueDate).to.equal('2026-11-26');
    expect(map(request({ date: undefined }), { now: late, timeZone: 'Asia/Tokyo' }).issueDate).to.equal('2026-11-27');
  });

  it("an item's sku is its seller item identifier (BT-155) when seller_item_id gives none", function () {
    const doc = documentRequest({
      number: 'INV-1',
      date: '2026-03-02',
      tax: 21,
      fields: { tax: '%', discounts: false, shipping: false },
      items: [
        { name: 'a', quantity: 1, unit_cost: 1, sku: 'SKU-A' },
        { name: 'b', quantity: 1, unit_cost: 1, sku: 'SKU-B', seller_item_id: 'ART-B' },
        { name: 'c', quantity: 1, unit_cost: 1 },
      ] as DocumentRequest['items'],
      e_invoice: E_INVOICE as DocumentRequest['e_invoice'],
    });
    expect(map(doc).lines.map((l) => l.sellerItemId)).to.deep.equal(['SKU-A', 'ART-B', undefined]);
  });

  it('type codes: a credit note is 381 and names the invoice it follows; a quote is no e-invoice', function () {
    const credit = map(request({ type: 'credit_note', purchase_order: 'INV-0' }));
    expect(credit.typeCode).to.equal('381');
    expect(credit.orderReference).to.equal(undefined);
    expect(credit.precedingInvoices).to.deep.equal([{ number: 'INV-0' }]);
    expect(map(request({ type: 'receipt' })).typeCode).to.equal('380');
    expect(refusal(request({ type: 'quote' })).code).to.equal('unsupported_type');
  });

  it('references: the number stands in as buyer reference (Peppol R003) unless an order or a reference is sent, never for XRechnung', function () {
    const { buyer_reference: _, ...noRef } = E_INVOICE;
    const e = noRef as DocumentRequest['e_invoice'];
    expect(map(request({ e_invoice: e })).buyerReference).to.equal('INV-1');
    expect(map(request({ e_invoice: e, purchase_order: 'PO-9' }))).to.include({ buyerReference: undefined, orderReference: 'PO-9' });
    expect(map(request()).buyerReference).to.equal('PO-77');
    const xr = refusal(request({ e_invoice: { ...e, profile: 'xrechnung' } as DocumentRequest['e_invoice'] }), { syntax: 'cii' });
    expect(fields(xr)).to.include('e_invoice.buyer_reference');
  });

  it('payment: terms stood in when an amount is due with neither terms nor a due date; the paid amount is prepaid', function () {
    expect(map(request()).paymentTerms).to.equal('Payment due on receipt');
    expect(map(request({ payment_terms: 'Net 30' })).paymentTerms).to.equal('Net 30');
    expect(map(request({ due_date: '2026-04-01' })).paymentTerms).to.equal(undefined);
    const paid = map(request({ amount_paid: 100 }));
    expect(paid.totals.prepaid!.toFixed(2)).to.equal('100.00');
    expect(paid.totals.payable.toFixed(2)).to.equal('565.49');
    expect(paid.payment).to.deep.include({ code: '30', iban: 'BE71096123456769' });
  });

  it('the PDF to attach is named among the documents; the discount and shipping are an allowance and a charge', function () {
    const inv = map(request({ fields: { tax: '%', discounts: '%', shipping: true }, discounts: 10, shipping: 5 }), {
      attachment: 'invoice-INV-1.pdf',
    });
    expect(inv.documents).to.deep.equal([{ id: 'INV-1', description: 'PDF rendering', pdf: { filename: 'invoice-INV-1.pdf' } }]);
    expect(map(request()).documents).to.deep.equal([]);
    expect(inv.allowancesCharges.map((a) => [a.charge, a.reason, a.amount.toFixed(2)])).to.deep.equal([
      [false, 'Discount', '55.00'],
      [true, 'Shipping', '5.00'],
    ]);
    expect(inv.totals.allowances!.toFixed(2)).to.equal('55.00');
    expect(inv.totals.charges!.toFixed(2)).to.equal('5.00');
  });
});
