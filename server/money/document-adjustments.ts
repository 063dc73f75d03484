// The document level allowances and charges of `e_invoice.allowances` / `e_invoice.charges` (EN 16931 BG-20 /
// BG-21), beside the reference API's discount and shipping: each one's amount, rounded to the currency's minor units
// (a percent one of its base_amount, else of the sum of the line amounts, BT-106), with the VAT category and rate it
// was sent with. Names the problems (400s naming the field, refusals.ts) of what cannot be computed or classified: an
// amount and a percent, a base without a percent, a rate without a category, a standard category without a rate
// above 0, a rate on a category that charges none. Must not split amounts across VAT groups (vat.ts does) or format.
import type { TaxCategoryCode } from '../documents/model';
import type { FieldProblem } from '../errors';
import { Decimal, roundMoney, sentDecimal } from './decimal';
import { bothProblem, type LineAdjustment, type SentAdjustment } from './lines';

export interface SentDocumentAdjustment extends SentAdjustment {
  base_amount?: number | string;
  tax_category?: TaxCategoryCode;
  tax_rate?: number | string;
}

export interface DocumentAdjustment extends LineAdjustment {
  /** Where it was sent: `e_invoice.allowances[0]`, `e_invoice.charges[1]` … */
  field: string;
  /** Its own VAT category and rate (BT-95/96, BT-102/103); without, it is shared across the lines' VAT groups. */
  category?: TaxCategoryCode;
  rate?: Decimal;
}

/** Categories that charge VAT (a rate above 0 is required); the others have none. */
const CHARGING: ReadonlySet<TaxCategoryCode> = new Set(['S', 'L', 'M']);

function problemsOf(field: string, sent: SentDocumentAdjustment): FieldProblem[] {
  const out: FieldProblem[] = [];
  const both = bothProblem(field, sent);
  if (both) out.push(both);
  if (sent.base_amount !== undefined && sent.percent === undefined)
    out.push({ field: `${field}.base_amount`, message: `${field}.base_amount is the base of a percent: send percent with it` });
  const rate = sent.tax_rate === undefined ? undefined : sentDecimal(sent.tax_rate);
  const code = sent.tax_category;
  if (rate !== undefined && !code)
    out.push({ field: `${field}.tax_rate`, message: `${field}.tax_rate needs ${field}.tax_category (its VAT category)` });
  if (code && CHARGING.has(code) && (!rate || rate.isZero()))
    out.push({ field: `${field}.tax_rate`, message: `${field}.tax_rate above 0 is required with tax_category ${code}` });
  if (code && !CHARGING.has(code) && rate && !rate.isZero())
    out.push({
      field: `${field}.tax_rate`,
      message: `${field}.tax_rate must be 0 (or absent) with tax_category ${code}, which charges no VAT`,
    });
  return out;
}

export interface SentDocumentAdjustments {
  allowances?: readonly SentDocumentAdjustment[];
  charges?: readonly SentDocumentAdjustment[];
}

/** Each one's field, allowances first. */
function each(sent: SentDocumentAdjustments | undefined): { a: SentDocumentAdjustment; charge: boolean; field: string }[] {
  return [
    ...(sent?.allowances ?? []).map((a, i) => ({ a, charge: false, field: `e_invoice.allowances[${i}]` })),
    ...(sent?.charges ?? []).map((a, i) => ({ a, charge: true, field: `e_invoice.charges[${i}]` })),
  ];
}

/** Every problem of the allowances and charges as sent. */
export function documentAdjustmentProblems(sent: SentDocumentAdjustments | undefined): FieldProblem[] {
  return each(sent).flatMap(({ a, field }) => problemsOf(field, a));
}

/** The allowances, then the charges, in the order sent (they passed documentAdjustmentProblems). `subtotal`: the sum
 * of the line amounts (BT-106). */
export function documentAdjustments(sent: SentDocumentAdjustments | undefined, subtotal: Decimal, digits: number): DocumentAdjustment[] {
  return each(sent).map(({ a, charge, field }): DocumentAdjustment => {
    const said = { field, reason: a.reason, reasonCode: a.reason_code };
    const category = a.tax_category ? { category: a.tax_category, rate: sentDecimal(a.tax_rate ?? 0) } : {};
    if (a.percent === undefined) return { charge, amount: roundMoney(sentDecimal(a.amount ?? 0), digits), ...said, ...category };
    const percent = sentDecimal(a.percent);
    const base = a.base_amount === undefined ? subtotal : roundMoney(sentDecimal(a.base_amount), digits);
    return { charge, amount: roundMoney(base.mul(percent).div(100), digits), base, percent, ...said, ...category };
  });
}

/** The sum of the allowances' (`charge` false) or the charges' amounts. */
export function sumOf(adjustments: readonly LineAdjustment[], charge: boolean): Decimal {
  return adjustments.filter((a) => a.charge === charge).reduce((sum, a) => sum.add(a.amount), new Decimal(0));
}
