// The amount of each line (EN 16931 BG-25): its gross, quantity × unit_cost ÷ price_base_quantity (BT-149) rounded to
// the currency's minor units, less its allowances (BG-27), plus its charges (BG-28), each rounded on its own (a
// percent one is of the gross). Also the statement's running balance. Owns the line arithmetic and the problem of an
// adjustment that sends both an amount and a percent; must not format, know syntaxes or see document-level amounts.
import type { FieldProblem } from '../errors';
import { Decimal, roundMoney, sentDecimal } from './decimal';

/** A line's allowance or charge (EN 16931 BG-27 / BG-28): its amount, rounded, and the percentage and base it was
 * computed from when it is a percentage. */
export interface LineAdjustment {
  charge: boolean;
  amount: Decimal;
  base?: Decimal;
  percent?: Decimal;
  reason?: string;
  reasonCode?: string;
}

export interface LineTotal {
  quantity: Decimal;
  unitCost: Decimal;
  /** How many units unit_cost is the price of (price_base_quantity, BT-149), when sent. */
  baseQuantity?: Decimal;
  /** The price before its discount (gross_price, BT-148), when sent, and the discount: gross less the (absolute) price
   * (BT-147). */
  grossPrice?: Decimal;
  priceDiscount?: Decimal;
  /** quantity × unit_cost ÷ price_base_quantity, rounded: the line before its allowances and charges. */
  gross: Decimal;
  /** The line's allowances and charges, in the order sent (allowances first). */
  adjustments: LineAdjustment[];
  /** gross − allowances + charges (BT-131): the charge of the line. */
  amount: Decimal;
  /** Statement lines: the payment on this line (0 when none). */
  payment: Decimal;
  /** Statement lines: opening balance plus every charge minus every payment so far. */
  runningBalance: Decimal;
}

/** An allowance or charge as sent (a line's, or the document's). */
export interface SentAdjustment {
  amount?: number | string;
  percent?: number | string;
  reason?: string;
  reason_code?: string;
}

export interface LineInput {
  quantity?: number | string;
  unit_cost?: number | string;
  payment?: number | string;
  price_base_quantity?: number | string;
  gross_price?: number | string;
  allowances?: readonly SentAdjustment[];
  charges?: readonly SentAdjustment[];
}

export function dec(value: number | string | undefined, fallback: number): Decimal {
  return sentDecimal(value === undefined || value === '' ? fallback : value);
}

/** The refusal of an adjustment with both an amount and a percent (the schema asks for at least one). */
export function bothProblem(field: string, sent: SentAdjustment): FieldProblem | undefined {
  if (sent.amount === undefined || sent.percent === undefined) return undefined;
  return { field, message: `${field} needs an amount or a percent, not both` };
}

function lineAdjustments(item: LineInput, gross: Decimal, digits: number): LineAdjustment[] {
  const one = (sent: SentAdjustment, charge: boolean): LineAdjustment => {
    const said = { reason: sent.reason, reasonCode: sent.reason_code };
    if (sent.percent === undefined) return { charge, amount: roundMoney(dec(sent.amount, 0), digits), ...said };
    const percent = sentDecimal(sent.percent);
    return { charge, amount: roundMoney(gross.mul(percent).div(100), digits), base: gross, percent, ...said };
  };
  return [...(item.allowances ?? []).map((a) => one(a, false)), ...(item.charges ?? []).map((c) => one(c, true))];
}

/** An adjustment of a line that sends both an amount and a percent, for every line. */
export function lineProblems(items: readonly LineInput[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  items.forEach((item, i) => {
    for (const kind of ['allowances', 'charges'] as const)
      (item[kind] ?? []).forEach((a, j) => {
        const p = bothProblem(`items[${i}].${kind}[${j}]`, a);
        if (p) problems.push(p);
      });
    // A gross price below the net price would be a negative price discount (EN 16931: BT-146 = BT-148 − BT-147).
    if (item.gross_price !== undefined && sentDecimal(item.gross_price).lt(dec(item.unit_cost, 0).abs())) {
      problems.push({
        field: `items[${i}].gross_price`,
        message: `items[${i}].gross_price must not be below unit_cost: the price discount is gross_price less unit_cost`,
      });
    }
  });
  return problems;
}

/** Every line's amounts; `noMoney` (packing slip): quantities only. The lines passed lineProblems. */
export function lineTotals(items: readonly LineInput[], digits: number, noMoney: boolean, opening: Decimal | undefined): LineTotal[] {
  let running = opening ?? new Decimal(0);
  return items.map((item) => {
    const quantity = dec(item.quantity, 1);
    const unitCost = noMoney ? new Decimal(0) : dec(item.unit_cost, 0);
    const baseQuantity = item.price_base_quantity === undefined ? undefined : sentDecimal(item.price_base_quantity);
    const gross = roundMoney(quantity.mul(unitCost).div(baseQuantity ?? 1), digits);
    const adjustments = noMoney ? [] : lineAdjustments(item, gross, digits);
    const amount = adjustments.reduce((sum, a) => (a.charge ? sum.add(a.amount) : sum.sub(a.amount)), gross);
    const payment = noMoney ? new Decimal(0) : roundMoney(dec(item.payment, 0), digits);
    const grossPrice = item.gross_price === undefined || noMoney ? undefined : sentDecimal(item.gross_price);
    const priceDiscount = grossPrice?.sub(unitCost.abs());
    running = running.add(amount).sub(payment);
    return { quantity, unitCost, baseQuantity, grossPrice, priceDiscount, gross, adjustments, amount, payment, runningBalance: running };
  });
}
