// Prices that include tax (`prices_include_tax`): the net form of a document whose amounts are gross, as an
// e-invoice states it (EN 16931 carries net prices and amounts). The rounding rule (docs/documents.md "Prices that include
// tax"): per VAT group (money/vat.ts), the tax is taken out of the group's gross total once, rounded to the minor
// unit, and the group's net is the gross less that tax, so the total is the sum of the gross amounts to the cent.
// Each gross amount of the group (a line before and after its own allowances and charges, its share of the discount,
// the shipping and the document's allowances and charges) is turned net at the group's net ÷ gross, rounded; the
// cents that rounding leaves over go to the group's largest line, so the net amounts add up to the group's net
// exactly. A line's net price is its net amount ÷ quantity, with as many decimals as it takes for quantity × price
// to give that amount back. Percentages (of gross amounts) are not carried over: the net form states amounts.
// Computes from Totals only; must not format or know syntaxes.
import { Decimal, roundMoney } from './decimal';
import type { DocumentAdjustment } from './document-adjustments';
import type { LineAdjustment, LineTotal } from './lines';
import type { Adjustment, Totals } from './totals-model';
import type { AdjustmentShare, VatGroup } from './vat';

const zero = (): Decimal => new Decimal(0);
const sum = (values: readonly Decimal[]): Decimal => values.reduce((a, b) => a.add(b), zero());
/** The most decimals a net price is given with. */
const MAX_PRICE_DECIMALS = 10;

/** The net price that gives `amount` back: quantity × price ÷ base, rounded, equals it (fewest decimals first). */
function netPrice(amount: Decimal, quantity: Decimal, base: Decimal | undefined, fallback: Decimal, digits: number): Decimal {
  if (quantity.isZero()) return fallback.toDecimalPlaces(digits + 2);
  const per = base ?? new Decimal(1);
  const exact = amount.mul(per).div(quantity);
  for (let places = digits; places < MAX_PRICE_DECIMALS; places++) {
    const price = exact.toDecimalPlaces(places);
    if (roundMoney(price.mul(quantity).div(per), digits).eq(amount)) return price;
  }
  return exact.toDecimalPlaces(MAX_PRICE_DECIMALS);
}

/** A line's allowances and charges, net, by amount. */
function netAdjustments(adjustments: readonly LineAdjustment[], toNet: (v: Decimal) => Decimal): LineAdjustment[] {
  return adjustments.map((a) => ({ charge: a.charge, amount: toNet(a.amount), reason: a.reason, reasonCode: a.reasonCode }));
}

const adjusted = (before: Decimal, adjustments: readonly LineAdjustment[]): Decimal =>
  adjustments.reduce((v, a) => (a.charge ? v.add(a.amount) : v.sub(a.amount)), before);

/** A gross line as net: its amount before its adjustments `before`, its adjustments, its price to match. */
function netLine(line: LineTotal, before: Decimal, adjustments: LineAdjustment[], ratio: Decimal, digits: number): LineTotal {
  const unitCost = netPrice(before, line.quantity, line.baseQuantity, line.unitCost.mul(ratio), digits);
  const places = Math.max(unitCost.decimalPlaces(), digits);
  const priceDiscount = line.priceDiscount?.mul(ratio).toDecimalPlaces(places);
  return {
    ...line,
    unitCost,
    grossPrice: priceDiscount ? unitCost.abs().add(priceDiscount) : undefined,
    priceDiscount,
    gross: before,
    adjustments,
    amount: adjusted(before, adjustments),
  };
}

/** One VAT group in net amounts; its net lines are written into `lines`. */
function netGroup(t: Totals, g: VatGroup, lines: LineTotal[]): VatGroup {
  const digits = t.minorUnits;
  const gross = g.taxable.add(g.tax);
  const ratio = gross.isZero() ? new Decimal(1) : g.taxable.div(gross);
  const toNet = (v: Decimal) => roundMoney(v.mul(ratio), digits);
  const parts = g.lines.map((i) => {
    const line = t.lines[i]!;
    return { i, line, before: toNet(line.gross), adjustments: netAdjustments(line.adjustments, toNet) };
  });
  const adjustments: AdjustmentShare[] = g.adjustments.map((s) => ({ ...s, amount: toNet(s.amount) }));
  const discount = toNet(g.discount);
  const shipping = toNet(g.shipping);
  const made = (): Decimal => {
    const net = sum(parts.map((p) => adjusted(p.before, p.adjustments)));
    const others = adjustments.reduce((v, a) => (a.charge ? v.add(a.amount) : v.sub(a.amount)), shipping.sub(discount));
    return net.add(others);
  };
  // The cents the rounding left over, to the largest line (or, in a group without lines, its largest adjustment).
  const left = g.taxable.sub(made());
  if (!left.isZero()) {
    const largest = [...parts].sort((a, b) => b.line.amount.abs().cmp(a.line.amount.abs()))[0];
    if (largest) largest.before = largest.before.add(left);
    else {
      const a = [...adjustments].sort((x, y) => y.amount.abs().cmp(x.amount.abs()))[0]!;
      a.amount = a.charge ? a.amount.add(left) : a.amount.sub(left);
    }
  }
  for (const p of parts) lines[p.i] = netLine(p.line, p.before, p.adjustments, ratio, digits);
  const net = sum(parts.map((p) => lines[p.i]!.amount));
  return { ...g, net, discount, shipping, adjustments, taxable: g.taxable, tax: g.tax };
}

const flat = (a: Adjustment, amount: Decimal): Adjustment => ({ mode: a.mode === 'off' ? 'off' : 'flat', amount, shown: a.shown });

/** `t` (gross, computed by totals.ts) in net amounts; undefined when its taxes are not VAT groups. */
export function netTotals(t: Totals): Totals | undefined {
  if (t.vat.groups.length === 0) return undefined;
  const lines = [...t.lines];
  const groups = t.vat.groups.map((g) => netGroup(t, g, lines));
  const inGroups = t.vat.perLine && !t.vat.untaxedShipping;
  const discount = flat(t.discount, sum(groups.map((g) => g.discount)));
  const shipping = inGroups ? flat(t.shipping, sum(groups.map((g) => g.shipping))) : t.shipping;
  const documentAdjustments = t.documentAdjustments.map((a, index): DocumentAdjustment => {
    const amount = sum(groups.flatMap((g) => g.adjustments.filter((s) => s.index === index).map((s) => s.amount)));
    return { ...a, amount, base: undefined, percent: undefined };
  });
  const ofKind = (charge: boolean) => sum(documentAdjustments.filter((a) => a.charge === charge).map((a) => a.amount));
  const subtotal = sum(lines.map((l) => l.amount));
  const afterDiscount = subtotal.sub(discount.amount);
  const taxBase = afterDiscount.sub(ofKind(false)).add(ofKind(true));
  return {
    ...t,
    lines,
    subtotal,
    discount,
    shipping,
    afterDiscount,
    documentAdjustments,
    allowances: ofKind(false),
    charges: ofKind(true),
    taxBase,
    taxExclusive: taxBase.add(shipping.amount),
    vat: { ...t.vat, groups },
    pricesIncludeTax: false,
    net: undefined,
  };
}
