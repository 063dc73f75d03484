// How much a document may print. Chromium lays out every line before it prints the first page, so a request of
// 1,000 items with 470 line breaks each once took a renderer to 3.8 GB and a render slot for 20 s. The lines a
// request would print are estimated from its text (after render/printable-text.ts, so blank runs count once) and a
// document over its limit (MAX_PRINTED_LINES, 6,000 by default: about 150 pages; a 1,000-line invoice with two-line
// descriptions prints about 3,000) is refused before anything renders, naming the fields that make it long.
// Must not know about HTML or Chromium.
import type { FieldProblem } from '../errors';
import type { DocumentRequest } from '../documents/model';
import { printable } from './printable-text';

/** Characters in a printed line of the item column, for estimating wrapped lines (an underestimate is fine). */
const CHARS_PER_LINE = 100;

function linesOf(text: string | undefined): number {
  if (!text) return 0;
  let lines = 0;
  for (const line of printable(text).split('\n')) lines += Math.max(1, Math.ceil(line.length / CHARS_PER_LINE));
  return lines;
}

/** The lines every text in `value` would print, each a block of its own, at any depth (a received invoice's block of
 * the terms other documents do not print: its notes, references, parties' details). */
export function linesIn(value: unknown): number {
  if (typeof value === 'string') return linesOf(value);
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + linesIn(v), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + linesIn(v), 0);
  return 0;
}

/** The fields that make the document longer than it may print, or none; `more`: other parts of the page, by name,
 * with the lines each prints. */
export function printBudgetProblems(
  doc: Pick<DocumentRequest, 'from' | 'to' | 'ship_to' | 'notes' | 'terms' | 'items' | 'custom_fields'>,
  maxLines: number,
  more: [field: string, lines: number][] = [],
): FieldProblem[] {
  const fields: [string, number][] = [
    ['from', linesOf(doc.from)],
    ['to', linesOf(doc.to)],
    ['ship_to', linesOf(doc.ship_to)],
    ['notes', linesOf(doc.notes)],
    ['terms', linesOf(doc.terms)],
    ['custom_fields', doc.custom_fields.length],
    ...more,
  ];
  let itemLines = 0;
  doc.items.forEach((item, i) => {
    const name = linesOf(item.name);
    const description = linesOf(item.description);
    itemLines += Math.max(1, name + description);
    if (name > 20) fields.push([`items[${i}].name`, name]);
    if (description > 20) fields.push([`items[${i}].description`, description]);
  });
  fields.push(['items', itemLines]);
  const total = fields.reduce((sum, [field, n]) => (field.startsWith('items[') ? sum : sum + n), 0);
  if (total <= maxLines) return [];
  const message = (n: number) =>
    `prints about ${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'}; a whole document may print at most ${maxLines.toLocaleString('en-US')} (about ${Math.round(maxLines / 40)} pages)`;
  const named = fields
    .filter(([field, n]) => n > 0 && (field !== 'items' || !fields.some(([f]) => f.startsWith('items['))))
    .sort((a, b) => b[1] - a[1]);
  // The fields that make it long, not every field it has: those of at least a hundredth of the limit (the longest
  // one whatever its length).
  const long = named.filter(([, n], i) => i === 0 || n >= maxLines / 100);
  return long.slice(0, 10).map(([field, n]) => ({ field, message: `${field} ${message(n)}` }));
}
