// The document as the templates see it, as types: its cells, columns, labelled values and total lines, the view of
// a whole document (DocumentView), and the labels it prints. Shared by the view (view-model.ts), the layouts of each
// document family (layout-*.ts, document-layout.ts) and a received invoice's view (render/received/), so that none of
// them imports another back. Types only.
import type { LabelKey } from '../../documents/model';
import type { AdjustmentLabelKey } from './adjustment-lines';
import type { DetailLabelKey } from './document-details';
import type { FooterView, StampView } from './marks';
import type { QrBillView } from './qr-bill-view';

export interface Cell {
  text: string;
  /** A second, lighter line (the item description). */
  sub?: string;
  /** The text is the item's name (with or without a description under it). */
  name?: boolean;
  /** Small lines under the item (identifiers, attributes, period, note: render/view/line-details.ts). */
  details?: string[];
  align: 'left' | 'right';
  /** A number or date: printed on one line, whatever the column's width (money, quantities, rates, dates). */
  nowrap?: boolean;
  /** A cell of a line's allowance or charge, the sub-row under its line (render/view/line-adjustments.ts). */
  adjustment?: boolean;
  /** A received invoice's sub-line (BG-DEX-01), its depth under its line (1, 2 …): indented, lighter. */
  depth?: number;
}

export interface Column {
  key: string;
  label: string;
  align: 'left' | 'right';
  /** Width class (themes/base.css): `wide` takes the space the others leave. */
  width: 'wide' | 'date' | 'ref' | 'money' | 'qty';
  /** A number column's heading is kept on one line unless it is longer than a short phrase. */
  wrap?: boolean;
  /** The heading has a word longer than LONG_WORD: it may break anywhere (see longWords). */
  breakLabel?: boolean;
}

export interface LabelledValue {
  label: string;
  value: string;
  /** The value has several lines, each printed on its own (the preceding invoices). */
  multiline?: boolean;
  /** The value is a date: never wrapped (the label beside it gives way). */
  nowrap?: boolean;
  /** The label or the value has a word longer than LONG_WORD: it may break anywhere (see longWords). */
  breakLabel?: boolean;
  breakValue?: boolean;
  /** The label is short (at most ONE_LINE_LABEL characters): kept on one line, the value's column gives way. */
  oneLineLabel?: boolean;
}

export interface TotalLine extends LabelledValue {
  strong?: boolean;
  /** What the total includes (prices with tax included): printed smaller, under the total. */
  included?: boolean;
}

export interface DocumentView {
  type: string;
  lang: string;
  /** PDF metadata title, e.g. `Invoice 1`. */
  title: string;
  /** PDF metadata author: the first line of `from`. */
  author: string;
  header: string;
  number?: LabelledValue;
  logo?: string;
  /** The logo's alternate text (the logo_alt field, else "Logo of" and the first line of from). */
  logoAlt: string;
  fromName: string;
  fromRest: string;
  to: { title: string; text: string };
  shipTo?: { title: string; text: string };
  details: LabelledValue[];
  /** Custom fields when there are too many for the details column. */
  fields?: LabelledValue[];
  summary?: LabelledValue;
  columns: Column[];
  rows: Cell[][];
  /** Some line has a description under its name: then every name is set as a name (in the theme's item weight). */
  itemsDescribed: boolean;
  totals: TotalLine[];
  notes?: { title: string; text: string };
  terms?: { title: string; text: string };
  /** Localized page counter text with `{{page}}` / `{{pages}}` placeholders. */
  pageOf: string;
  /** The payment QR code beside the totals: its drawing, caption and alternate text. */
  paymentCode?: PaymentCodeView;
  /** The Swiss QR-bill's payment part and receipt, at the foot of the last page. */
  qrBill?: QrBillView;
  /** The stamp across the first page or every page, and the letterhead footer of every page (render/view/marks.ts). */
  stamp?: StampView;
  footer?: FooterView;
  /** The account's brand colours and font, printed as the page's tokens (templates/document-style.hbs). */
  brand?: BrandStyle;
}

export interface PaymentCodeView {
  /** The dark modules as an SVG path in module units; `size` modules across, quiet zone included. */
  path: string;
  size: number;
  /** The symbol's printed width and height (mm): 30, or more for a long payload (qrWidthMm). */
  widthMm: number;
  caption: string;
  alt: string;
}

/** What a brand changes on the page: the accent (bar, summary, title), the text colour, the leading font family. */
export interface BrandStyle {
  accent?: string;
  text?: string;
  font?: string;
}

/** Every label the view prints: the request's template parameters and the catalogue's own. */
export type ViewLabelKey = LabelKey | 'description_header' | 'total_quantity_title' | DetailLabelKey | AdjustmentLabelKey;
