// The stamp and the letterhead footer as the page prints them (documents/marks.ts reads them from the request).
// - The stamp: its words (the request's own, else the kind's in the document's language), its kind (its colour in
//   the theme), whether it crosses every page, and a font size that keeps the rotated words inside the page: about
//   430 pt across at most, reckoning a wide (CJK) character a full em, an Arabic letter half one and any other
//   0.78 em of bold capitals. The theme paints it blurred by a fraction of a pixel, which makes Chromium print it as
//   a 300 ppi image (with a soft mask) rather than text: its words stay out of the text layer, so that a text
//   extraction reads the document as it reads it without the stamp (and the PDF tags it as an artifact).
// - The footer: its lines, the CSS string of an @page margin box (line breaks as "\A", `<` escaped so that no text
//   can close the style element), and the bottom margin that makes room for it: each line's width reckoned in ems
//   from its characters' classes (a W or a CJK character a full em, a lower-case letter 0.56, a space 0.26 …) and
//   its rows at 340 pt a row, 10 % short of the 7 pt box beside the page counter on A4, so that it never reaches the
//   body nor the paper's edge. Plain data and CSS text; knows no HTML.
import type { Stamp } from '../../documents/model';
import { PAGE_MARGIN_IN } from '../../documents/paper';

export interface StampView {
  text: string;
  /** The kind, for its colour (`doc-stamp--paid`); `custom` for words of the request's own without a kind. */
  kind: string;
  every: boolean;
  /** Font size in points. */
  size: number;
}

export interface FooterView {
  lines: string[];
  /** The margin box's `content`: the lines as CSS strings joined by line breaks. */
  css: string;
  /** The page's bottom margin in inches. */
  marginIn: number;
}

/** CJK, Hangul, kana, full-width forms and emoji: a full em wide. */
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;
/** Arabic letters, joined, are about half an em. */
const NARROW = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/u;
const STAMP_WIDTH_PT = 430;
const STAMP_MAX_PT = 60;
const STAMP_MIN_PT = 12;

/** The stamp as printed; `word` gives the kind's word in the document's language. */
export function stampView(stamp: Stamp | undefined, word: (kind: string) => string): StampView | undefined {
  if (!stamp) return undefined;
  const text = stamp.text ?? word(stamp.kind!);
  const ems = [...text].reduce((sum, ch) => sum + (WIDE.test(ch) ? 1 : NARROW.test(ch) ? 0.5 : 0.78), 0) + 0.8; // and its border and padding
  const size = Math.max(STAMP_MIN_PT, Math.min(STAMP_MAX_PT, Math.floor(STAMP_WIDTH_PT / ems)));
  return { text, kind: stamp.kind ?? 'custom', every: stamp.pages === 'all', size };
}

/** A CSS string of `text`: quotes and backslashes escaped, `<`, `>` and `&` as CSS escapes, one line. */
export function cssText(text: string): string {
  const escaped = text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/[<>&]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)
    .replace(/[\r\n]+/g, ' ');
  return `"${escaped}"`;
}

/** A character's width in ems, by class (Noto Sans, rounded up). */
function emsOf(ch: string): number {
  if (WIDE.test(ch) || /[MWmw@%]/.test(ch)) return 1;
  if (NARROW.test(ch)) return 0.5;
  if (/\s/.test(ch)) return 0.26;
  if (/[il.,:;|!'ıjtf()[\]]/.test(ch)) return 0.32;
  if (/[a-z0-9]/.test(ch)) return 0.58;
  if (/[A-Z]/.test(ch)) return 0.72;
  return 0.7;
}

const ROW_PT_WIDE = 340;
const FOOTER_PT = 7;
const ROW_PT = 7 * 1.35;
/** The room above the footer (from the body) and below it (to the paper's edge), in points. */
const GAP_PT = 12;
const EDGE_PT = 26;
const MIN_MARGIN_IN = PAGE_MARGIN_IN.bottom;

/** A margin box does not break a word that is wider than the box (overflow-wrap is not applied there): a word of more
 * than LONG_WORD characters gets a zero-width space after every BREAK_EVERY, where the line may wrap. */
const LONG_WORD = 30;
const BREAK_EVERY = 15;
function breakable(line: string): string {
  return line.replace(new RegExp(`\\S{${LONG_WORD + 1},}`, 'gu'), (word) =>
    (word.match(new RegExp(`[^]{1,${BREAK_EVERY}}`, 'gu')) ?? []).join('\u200b'),
  );
}

/** The footer as printed, from its text (printable already: line ends are LF). */
export function footerView(footer: string | undefined): FooterView | undefined {
  if (footer === undefined) return undefined;
  const lines = footer.split('\n').map((l) => l.trim());
  if (lines.every((l) => l === '')) return undefined;
  const rows = lines.reduce((sum, line) => {
    const width = [...line].reduce((w, ch) => w + emsOf(ch), 0) * FOOTER_PT;
    return sum + Math.max(1, Math.ceil(width / ROW_PT_WIDE));
  }, 0);
  const marginIn = Math.max(MIN_MARGIN_IN, (GAP_PT + rows * ROW_PT + EDGE_PT) / 72);
  return { lines, css: lines.map((l) => cssText(breakable(l))).join(' "\\A " '), marginIn: Math.round(marginIn * 1000) / 1000 };
}
