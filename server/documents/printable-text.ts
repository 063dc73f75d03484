// Text as it may be printed: what a request sends is kept, but no text may make the page unreadable or endless.
// - Line ends: CRLF, CR and the Unicode line and paragraph separators become LF (the templates print lines with
//   `white-space: pre-line`, which knows only LF).
// - Blank lines: a run of empty (or blank) lines prints as one empty line; leading and trailing ones are dropped,
//   so 10,000 line breaks in the notes cost one line, not 411 blank pages.
// - Combining marks: a letter keeps at most MAX_MARKS nonspacing marks in a row ("Zalgo" text stacks thousands, which
//   draw a column over the lines above). Real scripts stack fewer (Vietnamese 2, Thai and Arabic 2-3, pointed Hebrew
//   up to 4, above and below the letter); themes/base.css clips what still rises above a text's own block.
// - Mathematical letters and digits (U+1D400-1D7FF: 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, 𝐁𝐨𝐥𝐝, what "fancy text" generators make of a name) print as
//   the letters and digits they style (their compatibility form, NFKC): no shipped font draws them, and they printed
//   as boxes.
// Only the printed view uses this; e-invoices carry the text as sent. Must not know about documents.

export const MAX_MARKS = 4;

// eslint-disable-next-line no-control-regex -- vertical tab and form feed are line breaks here
const LINE_ENDS = /\r\n?|[\u2028\u2029\u000b\u000c\u0085]/g;
const BLANK_RUNS = /\n(?:[^\S\n]*\n)+/g;
const MARK_RUNS = new RegExp(`([\\p{Mn}\\p{Me}]{${MAX_MARKS}})[\\p{Mn}\\p{Me}]+`, 'gu');

const MATH_ALPHANUMERICS = /[\u{1D400}-\u{1D7FF}]/gu;

/** Text that no rule below changes: printable ASCII only (most cells of a long table: numbers, dates, references). */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

export function printable(text: string): string {
  if (PLAIN_ASCII.test(text)) return text;
  let out = text.replace(LINE_ENDS, '\n');
  if (out.includes('\n')) {
    out = out
      .replace(BLANK_RUNS, '\n\n')
      .replace(/^(?:[^\S\n]*\n)+/, '')
      .replace(/(?:\n[^\S\n]*)+$/, '');
  }
  return out.replace(MARK_RUNS, '$1').replace(MATH_ALPHANUMERICS, (c) => c.normalize('NFKC'));
}
