// What a reader sees on a PDF page, measured from the file: word boxes (pdftotext -bbox), the fonts embedded
// (pdffonts), and the glyphs drawn as boxes: a character no font had is glyph 0 (`.notdef`) of an Identity-H font,
// which an uncompressed copy (qpdf --qdf) shows as `0000` in a Tj / TJ hex string.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface WordBox {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface PageBoxes {
  width: number;
  height: number;
  words: WordBox[];
}

const unescape = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Every word of every page with its box in points (origin top left), as pdftotext -bbox reports it. */
export function wordBoxes(pdf: Uint8Array): PageBoxes[] {
  const html = execFileSync('pdftotext', ['-bbox', '-', '-'], { input: pdf, maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
  const pages: PageBoxes[] = [];
  for (const page of html.split(/<page /).slice(1)) {
    const size = /width="([\d.]+)" height="([\d.]+)"/.exec(page)!;
    const words: WordBox[] = [];
    for (const m of page.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)) {
      words.push({ page: pages.length + 1, xMin: +m[1]!, yMin: +m[2]!, xMax: +m[3]!, yMax: +m[4]!, text: unescape(m[5]!) });
    }
    pages.push({ width: +size[1]!, height: +size[2]!, words });
  }
  return pages;
}

/** Names of the fonts embedded in the PDF (subset prefix removed), e.g. `NotoSansBengali-Regular`. */
export function embeddedFonts(pdf: Uint8Array): { name: string; embedded: boolean }[] {
  const out = execFileSync('pdffonts', ['-'], { input: pdf }).toString('utf8').trim().split('\n').slice(2);
  return out.map((line) => {
    const cols = line.trim().split(/\s+/);
    // name type… encoding emb sub uni object ID: emb is the fifth column from the end.
    return { name: cols[0]!.replace(/^[A-Z]{6}\+/, ''), embedded: cols[cols.length - 5] === 'yes' };
  });
}

/** The PDF uncompressed by `qpdf --qdf` (no object streams), as Latin-1 text: its dictionaries and operators readable. */
export function uncompressedPdf(pdf: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-qdf-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('qpdf', ['--qdf', '--object-streams=disable', path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
    return fs.readFileSync(path.join(dir, 'out.pdf')).toString('latin1');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** How many glyphs the PDF draws as `.notdef` (a box), counted in its uncompressed text-showing operators. */
export function notdefGlyphs(pdf: Uint8Array): number {
  const text = uncompressedPdf(pdf);
  let count = 0;
  // Every uncompressed stream that shows text (page contents and form XObjects; font programs are binary and are
  // skipped), and in it every hex string: glyph ids of two bytes each (Identity-H).
  for (let at = text.indexOf('stream\n'); at >= 0; at = text.indexOf('stream\n', at + 1)) {
    const end = text.indexOf('endstream', at);
    if (end < 0) break;
    const body = text.slice(at + 7, end);
    at = end;
    // eslint-disable-next-line no-control-regex -- binary stream data is skipped
    if (!/T[Jj]\s/.test(body) || /[\x00-\x08\x0e-\x1f]/.test(body)) continue;
    for (const m of body.matchAll(/<([0-9A-Fa-f]+)>/g)) {
      const hex = m[1]!;
      for (let i = 0; i + 4 <= hex.length; i += 4) if (hex.slice(i, i + 4) === '0000') count++;
    }
  }
  return count;
}
