// What a document family's layout gives the view model: the table's columns and rows, the total lines and the
// summary beside the header (docs/decisions.md §2, §7), from the document, its totals, the formatter and the labels.
// The families are a module each (layout-statement.ts, layout-packing-slip.ts, layout-priced.ts); view-model.ts holds
// the table of which type takes which. Cells shared by the families are here. Must not compute money.
import type { DocumentRequest } from '../../documents/model';
import type { Totals } from '../../money/totals';
import type { Formatter } from '../labels/format';
import { lineDetails, type LineContext } from './line-details';
import type { Cell, Column, LabelledValue, TotalLine, ViewLabelKey } from './view-types';

export interface LayoutContext {
  doc: DocumentRequest;
  totals: Totals;
  fmt: Formatter;
  label: (key: ViewLabelKey) => string;
  /** The context of the lines' details, quantities and allowances (render/view/line-details.ts). */
  line: LineContext;
  /** The total lines of the document's allowances, charges and taxes (render/view/adjustment-lines.ts). */
  adjustments: () => TotalLine[];
  /** With prices that include tax, the lines after the total: the net amount and the tax included per rate. */
  included: () => TotalLine[];
}

export interface Layout {
  columns: Column[];
  rows: Cell[][];
  totals: TotalLine[];
  /** The amount beside the header (absent: none, as on a packing slip). */
  summary?: LabelledValue;
}

export type LayoutOf = (ctx: LayoutContext) => Layout;

/** The item's name, its description as a lighter line under it and its details under both. */
export function itemCell(item: DocumentRequest['items'][number], line: LineContext): Cell {
  return {
    text: item.name ?? item.description ?? '',
    sub: item.name ? item.description : undefined,
    name: item.name !== undefined || undefined,
    details: lineDetails(item, line),
    align: 'left',
  };
}

/** A line's date (statements, timesheets), never wrapped; empty when it has none. */
export function dateCell(date: string | undefined, fmt: Formatter): Cell {
  return { text: date ? fmt.formatDate(date) : '', align: 'left', nowrap: true };
}
