// The layout of the documents that price their lines (docs/decisions.md §2, §7): invoices, receipts, credit notes,
// quotes, estimates, pro forma invoices, orders and work orders, and timesheets, which date their lines and price
// them only when a line has a rate. Item, quantity, unit price, each line's VAT rate when there are several, the
// amount and the line's allowances and charges under it; total lines down to the total or the balance due. Must not
// compute money.
import type { Decimal, Totals } from '../../money/totals';
import { dateCell, itemCell, type Layout, type LayoutContext } from './document-layout';
import type { Formatter } from '../labels/format';
import { adjustmentRows } from './line-adjustments';
import { quantityWithUnit } from './line-details';
import type { Cell, Column, LabelledValue, TotalLine } from './view-types';

/** What a priced document prints: dated lines (a timesheet), money (a timesheet only when a line has a rate), and
 * each line's VAT rate (several rates). */
interface Shape {
  dated: boolean;
  money: boolean;
  lineRates?: string[];
}

export function pricedLayout(ctx: LayoutContext): Layout {
  return priced(ctx, false);
}

export function timesheetLayout(ctx: LayoutContext): Layout {
  return priced(ctx, true);
}

function priced(ctx: LayoutContext, dated: boolean): Layout {
  const { totals, fmt } = ctx;
  const money = !dated || totals.lines.some((l) => !l.unitCost.isZero());
  // Several VAT rates: each line says its own, so that each amount can be traced to its rate in the breakdown.
  const lineRates = money && totals.vat.perLine && totals.tax.rate === undefined ? lineRateTexts(totals, fmt) : undefined;
  const shape: Shape = { dated, money, lineRates };
  const columns = pricedColumns(ctx, shape);
  return { columns, rows: pricedRows(ctx, shape, columns), totals: pricedTotals(ctx, shape), summary: pricedSummary(ctx, shape) };
}

function pricedColumns({ label }: LayoutContext, shape: Shape): Column[] {
  const columns: Column[] = [];
  if (shape.dated) columns.push({ key: 'date', label: label('date_header'), align: 'left', width: 'date' });
  columns.push(
    { key: 'item', label: label('item_header'), align: 'left', width: 'wide' },
    { key: 'quantity', label: label('quantity_header'), align: 'right', width: 'qty' },
  );
  if (shape.money) {
    columns.push({ key: 'rate', label: label('unit_cost_header'), align: 'right', width: 'money' });
    if (shape.lineRates) columns.push({ key: 'tax', label: label('tax_title'), align: 'right', width: 'qty' });
    columns.push({ key: 'amount', label: label('amount_header'), align: 'right', width: 'money' });
  }
  return columns;
}

/** Each line's row, its allowances and charges as sub-rows under it when money is shown. */
function pricedRows({ doc, totals, fmt, line: lineCtx }: LayoutContext, shape: Shape, columns: readonly Column[]): Cell[][] {
  return doc.items.flatMap((item, i) => {
    const line = totals.lines[i]!;
    const cells: Cell[] = [];
    if (shape.dated) cells.push(dateCell(item.date, fmt));
    cells.push(itemCell(item, lineCtx), { text: quantityWithUnit(line.quantity, item.unit, lineCtx), align: 'right' });
    if (shape.money) {
      cells.push({ text: fmt.formatRate(line.unitCost), align: 'right' });
      if (shape.lineRates) cells.push({ text: shape.lineRates[i]!, align: 'right' });
      // Before its allowances and charges, which follow as sub-rows: the column adds up to the subtotal.
      cells.push({ text: fmt.formatMoney(line.gross), align: 'right' });
    }
    return [cells, ...(shape.money ? adjustmentRows(line.adjustments, columns, lineCtx) : [])];
  });
}

/** "Null or zero is omitted"; the Subtotal only when an adjustment line shows; a timesheet's hours first; the tax
 * that prices include after the total. */
function pricedTotals({ totals, fmt, label, adjustments, included }: LayoutContext, shape: Shape): TotalLine[] {
  const money = (v: Decimal): string => fmt.formatMoney(v);
  const lines: TotalLine[] = [];
  if (shape.dated) lines.push({ label: label('subtotal_title'), value: fmt.formatQuantity(totals.totalQuantity), strong: !shape.money });
  if (!shape.money) return lines;
  if (totals.show.subtotal && !shape.dated) lines.push({ label: label('subtotal_title'), value: money(totals.subtotal) });
  lines.push(...adjustments());
  // The amount due after a payment or a rounding (BT-114): Balance, after what it takes into account.
  const due = totals.show.amountPaid || totals.show.rounding;
  lines.push({ label: label('total_title'), value: money(totals.total), strong: !due });
  lines.push(...included());
  if (totals.show.amountPaid) lines.push({ label: label('amount_paid_title'), value: money(totals.amountPaid) });
  if (totals.show.rounding) lines.push({ label: label('rounding_title'), value: money(totals.rounding) });
  if (due) lines.push({ label: label('balance_title'), value: money(totals.balance), strong: true });
  return lines;
}

/** The balance on invoices and credit notes, the amount received on receipts, the total elsewhere; a timesheet
 * without rates its hours. */
function pricedSummary({ doc, totals, fmt, label }: LayoutContext, shape: Shape): LabelledValue | undefined {
  if (doc.type === 'invoice' || doc.type === 'credit_note')
    return { label: label('balance_title'), value: fmt.formatMoney(totals.balance) };
  if (doc.type === 'receipt') return { label: label('amount_paid_title'), value: fmt.formatMoney(totals.amountPaid) };
  if (shape.money) return { label: label('total_title'), value: fmt.formatMoney(totals.total) };
  if (shape.dated) return { label: label('subtotal_title'), value: fmt.formatQuantity(totals.totalQuantity) };
  return undefined;
}

/** Each line's VAT rate as printed, from its group (money/vat.ts). */
function lineRateTexts(totals: Totals, fmt: Formatter): string[] {
  const out: string[] = [];
  for (const group of totals.vat.groups) for (const i of group.lines) out[i] = fmt.formatPercent(group.rate!);
  return out;
}
