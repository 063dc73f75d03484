// Several taxes on one document (`taxes`: GST + PST, CGST + SGST, a compound QST, a flat levy), each line subject to
// the taxes it names (`items[].taxes`, default all). Lines subject to the same taxes form a set; the discount and the
// document allowances and charges are shared across the sets in proportion to their amounts (vat.ts's `share`, to the
// minor unit), shipping stays untaxed (docs/e-invoices.md "Several taxes"). A rate tax is its rate of the taxable amount of its
// lines, rounded once; a compound one is charged on that amount plus the earlier taxes on those lines (an earlier tax
// that also taxes other lines counts with its lines' share of it); a flat one is its amount. Also says whether the
// taxes map to one VAT rate per line (for the e-invoices), and why not. With prices that include tax
// (`prices_include_tax`) a set's amounts are gross: each tax takes its part of them (a compound one its part of the
// earlier taxes too), summed over its sets and rounded once, and a set's taxable amount is its gross less its shares.
// Must not format or know syntaxes.
import type { FieldProblem } from '../errors';
import { Decimal, roundMoney, sentDecimal } from './decimal';
import type { DocumentAdjustment } from './document-adjustments';
import { share, type VatGroup } from './vat';

export interface SentTax {
  title: string;
  rate?: number | string;
  amount?: number | string;
  compound?: boolean;
}

/** One tax as the document shows it. */
export interface TaxLine {
  title: string;
  /** The rate in percent; undefined for a flat tax. */
  rate?: Decimal;
  compound: boolean;
  /** What a rate tax was charged on (its lines' taxable amount, with the earlier taxes when compound). */
  base: Decimal;
  amount: Decimal;
  /** Indexes of the lines subject to it. */
  lines: number[];
}

export interface SeveralTaxes {
  lines: TaxLine[];
  /** The sum of the taxes. */
  total: Decimal;
  /** A VAT group per tax when every line is subject to exactly one non-compound rate tax (an e-invoice's VAT). */
  vatGroups?: VatGroup[];
  /** Why the taxes are not one VAT rate per line (the e-invoices' refusal of `taxes`). */
  notVat?: string;
}

export interface TaxesInput {
  taxes: readonly SentTax[];
  lines: ReadonlyArray<{ amount: Decimal; taxes?: readonly string[] }>;
  discount: Decimal;
  adjustments: readonly DocumentAdjustment[];
  digits: number;
  /** Prices include the taxes (rate taxes only: refusals.ts refuses a flat one). */
  included?: boolean;
}

/** A set of lines subject to the same taxes, with its taxable amount and its share of each tax. */
interface LineSet {
  taxes: Set<number>;
  lines: number[];
  net: Decimal;
  discount: Decimal;
  adjustments: VatGroup['adjustments'];
  taxable: Decimal;
  /** Its share of each tax computed so far, by the tax's index. */
  shares: Map<number, Decimal>;
}

const zero = () => new Decimal(0);

/** Every problem of the taxes as sent: duplicate titles, a rate and an amount, compound on a flat amount, a line
 * naming an unknown tax. */
export function taxesProblems(taxes: readonly SentTax[], items: ReadonlyArray<{ taxes?: readonly string[] }>): FieldProblem[] {
  const out: FieldProblem[] = [];
  const seen = new Set<string>();
  taxes.forEach((t, i) => {
    const title = t.title.trim();
    if (seen.has(title))
      out.push({ field: `taxes[${i}].title`, message: `taxes[${i}].title "${title}" is used twice; titles must be unique` });
    seen.add(title);
    if (t.rate !== undefined && t.amount !== undefined)
      out.push({ field: `taxes[${i}]`, message: `taxes[${i}] needs a rate or an amount, not both` });
    else if (t.amount !== undefined && t.compound)
      out.push({
        field: `taxes[${i}].compound`,
        message: `taxes[${i}].compound applies to a rate; a flat amount is not charged on anything`,
      });
  });
  items.forEach((item, i) =>
    (item.taxes ?? []).forEach((name, j) => {
      if (!seen.has(name.trim()))
        out.push({
          field: `items[${i}].taxes[${j}]`,
          message: `items[${i}].taxes[${j}] "${name.trim()}" is not the title of a tax in taxes`,
        });
    }),
  );
  return out;
}

function lineSets(input: TaxesInput): LineSet[] {
  const index = new Map(input.taxes.map((t, i) => [t.title.trim(), i]));
  const sets = new Map<string, LineSet>();
  input.lines.forEach((l, i) => {
    const taxes = new Set(l.taxes ? l.taxes.map((n) => index.get(n.trim())!) : input.taxes.map((_, k) => k));
    const key = [...taxes].sort((a, b) => a - b).join(',');
    let set = sets.get(key);
    if (!set)
      sets.set(key, (set = { taxes, lines: [], net: zero(), discount: zero(), adjustments: [], taxable: zero(), shares: new Map() }));
    set.lines.push(i);
    set.net = set.net.add(l.amount);
  });
  const list = [...sets.values()];
  const nets = list.map((s) => s.net);
  share(input.discount, nets, input.digits).forEach((d, i) => (list[i]!.discount = d));
  input.adjustments.forEach((a, index) =>
    share(a.amount, nets, input.digits).forEach((amount, i) => {
      if (!amount.isZero()) list[i]!.adjustments.push({ index, charge: a.charge, amount });
    }),
  );
  for (const s of list) {
    s.taxable = s.adjustments.reduce((sum, a) => (a.charge ? sum.add(a.amount) : sum.sub(a.amount)), s.net.sub(s.discount));
  }
  return list;
}

/** Each tax in order, each set's share of it kept for the compound taxes after it. */
function computeTaxes(input: TaxesInput, sets: LineSet[]): TaxLine[] {
  return input.taxes.map((t, k): TaxLine => {
    const mine = sets.filter((s) => s.taxes.has(k));
    // A set's base: its taxable amount, plus (compound) its share of every earlier tax it is subject to.
    const bases = mine.map((s) => (t.compound ? [...s.shares.values()].reduce((a, b) => a.add(b), s.taxable) : s.taxable));
    const base = bases.reduce((a, b) => a.add(b), zero());
    const rate = t.rate === undefined ? undefined : sentDecimal(t.rate);
    const amount = roundMoney(rate ? base.mul(rate).div(100) : sentDecimal(t.amount ?? 0), input.digits);
    share(amount, bases, input.digits).forEach((part, i) => mine[i]!.shares.set(k, part));
    const lines = mine.flatMap((s) => s.lines).sort((a, b) => a - b);
    return { title: t.title.trim(), rate, compound: Boolean(t.compound), base, amount, lines };
  });
}

/** Why the taxes are not one VAT rate per line, or undefined when they are. */
function notVatReason(input: TaxesInput, sets: LineSet[]): string | undefined {
  const flat = input.taxes.find((t) => t.rate === undefined);
  if (flat) return `"${flat.title.trim()}" is a flat amount, not a rate`;
  const compound = input.taxes.find((t) => t.compound);
  if (compound) return `"${compound.title.trim()}" is compound (charged on another tax)`;
  const several = sets.find((s) => s.taxes.size !== 1);
  if (several) return `line ${several.lines[0]! + 1} is subject to ${several.taxes.size === 0 ? 'no tax' : `${several.taxes.size} taxes`}`;
  return undefined;
}

/** Each tax taken out of the gross of its sets (prices that include tax). In a set, tax k is the fraction
 * f_k ÷ (1 + Σ f) of the gross, where f_k is its rate (a compound tax: its rate times 1 plus the earlier fractions);
 * summed over its sets and rounded once, then shared back to them. Each set's taxable amount becomes its gross less
 * its shares; a tax's base is the taxable amount of its sets (a compound one's with the earlier taxes' shares). */
function includedTaxes(input: TaxesInput, sets: LineSet[]): TaxLine[] {
  const fractions = sets.map((s) => {
    const f = new Map<number, Decimal>();
    let sum = zero();
    input.taxes.forEach((t, k) => {
      if (!s.taxes.has(k)) return;
      const rate = sentDecimal(t.rate ?? 0).div(100);
      const own = t.compound ? rate.mul(sum.add(1)) : rate;
      f.set(k, own);
      sum = sum.add(own);
    });
    return { f, whole: sum.add(1) };
  });
  const amounts = input.taxes.map((t, k) => {
    const mine = sets.map((s, i) => ({ s, i })).filter(({ s }) => s.taxes.has(k));
    const exact = mine.map(({ s, i }) => s.taxable.mul(fractions[i]!.f.get(k)!).div(fractions[i]!.whole));
    const amount = roundMoney(
      exact.reduce((a, b) => a.add(b), zero()),
      input.digits,
    );
    share(amount, exact, input.digits).forEach((part, j) => mine[j]!.s.shares.set(k, part));
    return { amount, mine: mine.map(({ s }) => s) };
  });
  for (const s of sets) s.taxable = [...s.shares.values()].reduce((a, b) => a.sub(b), s.taxable);
  return input.taxes.map((t, k): TaxLine => {
    const { amount, mine } = amounts[k]!;
    // A compound tax is charged on the taxable amount with the earlier taxes' shares.
    const earlier = (s: LineSet) => [...s.shares.entries()].filter(([j]) => j < k).reduce((a, [, v]) => a.add(v), zero());
    const base = mine.reduce((a, s) => a.add(s.taxable).add(t.compound ? earlier(s) : zero()), zero());
    const lines = mine.flatMap((s) => s.lines).sort((a, b) => a - b);
    return { title: t.title.trim(), rate: sentDecimal(t.rate ?? 0), compound: Boolean(t.compound), base, amount, lines };
  });
}

export function severalTaxes(input: TaxesInput): SeveralTaxes {
  const sets = lineSets(input);
  const lines = input.included ? includedTaxes(input, sets) : computeTaxes(input, sets);
  const total = lines.reduce((a, l) => a.add(l.amount), zero());
  const notVat = notVatReason(input, sets);
  if (notVat) return { lines, total, notVat };
  const vatGroups = sets.map((s): VatGroup => {
    const k = [...s.taxes][0]!;
    const { lines: members, net, discount, adjustments, taxable } = s;
    return { rate: lines[k]!.rate, lines: members, net, discount, shipping: zero(), adjustments, taxable, tax: s.shares.get(k)! };
  });
  return { lines, total, vatGroups };
}

/** The refusal of `tax`, or of a line's own VAT rate or category, or of an adjustment's own category, beside `taxes`. */
export function mixProblems(
  tax: unknown,
  items: ReadonlyArray<{ tax?: unknown; tax_category?: unknown }>,
  adjustments: ReadonlyArray<{ field: string; categorized: boolean }>,
): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (tax !== undefined) out.push({ field: 'tax', message: 'tax and taxes cannot both be sent: put every tax in taxes' });
  items.forEach((item, i) => {
    for (const key of ['tax', 'tax_category'] as const)
      if (item[key] !== undefined)
        out.push({
          field: `items[${i}].${key}`,
          message: `items[${i}].${key} cannot be combined with taxes: name the line's taxes in items[${i}].taxes`,
        });
  });
  for (const a of adjustments)
    if (a.categorized)
      out.push({
        field: `${a.field}.tax_category`,
        message: `${a.field}.tax_category (a VAT category of its own) cannot be combined with taxes`,
      });
  return out;
}
