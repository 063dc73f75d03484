// The total lines between the subtotal and the total: discount, tax and shipping, each with its rate when it has one
// ("null or zero is omitted"), and with several VAT rates (money/vat.ts) the tax of each rate on its base instead of
// one tax line, after the shipping whose shares they include. Plain data for the view model; computes no money.
import type { LabelKey } from '../documents/model';
import type { Decimal, Totals } from '../money/totals';
import type { Formatter } from './format';

export interface AdjustmentLine {
  label: string;
  value: string;
}

export interface AdjustmentContext {
  fmt: Formatter;
  label: (key: LabelKey) => string;
  /** A fixed text of the catalogue with its placeholders filled in. */
  text: (key: 'rate_label' | 'tax_on', values: Record<string, string>) => string;
}

export function adjustmentLines(totals: Totals, { fmt, label, text }: AdjustmentContext): AdjustmentLine[] {
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
