// The VAT of an e-invoice (EN 16931 BG-23, the lines' and the adjustments' categories), from the totals' VAT groups
// (money/vat.ts, or money/taxes.ts for several taxes that are one VAT rate per line), so that the norm's arithmetic
// holds (BR-CO-14, BR-CO-17, BR-S-08 …) and every amount equals the PDF's. Decides each group's UNCL5305 category and
// the exemption reasons it needs, and makes the document level allowances and charges (BG-20, BG-21: the discount,
// the shipping, e_invoice.allowances and .charges) in their categories. Computes no amount of its own: it adds up the
// amounts money/ computed into one breakdown per category and rate, and finds the rate that reproduces a flat tax.
// Raises 400s naming the request's field when a request cannot be expressed.
import type { DocumentRequest } from '../documents/model';
import { errors, type FieldProblem } from '../errors';
import { Decimal, rateReproducing, type Totals } from '../money/totals';
import type { AdjustmentShare, VatGroup } from '../money/vat';
import type { AllowanceCharge, VatBreakdown, VatCategory, VatCategoryCode } from './model';

/** Exemption reasons the categories without VAT must carry (BR-AE-10, BR-IC-10, BR-G-10, BR-O-10); E needs the
 * client's own. */
const DEFAULT_EXEMPTIONS: Partial<Record<VatCategoryCode, { reason: string; code: string }>> = {
  AE: { reason: 'Reverse charge', code: 'VATEX-EU-AE' },
  K: { reason: 'Intra-community supply', code: 'VATEX-EU-IC' },
  G: { reason: 'Export outside the EU', code: 'VATEX-EU-G' },
  O: { reason: 'Not subject to VAT', code: 'VATEX-EU-O' },
};
/** Categories that charge VAT (a rate above 0); every other one has 0 % (O: no rate at all). */
const CHARGING: ReadonlySet<VatCategoryCode> = new Set(['S', 'L', 'M']);

export interface InvoiceVat {
  breakdown: VatBreakdown[];
  /** The category of each line, by its index. */
  lines: VatCategory[];
  /** The discount, the shipping and the document allowances and charges, one per category they fall in. */
  adjustments: AllowanceCharge[];
}

export interface AdjustmentLabels {
  discount: string;
  shipping: string;
}

const same = (a: VatCategory, b: VatCategory) => a.code === b.code && (a.rate?.toFixed() ?? '') === (b.rate?.toFixed() ?? '');

type Categorize = (group: VatGroup, field: string, byAmount: boolean) => VatCategory;
type Exemption = (code: VatCategoryCode) => Pick<VatBreakdown, 'exemptionReason' | 'exemptionReasonCode'>;

type EInvoiceFields = NonNullable<DocumentRequest['e_invoice']>;

/** The exemption reasons of a category that charges no VAT: its own (tax_exemptions), else the document's, else the
 * category's default; a category left without one adds a problem. */
function exemptionFrom(e: EInvoiceFields, problems: FieldProblem[]): Exemption {
  return (code) => {
    if (CHARGING.has(code) || code === 'Z') return {};
    // The category's own reason (tax_exemptions), else the document's, else the category's default.
    const own = e.tax_exemptions?.find((x) => x.category === code);
    const given = own
      ? { reason: own.reason, code: own.reason_code }
      : { reason: e.tax_exemption_reason, code: e.tax_exemption_reason_code };
    const fallback = DEFAULT_EXEMPTIONS[code];
    const reason = given.reason ?? (given.code ? undefined : fallback?.reason);
    const reasonCode = given.code ?? (given.reason ? undefined : fallback?.code);
    if (!reason && !reasonCode) {
      problems.push({
        field: 'e_invoice.tax_exemption_reason',
        message: `e_invoice.tax_exemption_reason (or tax_exemption_reason_code) is required with tax category ${code}`,
      });
    }
    return { exemptionReason: reason, exemptionReasonCode: reasonCode };
  };
}

/** A group's rate: its own, else (a flat document tax) the rate that reproduces the tax on its base; a tax that no
 * rate reproduces adds a problem and is taken as 0. */
function groupRate(group: VatGroup, minorUnits: number, problems: FieldProblem[]): Decimal {
  let rate = group.rate;
  if (rate === undefined) {
    // A flat document tax: the rate that reproduces it on its base.
    rate = group.tax.isZero() ? new Decimal(0) : rateReproducing(group.tax, group.taxable, minorUnits);
    if (!rate) {
      problems.push({
        field: 'tax',
        message: 'a flat tax on a taxable amount of zero cannot be expressed as a VAT rate in an e-invoice',
      });
      rate = new Decimal(0);
    }
  }
  return rate;
}

/** The problem of a category that contradicts the tax: one that charges VAT where none is charged, or the reverse. */
function chargeMismatch(
  code: VatCategoryCode,
  charged: boolean,
  byAmount: boolean,
  field: string,
  group: VatGroup,
  rate: Decimal,
): FieldProblem | undefined {
  if (CHARGING.has(code) && !charged) {
    return {
      field,
      message: byAmount
        ? `${field} ${code} (standard rate) needs a tax above 0; send tax, or use Z, E, AE, K, G or O`
        : `${field} ${code} charges VAT, but the rate is 0; send a rate above 0, or use Z, E, AE, K, G or O`,
    };
  }
  if (!CHARGING.has(code) && charged) {
    return {
      field,
      message: byAmount
        ? `${field} ${code} charges no VAT, but the document has a tax of ${group.tax.toFixed()}; use S or send tax 0`
        : `${field} ${code} charges no VAT, but the rate is ${rate.toFixed()} %; use S or a rate of 0`,
    };
  }
  return undefined;
}

/** The exemption reasons of a category and the category of a group, each problem added to `problems`. */
function categorizer(
  doc: DocumentRequest,
  totals: Totals,
  anyVatId: boolean,
  problems: FieldProblem[],
): { exemption: Exemption; categoryOf: Categorize } {
  const e = doc.e_invoice ?? {};
  /** A group's category. With a document tax, whether VAT is charged is whether the tax is above 0 (a percent of
   * nothing charges nothing: zero rated, as before line rates); with line rates, whether the rate is. */
  const categoryOf: Categorize = (group, field, byAmount) => {
    const rate = groupRate(group, totals.minorUnits, problems);
    const charged = byAmount ? !group.tax.isZero() : !rate.isZero();
    // The group's own category, else the document's, else what the tax says: S when VAT is charged, Z when a party
    // has a VAT id (zero rated), O (not subject to VAT) otherwise.
    const code: VatCategoryCode = group.category ?? e.tax_category ?? (charged ? 'S' : anyVatId ? 'Z' : 'O');
    const mismatch = chargeMismatch(code, charged, byAmount, field, group, rate);
    if (mismatch) problems.push(mismatch);
    if (code === 'O') return { code };
    return { code, rate: CHARGING.has(code) && charged ? rate : new Decimal(0) };
  };
  return { exemption: exemptionFrom(e, problems), categoryOf };
}

/** The group's shares of the document allowances and charges, each with the reason it was sent with; the percent and
 * base only for one that lies whole in the group (a share is not a percentage of its own base, Peppol R040). */
function documentAdjustmentsOf(totals: Totals, shares: readonly AdjustmentShare[], vat: VatCategory): AllowanceCharge[] {
  return shares.map((s) => {
    const a = totals.documentAdjustments[s.index]!;
    const whole = s.amount.eq(a.amount) && a.percent !== undefined;
    return {
      charge: a.charge,
      amount: s.amount,
      ...(whole ? { percent: a.percent, base: a.base } : {}),
      reason: a.reason,
      reasonCode: a.reasonCode,
      vat,
    };
  });
}

/** One category for every line (a document tax); shipping, which the document tax leaves untaxed, is zero rated (Z)
 * beside a standard-rated document, or shares any other category. */
function documentTaxVat(
  doc: DocumentRequest,
  totals: Totals,
  categoryOf: Categorize,
  labels: AdjustmentLabels,
): Omit<InvoiceVat, 'breakdown'> & { parts: Part[] } {
  const { vat, discount, shipping } = totals;
  const group = vat.groups[0]!;
  const category = categoryOf(group, doc.e_invoice?.tax_category ? 'e_invoice.tax_category' : 'tax', true);
  const shippingCategory: VatCategory = CHARGING.has(category.code) ? { code: 'Z', rate: new Decimal(0) } : category;
  const adjustments: AllowanceCharge[] = [];
  if (!discount.amount.isZero()) {
    const percent = discount.mode === 'percent' ? { percent: discount.rate, base: totals.subtotal } : {};
    adjustments.push({ charge: false, amount: discount.amount, ...percent, reason: labels.discount, reasonCode: '95', vat: category }); // UNCL5189 95: discount
  }
  adjustments.push(...documentAdjustmentsOf(totals, group.adjustments, category));
  if (!shipping.amount.isZero()) {
    const percent = shipping.mode === 'percent' ? { percent: shipping.rate, base: totals.afterDiscount } : {};
    adjustments.push({
      charge: true,
      amount: shipping.amount,
      ...percent,
      reason: labels.shipping,
      reasonCode: 'FC',
      vat: shippingCategory,
    }); // UNCL7161 FC: freight
  }
  const parts: Part[] = [{ category, taxable: group.taxable, tax: group.tax }];
  if (!shipping.amount.isZero()) parts.push({ category: shippingCategory, taxable: shipping.amount, tax: new Decimal(0) });
  return { lines: doc.items.map(() => category), adjustments, parts };
}

/** A category per group of lines (line rates, or several taxes as VAT rates); the discount, the shipping and the
 * shared adjustments appear once per category they were shared into. Shipping the taxes leave untaxed is zero rated
 * beside a standard-rated group, else in the first group's category. */
function groupVat(
  doc: DocumentRequest,
  totals: Totals,
  categoryOf: Categorize,
  labels: AdjustmentLabels,
): Omit<InvoiceVat, 'breakdown'> & { parts: Part[] } {
  const lines: VatCategory[] = [];
  const adjustments: AllowanceCharge[] = [];
  const parts: Part[] = [];
  for (const group of totals.vat.groups) {
    const first = group.lines[0];
    const own = first === undefined ? totals.documentAdjustments[group.adjustments[0]!.index]!.field : undefined;
    const field = totals.taxes
      ? doc.e_invoice?.tax_category
        ? 'e_invoice.tax_category'
        : 'taxes'
      : own
        ? `${own}.tax_category`
        : doc.items[first!]?.tax_category
          ? `items[${first}].tax_category`
          : `items[${first}].tax`;
    const category = categoryOf(group, field, false);
    for (const i of group.lines) lines[i] = category;
    if (!group.discount.isZero())
      adjustments.push({ charge: false, amount: group.discount, reason: labels.discount, reasonCode: '95', vat: category });
    adjustments.push(...documentAdjustmentsOf(totals, group.adjustments, category));
    if (!group.shipping.isZero())
      adjustments.push({ charge: true, amount: group.shipping, reason: labels.shipping, reasonCode: 'FC', vat: category });
    parts.push({ category, taxable: group.taxable, tax: group.tax });
  }
  if (totals.vat.untaxedShipping && !totals.shipping.amount.isZero()) {
    const charging = parts.some((p) => CHARGING.has(p.category.code));
    const category: VatCategory = charging ? { code: 'Z', rate: new Decimal(0) } : parts[0]!.category;
    adjustments.push({ charge: true, amount: totals.shipping.amount, reason: labels.shipping, reasonCode: 'FC', vat: category });
    parts.push({ category, taxable: totals.shipping.amount, tax: new Decimal(0) });
  }
  return { lines, adjustments, parts };
}

interface Part {
  category: VatCategory;
  taxable: Decimal;
  tax: Decimal;
}

export function invoiceVat(doc: DocumentRequest, totals: Totals, anyVatId: boolean, labels: AdjustmentLabels): InvoiceVat {
  if (totals.taxes?.notVat) {
    throw errors.validation([
      {
        field: 'taxes',
        message: `an e-invoice carries one VAT rate per line: ${totals.taxes.notVat}; send taxes where each line is subject to exactly one tax with a rate, not compound`,
      },
    ]);
  }
  const problems: FieldProblem[] = [];
  const { exemption, categoryOf } = categorizer(doc, totals, anyVatId, problems);
  const made = totals.vat.perLine ? groupVat(doc, totals, categoryOf, labels) : documentTaxVat(doc, totals, categoryOf, labels);
  // One breakdown per category and rate (BG-23), the parts of the same category added up.
  const breakdown: VatBreakdown[] = [];
  for (const { category, taxable, tax } of made.parts) {
    const existing = breakdown.find((b) => same(b.category, category));
    if (existing) {
      existing.taxable = existing.taxable.add(taxable);
      existing.tax = existing.tax.add(tax);
    } else breakdown.push({ category, taxable, tax, ...exemption(category.code) });
  }
  if (problems.length > 0) throw errors.validation(problems);
  return { breakdown, lines: made.lines, adjustments: made.adjustments };
}
