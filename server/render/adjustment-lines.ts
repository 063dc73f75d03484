// The total lines between the subtotal and the total: discount, the document allowances and charges (each with its
// reason, else "Allowance" / "Charge"), tax and shipping, each with its rate when it has one ("null or zero is
// omitted"); with several VAT rates (money/vat.ts) the tax of each rate on its base instead of one tax line, after the
// shipping whose shares they include; with several taxes (money/taxes.ts) one line per tax, its base said when it is
// not the whole taxable amount. Plain data for the view model; computes no money.
import type { LabelKey } from '../documents/model';
import type { Decimal, Totals } from '../money/totals';
import type { Formatter } from './format';

export interface AdjustmentLine {
  label: string;
  value: string;
}

/** The catalogue's labels of the total lines that the request cannot retitle. */
export type AdjustmentLabelKey = 'allowance_title' | 'charge_title' | 'rounding_title';

export interface AdjustmentContext {
  fmt: Formatter;
  label: (key: LabelKey | AdjustmentLabelKey) => string;
  /** A fixed text of the catalogue with its placeholders filled in. */
  text: (key: 'rate_label' | 'tax_on', values: Record<string, string>) => string;
}

/** e_invoice.allowances and .charges, each with its reason (and percent), an allowance as a negative amount. */
function documentAdjustmentLines(totals: Totals, { fmt, label, text }: AdjustmentContext): AdjustmentLine[] {
  return totals.documentAdjustments.map((a) => {
    const title = a.reason ?? label(a.charge ? 'charge_title' : 'allowance_title');
    return {
      label: a.percent ? text('rate_label', { label: title, rate: fmt.formatPercent(a.percent) }) : title,
      value: fmt.formatMoney(a.charge ? a.amount : a.amount.neg()),
    };
  });
}

/** One line per tax of `taxes`: its rate, and its base when that is not the whole taxable amount (a line exempt
 * from it, a compound tax); a flat tax by its title alone. */
function severalTaxLines(totals: Totals, { fmt, text }: AdjustmentContext): AdjustmentLine[] {
  return (totals.taxes?.lines ?? []).map((t) => {
    const value = fmt.formatMoney(t.amount);
    if (!t.rate) return { label: t.title, value };
    const rate = fmt.formatPercent(t.rate);
    if (t.base.eq(totals.taxBase)) return { label: text('rate_label', { label: t.title, rate }), value };
    return { label: text('tax_on', { label: t.title, rate, base: fmt.formatMoney(t.base) }), value };
  });
}

export function adjustmentLines(totals: Totals, ctx: AdjustmentContext): AdjustmentLine[] {
  const { fmt, label, text } = ctx;
  const out: AdjustmentLine[] = [];
  const money = (v: Decimal) => fmt.formatMoney(v);
  const withRate = (title: string, rate: Decimal | undefined): string =>
    rate ? text('rate_label', { label: title, rate: fmt.formatPercent(rate) }) : title;
  const shipping = (): void => {
    if (totals.shipping.shown)
      out.push({ label: withRate(label('shipping_title'), totals.shipping.rate), value: money(totals.shipping.amount) });
  };
  if (totals.discount.shown) {
    out.push({ label: withRate(label('discounts_title'), totals.discount.rate), value: money(totals.discount.amount.neg()) });
  }
  out.push(...documentAdjustmentLines(totals, ctx));
  if (totals.taxes) {
    out.push(...severalTaxLines(totals, ctx));
    shipping();
    return out;
  }
  if (totals.vat.perLine && totals.tax.rate === undefined) {
    shipping();
    for (const group of totals.vat.groups) {
      const base = money(group.taxable);
      out.push({
        label: text('tax_on', { label: label('tax_title'), rate: fmt.formatPercent(group.rate!), base }),
        value: money(group.tax),
      });
    }
    return out;
  }
  if (totals.tax.shown) out.push({ label: withRate(label('tax_title'), totals.tax.rate), value: money(totals.tax.amount) });
  shipping();
  return out;
}
