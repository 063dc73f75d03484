// The totals of a RECEIVED e-invoice, as the view of every document reads them (Totals), taken from the amounts the
// invoice STATES: each line's net amount (BT-131), its allowances and charges (BG-27, BG-28), the document's
// allowances and charges (BG-20, BG-21), BT-106 … BT-115 and the VAT breakdown (BG-23). It computes nothing: no
// amount is rounded, added up or checked here, so the PDF shows exactly what the sender wrote, even a cent that
// our own arithmetic (totals.ts) would have made otherwise. The one figure the invoice does not state is a line's
// amount before its own allowances and charges, which the amount column prints above their sub-rows: it is the
// stated net with the stated allowances and charges taken back out (the line's net is then what the column adds up
// to). Must not format, read labels, or know a syntax.
import type { EInvoice, Line, VatCategory } from '../../einvoice/model';
import { Decimal } from '../../money/decimal';
import type { DocumentAdjustment } from '../../money/document-adjustments';
import type { LineTotal } from '../../money/lines';
import type { Adjustment, Totals } from '../../money/totals-model';
import type { VatGroup, VatSplit } from '../../money/vat';

const zero = (): Decimal => new Decimal(0);
const off = (): Adjustment => ({ mode: 'off', amount: zero(), shown: false });
const key = (c: VatCategory): string => `${c.code}|${c.rate?.toFixed() ?? ''}`;

/** A line as stated: its quantity, price and net amount; before its adjustments, the net with them taken out. */
function statedLine(line: Line): LineTotal {
  const adjustments = line.allowancesCharges ?? [];
  const gross = adjustments.reduce((sum, a) => (a.charge ? sum.sub(a.amount) : sum.add(a.amount)), line.net);
  return {
    quantity: line.quantity,
    unitCost: line.price,
    baseQuantity: line.baseQuantity,
    grossPrice: line.grossPrice,
    priceDiscount: line.priceDiscount,
    gross,
    adjustments,
    amount: line.net,
    payment: zero(),
    runningBalance: zero(),
  };
}

/** BG-20 / BG-21 as the total lines print them, with their category and rate. */
function statedAdjustments(invoice: EInvoice): DocumentAdjustment[] {
  return invoice.allowancesCharges.map((a, i) => ({
    charge: a.charge,
    amount: a.amount,
    base: a.base,
    percent: a.percent,
    reason: a.reason,
    reasonCode: a.reasonCode,
    field: `allowancesCharges[${i}]`,
    category: a.vat.code,
    rate: a.vat.rate,
  }));
}

/** One group per stated breakdown (BG-23), with the lines of its category and rate. A category without a rate (O)
 * is 0% in the view. A breakdown states no sum of its lines apart from its taxable amount: `net` is that amount. */
function statedVat(invoice: EInvoice): VatSplit {
  if (invoice.vatBreakdown.length === 0) return { perLine: false, groups: [] };
  const groups = invoice.vatBreakdown.map((b): VatGroup => ({
    rate: b.category.rate ?? zero(),
    category: b.category.code,
    lines: [],
    net: b.taxable,
    discount: zero(),
    shipping: zero(),
    adjustments: [],
    taxable: b.taxable,
    tax: b.tax,
  }));
  const byKey = new Map(invoice.vatBreakdown.map((b, i) => [key(b.category), groups[i]!]));
  invoice.lines.forEach((line, i) => byKey.get(key(line.vat))?.lines.push(i));
  return { perLine: true, groups };
}

/** The VAT total (BT-110), with the rate when the breakdown has one group (printed "Tax (19%)"). An invoice that
 * states no BT-110 prints none: only its groups' tax, each on its base. */
function statedTax(invoice: EInvoice, vat: VatSplit): Adjustment {
  if (invoice.totals.taxAbsent) return { mode: 'flat', amount: invoice.totals.tax, shown: false };
  const rate = vat.groups.length === 1 ? vat.groups[0]!.rate : undefined;
  return { mode: rate ? 'percent' : 'flat', rate, amount: invoice.totals.tax, shown: true };
}

/** The invoice's own amounts as Totals (see the header: nothing is computed). */
export function statedTotals(invoice: EInvoice): Totals {
  const t = invoice.totals;
  const lines = invoice.lines.map(statedLine);
  const vat = statedVat(invoice);
  const prepaid = t.prepaid ?? zero();
  const rounding = t.rounding ?? zero();
  return {
    currency: invoice.currency,
    minorUnits: invoice.minorUnits,
    lines,
    // A count, not money: read only by the packing slip and the timesheet, never by an invoice or a credit note.
    totalQuantity: lines.reduce((sum, l) => sum.add(l.quantity), zero()),
    subtotal: t.lineNet,
    discount: off(),
    tax: statedTax(invoice, vat),
    shipping: off(),
    afterDiscount: t.lineNet,
    documentAdjustments: statedAdjustments(invoice),
    allowances: t.allowances ?? zero(),
    charges: t.charges ?? zero(),
    taxBase: t.taxExclusive,
    taxExclusive: t.taxExclusive,
    payments: zero(),
    total: t.taxInclusive,
    amountPaid: prepaid,
    rounding,
    balance: t.payable,
    show: { subtotal: true, amountPaid: !prepaid.isZero(), payments: false, rounding: !rounding.isZero() },
    taxCurrency: invoice.taxCurrency,
    vat,
    pricesIncludeTax: false,
  };
}
