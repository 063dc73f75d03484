// Reading real PDFs in the tests with poppler-utils (pdftotext, pdfinfo, pdfimages, pdffonts): text, not bytes.
import { execFileSync } from 'node:child_process';

function run(tool: string, args: string[], input: Uint8Array): string {
  return execFileSync(tool, args, { input, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
}

/** The PDF's text as `pdftotext -layout` prints it. */
export function pdfText(pdf: Uint8Array): string {
  return run('pdftotext', ['-layout', '-', '-'], pdf);
}

/** The text with all white space collapsed to single spaces, as the examples' `expect.text` is matched. */
export function pdfFlatText(pdf: Uint8Array): string {
  return pdfText(pdf).replace(/\s+/g, ' ');
}

export function pdfInfo(pdf: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of run('pdfinfo', ['-'], pdf).split('\n')) {
    const m = /^([^:]+):\s*(.*)$/.exec(line);
    if (m) out[m[1]!.trim()] = m[2]!.trim();
  }
  return out;
}

export function pdfPageCount(pdf: Uint8Array): number {
  return Number(pdfInfo(pdf).Pages);
}

/** Number of images in the PDF (pdfimages -list). */
export function pdfImageCount(pdf: Uint8Array): number {
  const lines = run('pdfimages', ['-list', '-'], pdf).trim().split('\n');
  return Math.max(0, lines.length - 2);
}

export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}
