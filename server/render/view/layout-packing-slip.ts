// The packing slip's layout (docs/decisions.md §2): item, description and quantity, no money; the total quantity as
// the one total line, and no summary. Must not compute quantities.
import type { Layout, LayoutContext } from './document-layout';
import { lineDetails, quantityWithUnit } from './line-details';
import type { Cell, Column } from './view-types';

export function packingSlipLayout({ doc, totals, fmt, label, line }: LayoutContext): Layout {
  const columns: Column[] = [
    { key: 'item', label: label('item_header'), align: 'left', width: 'wide' },
    { key: 'description', label: label('description_header'), align: 'left', width: 'wide' },
    { key: 'quantity', label: label('quantity_header'), align: 'right', width: 'qty' },
  ];
  const rows = doc.items.map((item, i): Cell[] => [
    { text: item.name ?? '', align: 'left' },
    { text: item.description ?? '', details: lineDetails(item, line), align: 'left' },
    { text: quantityWithUnit(totals.lines[i]!.quantity, item.unit, line), align: 'right' },
  ]);
  const total = { label: label('total_quantity_title'), value: fmt.formatQuantity(totals.totalQuantity), strong: true };
  return { columns, rows, totals: [total] };
}
