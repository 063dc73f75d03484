// The statement's layout (docs/decisions.md §2): dated rows with their reference, charges, payments and the running
// balance; total lines from the subtotal down to the balance, which is also the summary. Must not compute money.
import type { Decimal } from '../../money/totals';
import { dateCell, itemCell, type Layout, type LayoutContext } from './document-layout';
import type { Cell, Column, TotalLine } from './view-types';

export function statementLayout({ doc, totals, fmt, label, line, adjustments, included }: LayoutContext): Layout {
  const money = (v: Decimal): string => fmt.formatMoney(v);
  const columns: Column[] = [
    { key: 'date', label: label('date_header'), align: 'left', width: 'date' },
    { key: 'reference', label: label('reference_header'), align: 'left', width: 'ref' },
    { key: 'item', label: label('item_header'), align: 'left', width: 'wide' },
    { key: 'charges', label: label('charges_header'), align: 'right', width: 'money' },
    { key: 'payments', label: label('payments_header'), align: 'right', width: 'money' },
    { key: 'balance', label: label('amount_header'), align: 'right', width: 'money' },
  ];
  const rows = doc.items.map((item, i): Cell[] => {
    const amounts = totals.lines[i]!;
    return [
      dateCell(item.date, fmt),
      { text: item.reference ?? '', align: 'left' },
      itemCell(item, line),
      { text: amounts.amount.isZero() ? '' : money(amounts.amount), align: 'right' },
      { text: amounts.payment.isZero() ? '' : money(amounts.payment), align: 'right' },
      { text: money(amounts.runningBalance), align: 'right' },
    ];
  });
  // "Null or zero is omitted".
  const lines: TotalLine[] = [];
  if (totals.show.amountPaid) lines.push({ label: label('amount_paid_title'), value: money(totals.amountPaid) });
  lines.push({ label: label('subtotal_title'), value: money(totals.subtotal) });
  lines.push(...adjustments(), ...included());
  if (totals.show.payments) lines.push({ label: label('payments_title'), value: money(totals.payments) });
  if (totals.show.rounding) lines.push({ label: label('rounding_title'), value: money(totals.rounding) });
  lines.push({ label: label('balance_title'), value: money(totals.balance), strong: true });
  return { columns, rows, totals: lines, summary: { label: label('balance_title'), value: money(totals.balance) } };
}
