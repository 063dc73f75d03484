// A line's allowances and charges (EN 16931 BG-27 / BG-28) as sub-rows under their line: "less 10% Early bird" in the
// item column and "-€12.00" in the amount column, "plus Packaging" and "+€3.00". The amounts are money/totals.ts's
// (LineTotal.adjustments), only formatted here; the sign says which way each one moves the line.
import type { LineAdjustment } from '../../money/totals';
import type { LineContext } from './line-details';
import type { Cell, Column } from './view-types';

export type AdjustmentRowContext = Pick<LineContext, 'fmt' | 'label' | 'text' | 'rateLabel'>;

/** What an adjustment is printed as in the item column. */
export function adjustmentText(adjustment: LineAdjustment, { fmt, label, text, rateLabel }: AdjustmentRowContext): string {
  const rate = adjustment.percent ? fmt.formatPercent(adjustment.percent) : undefined;
  if (!adjustment.reason) {
    const title = label(adjustment.charge ? 'charge_title' : 'allowance_title');
    return rate ? rateLabel(title, rate) : title;
  }
  const what = rate ? `${rate} ${adjustment.reason}` : adjustment.reason;
  return text(adjustment.charge ? 'line_charge' : 'line_allowance', { what });
}

/** One sub-row per adjustment, a cell per column: the text under the item, the signed amount under the amount. */
export function adjustmentRows(adjustments: readonly LineAdjustment[], columns: readonly Column[], ctx: AdjustmentRowContext): Cell[][] {
  return adjustments.map((adjustment) => {
    const size = adjustment.amount.abs();
    const amount = ctx.fmt.formatSignedMoney(adjustment.charge ? size : size.neg());
    return columns.map((column): Cell => {
      if (column.key === 'item') return { text: adjustmentText(adjustment, ctx), align: 'left', adjustment: true };
      if (column.key === 'amount') return { text: amount, align: 'right', adjustment: true };
      return { text: '', align: column.align, adjustment: true };
    });
  });
}
