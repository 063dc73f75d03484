// How much a document may print. Chromium lays out every line before it prints the first page, so a request of
// 1,000 items with 470 line breaks each once took a renderer to 3.8 GB and a render slot for 20 s. The lines a
// request would print are estimated from its text (after documents/printable-text.ts, so blank runs count once) and a
// document over its limit (MAX_PRINTED_LINES, 6,000 by default: about 150 pages; a 1,000-line invoice with two-line
// descriptions prints about 3,000) is refused before anything renders, naming the fields that make it long.
// Must not know about HTML or Chromium.
import type { FieldProblem } from '../errors';
import type { DocumentRequest } from './model';
import { printable } from './printable-text';

/** Characters in a printed line of the item column, for estimating wrapped lines (an underestimate is fine). */
const CHARS_PER_LINE = 100;

/** The statement's reference column is about a third of the item column's width. */
const CHARS_PER_REFERENCE_LINE = 30;

function linesOf(text: string | undefined, perLine = CHARS_PER_LINE): number {
  if (!text) return 0;
  let lines = 0;
  for (const line of printable(text).split('\n')) lines += Math.max(1, Math.ceil(line.length / perLine));
  return lines;
}

/** Every text in `value`, at any depth (a received invoice's block, a line's attributes). */
function* textsIn(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) yield* textsIn(v);
}

/** `measure` summed over every text in `value`. */
const sumOverTexts = (value: unknown, measure: (text: string) => number): number => {
  let n = 0;
  for (const text of textsIn(value)) n += measure(text);
  return n;
};

/** The characters of every text in `value`. */
const charsIn = (value: unknown): number => sumOverTexts(value, (text) => text.length);

/** The fields of a line that print as its small lines (render/view/line-details.ts; its note is counted on its own): the
 * others print in columns beside its name (date, numbers) or not at all (line_id, references, classifications). */
const SMALL_LINES = ['seller_item_id', 'buyer_item_id', 'standard_item_id', 'origin_country', 'attributes', 'period'] as const;

/** The lines one item prints, by field: its name, description and note stacked with the small lines under them
 * (render/view/line-details.ts: identifiers, origin, attributes, period: run together, wrapping at the column),
 * and a statement's reference in its narrow column beside them. */
function itemLines(item: DocumentRequest['items'][number]): { total: number; fields: [string, number][] } {
  const fields: [string, number][] = [
    ['name', linesOf(item.name)],
    ['description', linesOf(item.description)],
    ['note', linesOf(item.note)],
    ['reference', linesOf(item.reference, CHARS_PER_REFERENCE_LINE)],
  ];
  // The small lines are named by the field that writes most of them.
  const others = SMALL_LINES.map((key): [string, number] => [key, charsIn(item[key])]);
  const detailChars = others.reduce((n, [, chars]) => n + chars, 0);
  const details = Math.ceil(detailChars / CHARS_PER_LINE);
  const most = others.reduce((a, b) => (b[1] > a[1] ? b : a), ['attributes', 0])[0];
  const stacked = fields[0]![1] + fields[1]![1] + fields[2]![1] + details;
  return { total: Math.max(1, stacked, fields[3]![1]), fields: [...fields, [most, details]] };
}

/** The lines every text in `value` would print, each a block of its own, at any depth (a received invoice's block of
 * the terms other documents do not print: its notes, references, parties' details). */
export const linesIn = (value: unknown): number => sumOverTexts(value, (text) => linesOf(text));

/** The length of the longest text in `value`, at any depth. */
export const longestTextIn = (value: unknown): number => {
  let longest = 0;
  for (const text of textsIn(value)) longest = Math.max(longest, text.length);
  return longest;
};

/** The lines each part of `doc` prints, and the document's total (its items counted once, as the line `items`). */
function budgetFields(doc: Budgeted, more: [field: string, lines: number][]): { fields: [string, number][]; total: number } {
  const fields: [string, number][] = [
    ['from', linesOf(doc.from)],
    ['to', linesOf(doc.to)],
    ['ship_to', linesOf(doc.ship_to)],
    ['notes', linesOf(doc.notes)],
    ['terms', linesOf(doc.terms)],
    ['custom_fields', doc.custom_fields.length],
    ...more,
  ];
  let lines = 0;
  doc.items.forEach((item, i) => {
    const one = itemLines(item);
    lines += one.total;
    for (const [field, n] of one.fields) if (n > 20) fields.push([`items[${i}].${field}`, n]);
  });
  fields.push(['items', lines]);
  return { fields, total: fields.reduce((n, [field, lines]) => (field.startsWith('items[') ? n : n + lines), 0) };
}

/** The lines `doc` would print, as printBudgetProblems counts them (a batch adds its documents' up: batch.ts). */
export const printedLines = (doc: Budgeted): number => budgetFields(doc, []).total;

/** What the budget reads of a document. */
type Budgeted = Pick<DocumentRequest, 'from' | 'to' | 'ship_to' | 'notes' | 'terms' | 'items' | 'custom_fields'>;

/** The fields that make the document longer than it may print, or none; `more`: other parts of the page, by name,
 * with the lines each prints. */
export function printBudgetProblems(doc: Budgeted, maxLines: number, more: [field: string, lines: number][] = []): FieldProblem[] {
  const { fields, total } = budgetFields(doc, more);
  if (total <= maxLines) return [];
  const message = (n: number) =>
    `prints about ${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'}; a whole document may print at most ${maxLines.toLocaleString('en-US')} (about ${Math.round(maxLines / 40)} pages)`;
  // The items as a whole, unless one item's field is long enough to say why (a tenth of what the document prints).
  const oneItemSays = fields.some(([f, n]) => f.startsWith('items[') && n >= total / 10);
  const named = fields.filter(([field, n]) => n > 0 && (field !== 'items' || !oneItemSays)).sort((a, b) => b[1] - a[1]);
  // The fields that make it long, not every field it has: those of at least a tenth of what it prints (the longest
  // one whatever its length).
  const long = named.filter(([, n], i) => i === 0 || n >= total / 10);
  return long.slice(0, 10).map(([field, n]) => ({ field, message: `${field} ${message(n)}` }));
}

/** The longest text a received invoice's page prints: the API takes texts of at most 10,000 characters, a received
 * invoice is someone else's, and Chromium lays a long unbroken text out in time that grows with its square (a
 * BuyerReference of 120,000 characters took 4.9 s, of 300,000 past the render deadline). */
const MAX_RECEIVED_TEXT = 40_000;

/** printBudgetProblems for a received invoice's page: its details (BT-10, BT-20 …), notes and block of received terms
 * counted too (a note of a million characters is 10,000 lines), and no text longer than MAX_RECEIVED_TEXT. */
export function receivedBudgetProblems(
  doc: Budgeted,
  view: { details: unknown; received: { notes?: unknown } },
  maxLines: number,
): FieldProblem[] {
  const { notes, ...block } = view.received;
  const parts: [string, unknown][] = [
    ['the details (BT-10, BT-20 …)', view.details],
    ['the notes (BT-21, BT-22)', notes],
    ['the payment, references, parties and attachments', block],
    ['the lines', doc.items],
    ['the parties', [doc.from, doc.to, doc.ship_to]],
  ];
  const tooLongTexts = parts.flatMap(([part, value]) => {
    const longest = longestTextIn(value);
    return longest > MAX_RECEIVED_TEXT
      ? [
          {
            field: part,
            message: `${part} hold a text of ${longest.toLocaleString('en-US')} characters; a received invoice's texts may have at most ${MAX_RECEIVED_TEXT.toLocaleString('en-US')}`,
          },
        ]
      : [];
  });
  if (tooLongTexts.length > 0) return tooLongTexts;
  return printBudgetProblems(doc, maxLines, [
    [parts[0]![0], linesIn(view.details)],
    [parts[1]![0], linesIn(notes)],
    [parts[2]![0], linesIn(block)],
  ]);
}
