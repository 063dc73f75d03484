// VAT by rate: the document's tax split into groups of lines that share a rate and category, each with its base and its
// tax, for the PDF's breakdown and every e-invoice's (EN 16931 BG-23). Two modes:
// - Document tax (no line sends its own `tax` or `tax_category`): one group, exactly today's computation: the tax is
//   the document's percent (or flat amount) of the subtotal after the discount; shipping is not taxed and stays
//   outside the group (as the reference API has it).
// - Line rates (any line sends `tax` or `tax_category`, or a document allowance or charge its own `tax_category`):
//   each line's rate is its own, else the document's percent; an allowance or charge with its own category and rate
//   joins the group of that category and rate (a group of its own, without lines, when no line has them).
//   The discount and the shipping are shared across the groups in proportion to their amounts (the discount to the
//   lines' amounts, the shipping to the amounts after the discount), to the minor unit, largest remainders first, so
//   the shares add up exactly; shipping then carries the VAT of what it ships (the EU rule for ancillary costs).
//   Document allowances and charges without a category of their own are shared like the discount.
//   Each group's tax is its base times its rate, rounded once (EN 16931 BR-CO-17); the document's tax is their sum.
// Prices that include tax (`prices_include_tax`, money/inclusive.ts): the group's amounts are gross, its tax is taken
// out of them once (gross × rate ÷ (100 + rate), rounded) and its taxable amount is the gross less that tax.
// Must not format or know e-invoice syntaxes; raises only validation errors naming the field.
import type { TaxCategoryCode } from '../documents/model';
import { errors, type FieldProblem } from '../errors';
import { Decimal, roundMoney, sentDecimal } from './decimal';
import type { DocumentAdjustment } from './document-adjustments';

export interface VatGroup {
  /** The rate in percent; undefined for a flat document tax (an e-invoice states the rate that reproduces it). */
  rate?: Decimal;
  /** The lines' own category (items[].tax_category), when they sent one. */
  category?: TaxCategoryCode;
  /** Indexes of the lines in the group, in document order. */
  lines: number[];
  /** The lines' amounts. */
  net: Decimal;
  /** The group's share of the discount and (line rates only) of the shipping. */
  discount: Decimal;
  shipping: Decimal;
  /** The document allowances and charges in the group: its share of each shared one, the whole of its own ones. */
  adjustments: AdjustmentShare[];
  /** net − discount − allowances + shipping + charges: what the tax is charged on. With prices that include tax, the
   * amounts above are gross and this is their sum less the tax (the net the tax is on). */
  taxable: Decimal;
  tax: Decimal;
}

/** A document allowance or charge (totals' `documentAdjustments[index]`), or the group's share of it. */
export interface AdjustmentShare {
  index: number;
  charge: boolean;
  amount: Decimal;
}

export interface VatSplit {
  /** Whether lines carry their own rates (then shipping is inside the groups, unless untaxedShipping). */
  perLine: boolean;
  /** Several taxes as VAT rates (taxes.ts): shipping stays untaxed, outside the groups. */
  untaxedShipping?: boolean;
  groups: VatGroup[];
}

export interface VatLineInput {
  amount: Decimal;
  /** items[].tax as sent. */
  tax?: number | string;
  tax_category?: TaxCategoryCode;
}

export interface VatInput {
  lines: VatLineInput[];
  /** `%`: percent of the base; `true`: a flat amount; `false`: none. */
  mode: boolean | '%';
  /** The document's tax as sent (a percent or an amount). */
  documentTax: Decimal;
  subtotal: Decimal;
  discount: Decimal;
  shipping: Decimal;
  /** The document allowances and charges (e_invoice.allowances / charges), computed. */
  adjustments: readonly DocumentAdjustment[];
  /** The document tax already computed (document mode). */
  documentTaxAmount: Decimal;
  digits: number;
  /** Prices include tax: the amounts are gross and each group's tax is taken out of them. */
  included?: boolean;
}

/** The tax a gross amount includes at `rate` percent: gross × rate ÷ (100 + rate), rounded once to the minor unit. */
export function includedTax(gross: Decimal, rate: Decimal, digits: number): Decimal {
  return roundMoney(gross.mul(rate).div(rate.add(100)), digits);
}

/** Splits `total` across `weights` in proportion, to the minor unit (largest remainders), summing exactly; weights
 * that add up to nothing (lines of zero) leave it all to the first, so that no amount is lost. */
export function share(total: Decimal, weights: Decimal[], digits: number): Decimal[] {
  const D = Decimal;
  const sum = weights.reduce((a, w) => a.add(w), new D(0));
  if (total.isZero() || weights.length === 0) return weights.map(() => new D(0));
  if (sum.isZero()) return weights.map((_, i) => (i === 0 ? total : new D(0)));
  const unit = new D(10).pow(-digits);
  const exact = weights.map((w) => total.mul(w).div(sum));
  const floors = exact.map((x) => x.div(unit).toDecimalPlaces(0, D.ROUND_DOWN).mul(unit));
  let left = total
    .sub(floors.reduce((a, f) => a.add(f), new D(0)))
    .div(unit)
    .toDecimalPlaces(0, D.ROUND_HALF_UP)
    .toNumber();
  const order = exact.map((x, i) => ({ i, rest: x.sub(floors[i]!).abs() })).sort((a, b) => b.rest.cmp(a.rest) || a.i - b.i);
  const step = left < 0 ? unit.neg() : unit;
  left = Math.abs(left);
  for (let k = 0; k < left; k++) {
    const at = order[k % order.length]!.i;
    floors[at] = floors[at]!.add(step);
  }
  return floors;
}

const zero = () => new Decimal(0);

/** The group's taxable amount: its lines, less its allowances, plus its shipping and charges. */
function taxableOf(g: VatGroup): Decimal {
  const adjusted = g.adjustments.reduce((sum, a) => (a.charge ? sum.add(a.amount) : sum.sub(a.amount)), g.net.sub(g.discount));
  return adjusted.add(g.shipping);
}

/** A line rate or a categorized adjustment needs a percent document tax to stand beside (a flat amount cannot say
 * which lines it taxes; with the tax switched off, only what charges no VAT may have a category). */
function modeProblems(input: VatInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (input.mode === '%') return problems;
  input.lines.forEach((l, i) => {
    if (l.tax !== undefined)
      problems.push({
        field: `items[${i}].tax`,
        message: `items[${i}].tax (a line's own VAT rate) needs fields.tax "%" (a percent document tax)`,
      });
    else if (input.mode === true && l.tax_category !== undefined)
      problems.push({
        field: `items[${i}].tax_category`,
        message: `items[${i}].tax_category (a line's own VAT category) needs fields.tax "%" (a percent document tax), not a flat one`,
      });
  });
  for (const a of input.adjustments) {
    if (a.category && (input.mode === true || !a.rate!.isZero()))
      problems.push({
        field: `${a.field}.tax_category`,
        message: `${a.field}.tax_category (its own VAT category) needs fields.tax "%" (a percent document tax)`,
      });
  }
  return problems;
}

/** One group for every line: the document tax as computed by the totals, shipping outside. */
function documentGroup(input: VatInput): VatGroup {
  const group: VatGroup = {
    rate: input.mode === '%' ? input.documentTax : input.mode === false ? zero() : undefined,
    lines: input.lines.map((_, i) => i),
    net: input.subtotal,
    discount: input.discount,
    shipping: zero(),
    adjustments: input.adjustments.map((a, index) => ({ index, charge: a.charge, amount: a.amount })),
    taxable: zero(),
    tax: input.documentTaxAmount,
  };
  group.taxable = input.included ? taxableOf(group).sub(group.tax) : taxableOf(group);
  return group;
}

/** The groups of the lines by rate and category, and of the adjustments with a category of their own. */
function rateGroups(input: VatInput): VatGroup[] {
  const groups = new Map<string, VatGroup>();
  const groupOf = (category: TaxCategoryCode | undefined, rate: Decimal): VatGroup => {
    const key = `${category ?? ''}|${rate.toFixed()}`;
    let group = groups.get(key);
    if (!group) {
      group = { rate, category, lines: [], net: zero(), discount: zero(), shipping: zero(), adjustments: [], taxable: zero(), tax: zero() };
      groups.set(key, group);
    }
    return group;
  };
  input.lines.forEach((l, i) => {
    const rate = l.tax !== undefined ? sentDecimal(l.tax) : input.mode === '%' ? input.documentTax : zero();
    // A line that charges VAT without naming its category is standard rated: grouped with the lines that say S.
    const group = groupOf(l.tax_category ?? (rate.isZero() ? undefined : 'S'), rate);
    group.lines.push(i);
    group.net = group.net.add(l.amount);
  });
  input.adjustments.forEach((a, index) => {
    if (a.category) groupOf(a.category, a.rate!).adjustments.push({ index, charge: a.charge, amount: a.amount });
  });
  return [...groups.values()];
}

export function splitVat(input: VatInput): VatSplit {
  const perLine = input.lines.some((l) => l.tax !== undefined || l.tax_category !== undefined) || input.adjustments.some((a) => a.category);
  if (!perLine) return { perLine, groups: [documentGroup(input)] };
  const problems = modeProblems(input);
  if (problems.length > 0) throw errors.validation(problems);
  const list = rateGroups(input);
  const nets = list.map((g) => g.net);
  const discounts = share(input.discount, nets, input.digits);
  input.adjustments.forEach((a, index) => {
    if (a.category) return;
    share(a.amount, nets, input.digits).forEach((amount, i) => {
      if (!amount.isZero()) list[i]!.adjustments.push({ index, charge: a.charge, amount });
    });
  });
  const shipping = share(
    input.shipping,
    list.map((g, i) => g.net.sub(discounts[i]!)),
    input.digits,
  );
  list.forEach((g, i) => {
    g.discount = discounts[i]!;
    g.shipping = shipping[i]!;
    const amount = taxableOf(g);
    g.tax = input.included ? includedTax(amount, g.rate!, input.digits) : roundMoney(amount.mul(g.rate!).div(100), input.digits);
    g.taxable = input.included ? amount.sub(g.tax) : amount;
  });
  return { perLine, groups: list };
}
