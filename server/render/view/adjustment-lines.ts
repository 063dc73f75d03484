// The total lines between the subtotal and the total: discount, the document allowances and charges (each with its
// reason, else "Allowance" / "Charge"), tax and shipping, each with its rate when it has one ("null or zero is
// omitted"); with several VAT rates (money/vat.ts) the tax of each rate on its base instead of one tax line, after the
// shipping whose shares they include; with several taxes (money/taxes.ts) one line per tax, its base said when it is
// not the whole taxable amount. With prices that include tax (money/inclusive.ts) the tax adds nothing: its lines
// follow the total instead (includedTaxLines), the net amount and the tax each rate or tax includes. Plain data for
// the view model; computes no money.
import type { LabelKey } from '../../documents/model';
import type { Decimal, Totals } from '../../money/totals';
import type { Formatter } from '../labels/format';

export interface AdjustmentLine {
  label: string;
  value: string;
}

/** The catalogue's labels of the total lines that the request cannot retitle. */
export type AdjustmentLabelKey = 'allowance_title' | 'charge_title' | 'rounding_title';

/** The catalogue's fixed texts of the total lines. */
export type AdjustmentTextKey = 'rate_label' | 'tax_on' | 'tax_included' | 'tax_included_on' | 'net_amount';

export interface AdjustmentContext {
  fmt: Formatter;
  label: (key: LabelKey | AdjustmentLabelKey) => string;
  /** A fixed text of the catalogue with its placeholders filled in. */
  text: (key: AdjustmentTextKey, values?: Record<string, string>) => string;
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
  if (totals.pricesIncludeTax) {
    shipping();
    return out;
  }
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

/** Prices that include tax: after the total, the net amount and what each rate (or each tax of `taxes`) includes,
 * on its base when there are several. */
export function includedTaxLines(totals: Totals, { fmt, label, text }: AdjustmentContext): AdjustmentLine[] {
  // No tax at all (fields.tax false, a rate of 0): nothing is included, nothing to say.
  if (!totals.pricesIncludeTax || (totals.tax.amount.isZero() && totals.vat.groups.length <= 1 && !totals.taxes)) return [];
  const included = (title: string, rate: Decimal | undefined, base: Decimal | undefined, amount: Decimal): AdjustmentLine => ({
    label: !rate
      ? title
      : text(base ? 'tax_included_on' : 'tax_included', {
          label: title,
          rate: fmt.formatPercent(rate),
          base: base ? fmt.formatMoney(base) : '',
        }),
    value: fmt.formatMoney(amount),
  });
  const out: AdjustmentLine[] = [{ label: text('net_amount'), value: fmt.formatMoney(totals.taxExclusive) }];
  if (totals.taxes) {
    const several = totals.taxes.lines.length > 1;
    for (const t of totals.taxes.lines) out.push(included(t.title, t.rate, several ? t.base : undefined, t.amount));
    return out;
  }
  const groups = totals.vat.groups.filter((g) => !g.tax.isZero() || totals.vat.groups.length > 1);
  for (const g of groups) out.push(included(label('tax_title'), g.rate, groups.length > 1 ? g.taxable : undefined, g.tax));
  return out;
}
