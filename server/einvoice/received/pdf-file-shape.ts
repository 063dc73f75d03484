// A received PDF's shape, read from its bytes before anything parses it: whether it is a PDF at all (a %PDF- header in
// its first 1024 bytes, as readers accept) and whole (startxref and %%EOF in its last 1024 bytes), and the PDF/A-3
// file-structure rules that live in the bytes (PDFA3-FILE: the header %PDF-1.0 … 1.7 at byte 0, a binary comment of
// four bytes ≥ 128 after it, nothing after the last %%EOF but one end-of-line; ISO 19005-3 6.1.2, 6.1.3), and the
// objects it declares counted (object headers, and the /N of every object stream), so that a file of a million
// objects is refused in milliseconds instead of after pdf-lib has parsed its budget's worth. The count is a fast
// estimate (a byte search, no parse); the exact bound is pdf-bounds.ts's during the parse.
import { fatal, type Check } from './pdf-check';

const WINDOW = 1024;

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/** Object headers (`12 0 obj`: "obj" after whitespace) and object stream /N values, counted up to `limit` + 1. */
export function countObjects(view: Buffer, limit: number): number {
  let count = 0;
  for (let at = view.indexOf('obj'); at >= 0 && count <= limit; at = view.indexOf('obj', at + 3)) {
    if (at > 0 && WHITESPACE.has(view[at - 1]!)) count++;
  }
  for (let at = view.indexOf('/ObjStm'); at >= 0 && count <= limit; at = view.indexOf('/ObjStm', at + 7)) {
    const start = Math.max(0, view.lastIndexOf('obj', at));
    const end = view.indexOf('stream', at);
    const dict = view.toString('latin1', start, end < 0 ? Math.min(view.length, at + 1024) : Math.min(end, start + 4096));
    count += Number(/\/N\s+(\d{1,9})\b/.exec(dict)?.[1] ?? 0);
  }
  return count;
}

export interface FileShape {
  /** Why the bytes are not read as a PDF at all (the caller refuses them). */
  refusal?: string;
  checks: Check[];
}

function binaryComment(bytes: Uint8Array, from: number): boolean {
  let i = from;
  while (i < bytes.length && i < from + WINDOW && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
  while (i < bytes.length && (bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (bytes[i] !== 0x25) return false;
  for (let k = 1; k <= 4; k++) if ((bytes[i + k] ?? 0) < 128) return false;
  return true;
}

export function checkFileShape(bytes: Uint8Array, maxObjects: number): FileShape {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = view.subarray(0, WINDOW).indexOf('%PDF-');
  if (header < 0) return { refusal: 'not a PDF (no %PDF- header in its first 1024 bytes)', checks: [] };
  const tail = view.subarray(Math.max(0, view.length - WINDOW)).toString('latin1');
  const eof = tail.lastIndexOf('%%EOF');
  if (eof < 0 || !tail.slice(0, eof).includes('startxref')) {
    return { refusal: 'a truncated PDF (it does not end with startxref and %%EOF)', checks: [] };
  }
  if (countObjects(view, maxObjects) > maxObjects)
    return { refusal: `a PDF with more objects than the reader allows (more than ${maxObjects})`, checks: [] };
  const checks: Check[] = [];
  const version = view.toString('latin1', header, header + 8);
  if (header !== 0) checks.push(fatal('PDFA3-FILE', `the %PDF- header is at byte ${header}, not at the start`, 'header'));
  if (!/^%PDF-1\.[0-7]$/.test(version))
    checks.push(fatal('PDFA3-FILE', `the header ${version.replace(/[^\x20-\x7e]/g, '?')} is not PDF 1.0 to 1.7`, 'header'));
  if (!binaryComment(bytes, header))
    checks.push(fatal('PDFA3-FILE', 'the header is not followed by a comment of four bytes of 128 or more', 'header'));
  if (!/^%%EOF(\r\n|\r|\n)?$/.test(tail.slice(eof))) checks.push(fatal('PDFA3-FILE', 'there are bytes after the last %%EOF', 'trailer'));
  return { checks };
}
