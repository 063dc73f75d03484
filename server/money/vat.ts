// VAT by rate (issue 17): the document's tax split into groups of lines that share a rate and category, each with
// its base and its tax, for the PDF's breakdown and every e-invoice's (EN 16931 BG-23). Two modes:
// - Document tax (no line sends its own `tax` or `tax_category`): one group, exactly today's computation: the tax is
//   the document's percent (or flat amount) of the subtotal after the discount; shipping is not taxed and stays
//   outside the group (as the reference API has it).
// - Line rates (any line sends `tax` or `tax_category`): each line's rate is its own, else the document's percent.
//   The discount and the shipping are shared across the groups in proportion to their amounts (the discount to the
//   lines' amounts, the shipping to the amounts after the discount), to the minor unit, largest remainders first, so
//   the shares add up exactly; shipping then carries the VAT of what it ships (the EU rule for ancillary costs).
//   Each group's tax is its base times its rate, rounded once (EN 16931 BR-CO-17); the document's tax is their sum.
// Must not format or know e-invoice syntaxes; raises only validation errors naming the field.
import type { TaxCategoryCode } from '../documents/model';
import { errors, type FieldProblem } from '../errors';
import { Decimal, roundMoney } from './decimal';

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
  /** net − discount + shipping */
  taxable: Decimal;
  tax: Decimal;
}

export interface VatSplit {
  /** Whether lines carry their own rates (then shipping is inside the groups). */
  perLine: boolean;
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
  /** The document tax already computed (document mode). */
  documentTaxAmount: Decimal;
  digits: number;
}

/** Splits `total` across `weights` in proportion, to the minor unit (largest remainders), summing exactly. */
export function share(total: Decimal, weights: Decimal[], digits: number): Decimal[] {
  const D = Decimal;
  const sum = weights.reduce((a, w) => a.add(w), new D(0));
  if (total.isZero() || sum.isZero()) return weights.map(() => new D(0));
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

export function splitVat(input: VatInput): VatSplit {
  const D = Decimal;
  const round = (v: Decimal) => roundMoney(v, input.digits);
  const perLine = input.lines.some((l) => l.tax !== undefined || l.tax_category !== undefined);
  if (!perLine) {
    const afterDiscount = input.subtotal.sub(input.discount);
    return {
      perLine,
      groups: [
        {
          rate: input.mode === '%' ? input.documentTax : input.mode === false ? new D(0) : undefined,
          lines: input.lines.map((_, i) => i),
          net: input.subtotal,
          discount: input.discount,
          shipping: new D(0),
          taxable: afterDiscount,
          tax: input.documentTaxAmount,
        },
      ],
    };
  }
  // A line's own rate overrides a document percent; a flat or switched-off document tax has no rate to fall back on.
  const problems: FieldProblem[] = [];
  // A line's category beside a flat document tax cannot say which lines the flat amount taxes: refused too. With the
  // tax switched off, the lines without a rate of their own have 0 %.
  if (input.mode !== '%') {
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
  }
  if (problems.length > 0) throw errors.validation(problems);

  const groups = new Map<string, VatGroup>();
  input.lines.forEach((l, i) => {
    const rate = l.tax !== undefined ? new D(l.tax) : input.mode === '%' ? input.documentTax : new D(0);
    // A line that charges VAT without naming its category is standard rated: grouped with the lines that say S.
    const category = l.tax_category ?? (rate.isZero() ? undefined : 'S');
    const key = `${category ?? ''}|${rate.toFixed()}`;
    let group = groups.get(key);
    if (!group) {
      group = { rate, category, lines: [], net: new D(0), discount: new D(0), shipping: new D(0), taxable: new D(0), tax: new D(0) };
      groups.set(key, group);
    }
    group.lines.push(i);
    group.net = group.net.add(l.amount);
  });
  const list = [...groups.values()];
  const discounts = share(
    input.discount,
    list.map((g) => g.net),
    input.digits,
  );
  const bases = list.map((g, i) => g.net.sub(discounts[i]!));
  const shipping = share(input.shipping, bases, input.digits);
  list.forEach((g, i) => {
    g.discount = discounts[i]!;
    g.shipping = shipping[i]!;
    g.taxable = bases[i]!.add(g.shipping);
    g.tax = round(g.taxable.mul(g.rate!).div(100));
  });
  return { perLine, groups: list };
}
