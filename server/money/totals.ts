// Totals (decisions §2): the one computation of every amount a document shows, shared by the PDF and the UBL.
// Exact decimal arithmetic (decimal.js), rounding half away from zero to the currency's ISO 4217 minor units.
// Also decides which total lines are shown. Must not format for display (render/format.ts does) or read labels.
import type { DocumentRequest, SubtotalMode, TaxCategoryCode } from '../documents/model';
import { minorUnits } from '../documents/currency';
import { Decimal, roundMoney } from './decimal';
import { splitVat, type VatSplit } from './vat';

export { Decimal, roundMoney };

export interface Adjustment {
  /** `percent`: `rate` is a percentage of the base; `flat`: the amount as sent; `off`: no line. */
  mode: 'percent' | 'flat' | 'off';
  /** The percent rate (only in percent mode). */
  rate?: Decimal;
  amount: Decimal;
  /** Whether the document shows this line ("null or zero is omitted"). */
  shown: boolean;
}

/** A line's allowance or charge (EN 16931 BG-27 / BG-28): its amount, rounded, and the percentage and base it was
 * computed from when it is a percentage. */
export interface LineAdjustment {
  charge: boolean;
  amount: Decimal;
  base?: Decimal;
  percent?: Decimal;
  reason?: string;
  reasonCode?: string;
}

export interface LineTotal {
  quantity: Decimal;
  unitCost: Decimal;
  /** How many units unit_cost is the price of (price_base_quantity, BT-149), when sent. */
  baseQuantity?: Decimal;
  /** The line's allowances and charges, in the order sent (allowances first). */
  adjustments: LineAdjustment[];
  /** quantity × unit_cost, rounded to minor units: the charge of the line. */
  amount: Decimal;
  /** Statement lines: the payment on this line (0 when none). */
  payment: Decimal;
  /** Statement lines: opening balance plus every charge minus every payment so far. */
  runningBalance: Decimal;
}

export interface Totals {
  currency: string;
  minorUnits: number;
  lines: LineTotal[];
  /** Sum of line quantities (hours on a timesheet, units on a packing slip). */
  totalQuantity: Decimal;
  subtotal: Decimal;
  discount: Adjustment;
  tax: Adjustment;
  shipping: Adjustment;
  /** The subtotal after the discount: the base of a percent tax and a percent shipping charge. */
  afterDiscount: Decimal;
  /** The total without tax (after the discount, with shipping). */
  taxExclusive: Decimal;
  /** Statements: the sum of line payments. */
  payments: Decimal;
  total: Decimal;
  /** amount_paid, or amount_refunded on a credit note; the opening balance on a statement. */
  amountPaid: Decimal;
  balance: Decimal;
  show: { subtotal: boolean; amountPaid: boolean; payments: boolean };
  /** The tax by rate (money/vat.ts): one group for a document tax, a group per rate and category for line rates. */
  vat: VatSplit;
}

export interface TotalsInput {
  type?: DocumentRequest['type'];
  currency: string;
  items: ReadonlyArray<{
    quantity?: number | string;
    unit_cost?: number | string;
    payment?: number | string;
    /** A line's own VAT rate (percent) and category (money/vat.ts). */
    tax?: number | string;
    tax_category?: TaxCategoryCode;
  }>;
  fields: { tax: SubtotalMode; discounts: SubtotalMode; shipping: SubtotalMode };
  discounts?: number | string;
  tax?: number | string;
  shipping?: number | string;
  amount_paid?: number | string;
  amount_refunded?: number | string;
}

function dec(value: number | string | undefined, fallback: number): Decimal {
  return new Decimal(value === undefined || value === '' ? fallback : value);
}

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

export function computeTotals(input: TotalsInput): Totals {
  const digits = minorUnits(input.currency);
  const noMoney = input.type === 'packing_slip';
  // Rounded to the currency like every other amount (10.005 EUR is 10.01; JPY 0.5 is 1).
  const opening = roundMoney(dec(input.type === 'credit_note' ? input.amount_refunded : input.amount_paid, 0), digits);

  let subtotal = new Decimal(0);
  let payments = new Decimal(0);
  let totalQuantity = new Decimal(0);
  let running = input.type === 'statement' ? opening : new Decimal(0);
  const lines: LineTotal[] = input.items.map((item) => {
    const quantity = dec(item.quantity, 1);
    const unitCost = noMoney ? new Decimal(0) : dec(item.unit_cost, 0);
    const amount = roundMoney(quantity.mul(unitCost), digits);
    const payment = noMoney ? new Decimal(0) : roundMoney(dec(item.payment, 0), digits);
    subtotal = subtotal.add(amount);
    payments = payments.add(payment);
    totalQuantity = totalQuantity.add(quantity);
    running = running.add(amount).sub(payment);
    return { quantity, unitCost, adjustments: [], amount, payment, runningBalance: running };
  });

  const discount = adjustment(input.fields.discounts, input.discounts, subtotal, digits);
  const afterDiscount = subtotal.sub(discount.amount);
  let tax = adjustment(input.fields.tax, input.tax, afterDiscount, digits);
  const shipping = adjustment(input.fields.shipping, input.shipping, afterDiscount, digits);
  const vat = splitVat({
    lines: noMoney ? [] : input.items.map((item, i) => ({ amount: lines[i]!.amount, tax: item.tax, tax_category: item.tax_category })),
    mode: input.fields.tax,
    documentTax: dec(input.tax, 0),
    subtotal,
    discount: discount.amount,
    shipping: shipping.amount,
    documentTaxAmount: tax.amount,
    digits,
  });
  if (vat.perLine) {
    // The sum of the groups' taxes; one rate when every group has the same (then printed as one line, as before).
    const amount = vat.groups.reduce((sum, g) => sum.add(g.tax), new Decimal(0));
    const rates = new Set(vat.groups.map((g) => g.rate!.toFixed()));
    tax = { mode: 'percent', rate: rates.size === 1 ? vat.groups[0]!.rate : undefined, amount, shown: !amount.isZero() || rates.size > 1 };
  }
  const total = afterDiscount.add(tax.amount).add(shipping.amount);
  const balance = input.type === 'statement' ? opening.add(total).sub(payments) : total.sub(opening);

  return {
    currency: input.currency.toUpperCase(),
    minorUnits: digits,
    lines,
    totalQuantity,
    subtotal,
    discount,
    tax,
    shipping,
    afterDiscount,
    taxExclusive: afterDiscount.add(shipping.amount),
    payments,
    total,
    amountPaid: opening,
    balance,
    vat,
    show: {
      subtotal: discount.shown || tax.shown || shipping.shown,
      amountPaid: !opening.isZero(),
      payments: !payments.isZero(),
    },
  };
}
