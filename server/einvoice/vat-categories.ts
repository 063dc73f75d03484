// The VAT of an e-invoice (EN 16931 BG-23, the lines' and the adjustments' categories), from the totals' VAT groups
// (money/vat.ts), so that the norm's arithmetic holds (BR-CO-14, BR-CO-17, BR-S-08 …) and every amount equals the
// PDF's. Decides each group's UNCL5305 category and the exemption reasons it needs; computes no amount but the rate
// that reproduces a flat tax. Raises 400s naming the request's field when a request cannot be expressed.
import type { DocumentRequest } from '../documents/model';
import { errors, type FieldProblem } from '../errors';
import { Decimal, rateReproducing, type Totals } from '../money/totals';
import type { VatGroup } from '../money/vat';
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
  /** The discount and the shipping as document level allowances and charges, one per category they fall in. */
  adjustments: AllowanceCharge[];
}

export interface AdjustmentLabels {
  discount: string;
  shipping: string;
}

const same = (a: VatCategory, b: VatCategory) => a.code === b.code && (a.rate?.toFixed() ?? '') === (b.rate?.toFixed() ?? '');

export function invoiceVat(doc: DocumentRequest, totals: Totals, anyVatId: boolean, labels: AdjustmentLabels): InvoiceVat {
  const e = doc.e_invoice ?? {};
  const problems: FieldProblem[] = [];
  const exemption = (code: VatCategoryCode): Pick<VatBreakdown, 'exemptionReason' | 'exemptionReasonCode'> => {
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
  /** A group's category. With a document tax, whether VAT is charged is whether the tax is above 0 (a percent of
   * nothing charges nothing: zero rated, as before line rates); with line rates, whether the rate is. */
  const categoryOf = (group: VatGroup, field: string, byAmount: boolean): VatCategory => {
    let rate = group.rate;
    if (rate === undefined) {
      // A flat document tax: the rate that reproduces it on its base.
      rate = group.tax.isZero() ? new Decimal(0) : rateReproducing(group.tax, group.taxable, totals.minorUnits);
      if (!rate) {
        problems.push({
          field: 'tax',
          message: 'a flat tax on a taxable amount of zero cannot be expressed as a VAT rate in an e-invoice',
        });
        rate = new Decimal(0);
      }
    }
    const charged = byAmount ? !group.tax.isZero() : !rate.isZero();
    // The lines' own category, else the document's, else what the tax says: S when VAT is charged, Z when a party
    // has a VAT id (zero rated), O (not subject to VAT) otherwise.
    const code: VatCategoryCode = group.category ?? e.tax_category ?? (charged ? 'S' : anyVatId ? 'Z' : 'O');
    if (CHARGING.has(code) && !charged) {
      problems.push({
        field,
        message: byAmount
          ? `${field} ${code} (standard rate) needs a tax above 0; send tax, or use Z, E, AE, K, G or O`
          : `${field} ${code} charges VAT, but the rate is 0; send a rate above 0, or use Z, E, AE, K, G or O`,
      });
    }
    if (!CHARGING.has(code) && charged) {
      problems.push({
        field,
        message: byAmount
          ? `${field} ${code} charges no VAT, but the document has a tax of ${group.tax.toFixed()}; use S or send tax 0`
          : `${field} ${code} charges no VAT, but the rate is ${rate.toFixed()} %; use S or a rate of 0`,
      });
    }
    if (code === 'O') return { code };
    return { code, rate: CHARGING.has(code) && charged ? rate : new Decimal(0) };
  };

  const breakdown: VatBreakdown[] = [];
  const add = (category: VatCategory, taxable: Decimal, tax: Decimal) => {
    const existing = breakdown.find((b) => same(b.category, category));
    if (existing) {
      existing.taxable = existing.taxable.add(taxable);
      existing.tax = existing.tax.add(tax);
    } else breakdown.push({ category, taxable, tax, ...exemption(category.code) });
  };
  const lines: VatCategory[] = [];
  const adjustments: AllowanceCharge[] = [];
  const { vat, discount, shipping } = totals;

  if (!vat.perLine) {
    // One category for every line; shipping, which the document tax leaves untaxed, is zero rated (Z) beside a
    // standard-rated document, or shares any other category.
    const group = vat.groups[0]!;
    const category = categoryOf(group, e.tax_category ? 'e_invoice.tax_category' : 'tax', true);
    doc.items.forEach(() => lines.push(category));
    const shippingCategory: VatCategory = CHARGING.has(category.code) ? { code: 'Z', rate: new Decimal(0) } : category;
    if (!discount.amount.isZero()) {
      adjustments.push({
        charge: false,
        amount: discount.amount,
        ...(discount.mode === 'percent' ? { percent: discount.rate, base: totals.subtotal } : {}),
        reason: labels.discount,
        reasonCode: '95', // UNCL5189: discount
        vat: category,
      });
    }
    if (!shipping.amount.isZero()) {
      adjustments.push({
        charge: true,
        amount: shipping.amount,
        ...(shipping.mode === 'percent' ? { percent: shipping.rate, base: totals.afterDiscount } : {}),
        reason: labels.shipping,
        reasonCode: 'FC', // UNCL7161: freight service
        vat: shippingCategory,
      });
    }
    add(category, same(category, shippingCategory) ? totals.taxExclusive : totals.afterDiscount, group.tax);
    if (!shipping.amount.isZero() && !same(category, shippingCategory)) add(shippingCategory, shipping.amount, new Decimal(0));
  } else {
    // Each group of lines has its category; the discount and the shipping were shared across the groups (money/vat.ts)
    // and appear once per category. A share is not a percentage of its own base, so none is stated (Peppol R040).
    for (const group of vat.groups) {
      const first = group.lines[0]!;
      const field = doc.items[first]?.tax_category ? `items[${first}].tax_category` : `items[${first}].tax`;
      const category = categoryOf(group, field, false);
      for (const i of group.lines) lines[i] = category;
      if (!group.discount.isZero())
        adjustments.push({ charge: false, amount: group.discount, reason: labels.discount, reasonCode: '95', vat: category });
      if (!group.shipping.isZero())
        adjustments.push({ charge: true, amount: group.shipping, reason: labels.shipping, reasonCode: 'FC', vat: category });
      add(category, group.taxable, group.tax);
    }
  }
  if (problems.length > 0) throw errors.validation(problems);
  return { breakdown, lines, adjustments };
}
