// Totals (docs/decisions.md §2): the one computation of every amount a document shows, shared by the PDF and every e-invoice.
// Exact decimal arithmetic (decimal.js), rounding half away from zero to the currency's ISO 4217 minor units: the
// lines (lines.ts), the discount, the document allowances and charges (document-adjustments.ts), the tax (one, by
// VAT rate in vat.ts, or several in taxes.ts), shipping, the tax in the VAT accounting currency and the rounding of
// the amount due, after refusing at once what cannot be computed (refusals.ts). Also decides which total lines are
// shown. With prices that include tax (`prices_include_tax`) every amount sent is gross: the tax is taken out of them
// (vat.ts, taxes.ts) and the net form the e-invoices carry is made from them (inclusive.ts). Must not format for
// display (render/labels/format.ts does) or read labels.
import type { SubtotalMode } from '../documents/model';
import { minorUnits } from '../documents/currency';
import { Decimal, roundMoney } from './decimal';
import { documentAdjustments, sumOf, type DocumentAdjustment } from './document-adjustments';
import { dec, lineTotals, type LineTotal } from './lines';
import { refuseMoneyProblems } from './refusals';
import { netTotals } from './inclusive';
import { severalTaxes, type SentTax, type SeveralTaxes } from './taxes';
import { includedTax, splitVat, type VatSplit } from './vat';
import type { Adjustment, Totals, TotalsInput } from './totals-model';

export { Decimal, roundMoney };
export type { LineAdjustment, LineTotal } from './lines';
export type { DocumentAdjustment } from './document-adjustments';
export type { Adjustment, Totals, TotalsInput } from './totals-model';

/** The rate, with as few decimals as possible (at most 8), that turns `base` into exactly `tax` at `digits` minor
 * units: a flat tax as the VAT rate an e-invoice must state. Undefined when none does (a base of zero). */
export function rateReproducing(tax: Decimal, base: Decimal, digits: number): Decimal | undefined {
  if (base.isZero()) return undefined;
  for (let places = 0; places <= 8; places++) {
    const rate = tax.mul(100).div(base).toDecimalPlaces(places);
    if (roundMoney(base.mul(rate).div(100), digits).eq(tax)) return rate;
  }
  return undefined;
}

function adjustment(mode: SubtotalMode, value: number | string | undefined, base: Decimal, digits: number): Adjustment {
  const sent = dec(value, 0);
  if (mode === '%') {
    return { mode: 'percent', rate: sent, amount: roundMoney(base.mul(sent).div(100), digits), shown: !sent.isZero() };
  }
  if (mode === true) {
    return { mode: 'flat', amount: roundMoney(sent, digits), shown: !sent.isZero() };
  }
  return { mode: 'off', amount: new Decimal(0), shown: false };
}

interface TaxContext {
  lines: LineTotal[];
  subtotal: Decimal;
  discount: Adjustment;
  shipping: Adjustment;
  adjustments: DocumentAdjustment[];
  taxBase: Decimal;
  digits: number;
}

/** Several taxes: one line each, their sum the tax; the VAT groups when they are one VAT rate per line. */
function taxesOf(input: TotalsInput, taxes: readonly SentTax[], c: TaxContext): { tax: Adjustment; vat: VatSplit; taxes: SeveralTaxes } {
  const several = severalTaxes({
    taxes,
    lines: c.lines.map((l, i) => ({ amount: l.amount, taxes: input.items[i]!.taxes })),
    discount: c.discount.amount,
    adjustments: c.adjustments,
    digits: c.digits,
    included: input.prices_include_tax,
  });
  const rates = new Set(several.lines.map((l) => l.rate?.toFixed()));
  const rate = several.vatGroups && rates.size === 1 ? several.lines[0]!.rate : undefined;
  const tax: Adjustment = { mode: 'flat', rate, amount: several.total, shown: true };
  const vat: VatSplit = several.vatGroups
    ? { perLine: true, untaxedShipping: true, groups: several.vatGroups }
    : { perLine: false, groups: [] };
  return { tax, vat, taxes: several };
}

/** The one document tax (`tax`), by VAT rate when lines or adjustments have their own (vat.ts). */
function taxOf(input: TotalsInput, c: TaxContext): { tax: Adjustment; vat: VatSplit } {
  let tax = adjustment(input.fields.tax, input.tax, c.taxBase, c.digits);
  // Prices that include tax: the percent is taken out of the gross base (a flat amount was refused).
  if (input.prices_include_tax && tax.mode === 'percent') tax = { ...tax, amount: includedTax(c.taxBase, tax.rate!, c.digits) };
  const vat = splitVat({
    lines: input.items.map((item, i) => ({ amount: c.lines[i]!.amount, tax: item.tax, tax_category: item.tax_category })),
    mode: input.fields.tax,
    documentTax: dec(input.tax, 0),
    subtotal: c.subtotal,
    discount: c.discount.amount,
    shipping: c.shipping.amount,
    adjustments: c.adjustments,
    documentTaxAmount: tax.amount,
    digits: c.digits,
    included: input.prices_include_tax,
  });
  if (vat.perLine) {
    // The sum of the groups' taxes; one rate when every group has the same (then printed as one line, as before).
    const amount = vat.groups.reduce((sum, g) => sum.add(g.tax), new Decimal(0));
    const rates = new Set(vat.groups.map((g) => g.rate!.toFixed()));
    tax = { mode: 'percent', rate: rates.size === 1 ? vat.groups[0]!.rate : undefined, amount, shown: !amount.isZero() || rates.size > 1 };
  }
  return { tax, vat };
}

/** BT-111: the VAT total times the exchange rate, rounded to the tax currency's minor units. */
function taxCurrencyOf(sent: { code: string; exchange_rate: number | string } | undefined, tax: Decimal): Totals['taxCurrency'] {
  if (!sent) return undefined;
  const code = sent.code.toUpperCase();
  const digits = minorUnits(code);
  return { code, tax: roundMoney(tax.mul(sent.exchange_rate), digits), minorUnits: digits };
}

/** Every amount of the document; first a validation_failed naming every problem when the request's money cannot be computed. */
export function computeTotals(input: TotalsInput): Totals {
  refuseMoneyProblems(input);
  const digits = minorUnits(input.currency);
  const noMoney = input.type === 'packing_slip';
  // Rounded to the currency like every other amount (10.005 EUR is 10.01; JPY 0.5 is 1).
  const opening = roundMoney(dec(input.type === 'credit_note' ? input.amount_refunded : input.amount_paid, 0), digits);
  const lines = lineTotals(input.items, digits, noMoney, input.type === 'statement' ? opening : undefined);
  const sum = (f: (l: (typeof lines)[number]) => Decimal) => lines.reduce((a, l) => a.add(f(l)), new Decimal(0));
  const subtotal = sum((l) => l.amount);
  const payments = sum((l) => l.payment);

  const discount = adjustment(input.fields.discounts, input.discounts, subtotal, digits);
  const afterDiscount = subtotal.sub(discount.amount);
  const adjustments = noMoney ? [] : documentAdjustments(input.e_invoice, subtotal, digits);
  const taxBase = afterDiscount.sub(sumOf(adjustments, false)).add(sumOf(adjustments, true));
  const shipping = adjustment(input.fields.shipping, input.shipping, afterDiscount, digits);
  const c: TaxContext = { lines, subtotal, discount, shipping, adjustments, taxBase, digits };
  const { tax, vat, taxes } = input.taxes ? taxesOf(input, input.taxes, c) : { ...taxOf(input, c), taxes: undefined };
  const included = Boolean(input.prices_include_tax);
  // Gross amounts already hold the tax: the total is their sum, the amount without tax what is left without it.
  const taxExclusive = included ? taxBase.add(shipping.amount).sub(tax.amount) : taxBase.add(shipping.amount);
  const total = taxExclusive.add(tax.amount);
  const rounding = roundMoney(dec(input.e_invoice?.rounding_amount, 0), digits);
  const balance = (input.type === 'statement' ? opening.add(total).sub(payments) : total.sub(opening)).add(rounding);

  const totals: Totals = {
    currency: input.currency.toUpperCase(),
    minorUnits: digits,
    lines,
    totalQuantity: sum((l) => l.quantity),
    subtotal,
    discount,
    tax,
    shipping,
    afterDiscount,
    documentAdjustments: adjustments,
    allowances: sumOf(adjustments, false),
    charges: sumOf(adjustments, true),
    taxBase,
    taxExclusive,
    payments,
    total,
    amountPaid: opening,
    rounding,
    balance,
    vat,
    taxes,
    taxCurrency: taxCurrencyOf(input.e_invoice?.tax_currency, tax.amount),
    show: {
      // Prices that include tax: the tax adds no line between the subtotal and the total.
      subtotal: discount.shown || (tax.shown && !included) || shipping.shown || adjustments.length > 0,
      amountPaid: !opening.isZero(),
      payments: !payments.isZero(),
      rounding: !rounding.isZero(),
    },
    pricesIncludeTax: included,
  };
  return included ? { ...totals, net: netTotals(totals) } : totals;
}
