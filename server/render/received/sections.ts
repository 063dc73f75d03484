// The shapes of the block a received e-invoice prints after its totals (templates/partials/received.hbs): labelled
// sections of rows, the VAT breakdown as a table, the notes across the page, and the check line at the top; with the
// two helpers every section is built with. Plain data for the templates; no labels, no formatting here.
import type { CheckLine } from './check';
import type { DocumentView } from '../view/view-types';

export interface ReceivedRow {
  /** Empty for a row that is its value alone (a note without a subject code). */
  label: string;
  value: string;
  /** The value has several lines, each printed on its own. */
  multiline?: boolean;
}

export interface ReceivedSection {
  /** Names the section for the themes (`doc-received__section--payment`). */
  key: string;
  title: string;
  rows: ReceivedRow[];
}

export interface ReceivedTable {
  title: string;
  columns: { label: string; align: 'left' | 'right' }[];
  /** `num`: a number (rate, amount), printed on one line. */
  rows: { text: string; align: 'left' | 'right'; num?: boolean }[][];
  /** Rows under the table: the VAT in the accounting currency, the VAT point date code. */
  foot: ReceivedRow[];
}

export interface ReceivedBlock {
  check: CheckLine;
  vat?: ReceivedTable;
  /** In two columns where they fit. */
  sections: ReceivedSection[];
  /** Across the page, after the sections. */
  notes?: ReceivedSection;
}

/** The view of a received invoice: every document's view with the block. */
export interface ReceivedView extends DocumentView {
  received: ReceivedBlock;
}

/** The rows whose value is there, in order. */
export function rows(...candidates: [string, string | undefined][]): ReceivedRow[] {
  return candidates
    .filter((c): c is [string, string] => Boolean(c[1]))
    .map(([label, value]) => ({ label, value, multiline: value.includes('\n') || undefined }));
}

/** A section, or none when it has no row. */
export function section(key: string, title: string, list: ReceivedRow[]): ReceivedSection[] {
  return list.length > 0 ? [{ key, title, rows: list }] : [];
}
