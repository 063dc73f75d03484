// Real PDFs broken on purpose for the reader's tests, by real tools and plain bytes, never by the code under test:
// - patchPdf: objects changed through qpdf's JSON (`--update-from-json`), which rewrites the whole file as qpdf
//   writes PDFs (objects renumbered; the XMP stream left uncompressed);
// - appendUpdate: an incremental update appended by hand (new objects, an xref section and a trailer with /Prev), the
//   way an editor changes a PDF without rewriting it; later objects replace earlier ones of the same number.
// It checks nothing itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { qpdfJson, type Dict, type Json, type QpdfFile } from './pdfa-reader';
import { tempDir } from './service';

/** A changed object, as qpdf's JSON v2 writes it: a value, or a stream's dictionary and (base64) data. */
export type Patched = { value: Json } | { stream: { dict: Dict; data?: string } };

/** `pdf` with the objects `change` returns (keys like '12 0 R') replaced; `qpdfArgs` are added to qpdf's command. */
export function patchPdf(pdf: Buffer, change: (file: QpdfFile) => Record<string, Patched>, qpdfArgs: string[] = []): Buffer {
  const dir = tempDir('pdf-patch');
  const input = path.join(dir, 'in.pdf');
  fs.writeFileSync(input, pdf);
  const patch = Object.fromEntries(Object.entries(change(qpdfJson(input))).map(([ref, obj]) => [`obj:${ref}`, obj]));
  fs.writeFileSync(path.join(dir, 'patch.json'), JSON.stringify({ qpdf: [{ jsonversion: 2 }, patch] }));
  execFileSync('qpdf', [input, `--update-from-json=${path.join(dir, 'patch.json')}`, ...qpdfArgs, path.join(dir, 'out.pdf')]);
  return fs.readFileSync(path.join(dir, 'out.pdf'));
}

/** The catalog's reference and value in a qpdf reading. */
export function catalogOf(file: QpdfFile): { ref: string; value: Dict } {
  const ref = file.trailer['/Root'] as string;
  return { ref, value: file.dict(ref) };
}

/** The first object whose value (or stream dictionary) `match` accepts. */
export function findObject(file: QpdfFile, match: (d: Dict) => boolean): { ref: string; dict: Dict; data?: Buffer } {
  for (const [ref, o] of file.objects) {
    const d = (o.dict ?? o.value) as Dict | null | undefined;
    if (d && typeof d === 'object' && !Array.isArray(d) && match(d)) return { ref, dict: d, data: o.data };
  }
  throw new Error('no such object');
}

/** The last `startxref` offset and the trailer's /Size and /Root of a classic (xref table) PDF. */
function lastTrailer(pdf: Buffer): { startxref: number; size: number; root: string; id: string } {
  const tail = pdf.subarray(Math.max(0, pdf.length - 4096)).toString('latin1');
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)?.[1]);
  const size = Number(/\/Size\s+(\d+)/.exec(tail)?.[1]);
  const root = /\/Root\s+(\d+ \d+ R)/.exec(tail)?.[1] ?? '';
  const id = /\/ID\s*(\[[^\]]*\])/.exec(tail)?.[1] ?? '';
  return { startxref, size, root, id };
}

/**
 * `pdf` with an incremental update: `objects` (object number → the text between `obj` and `endobj`, latin1, or a Buffer
 * for binary content), numbers at or above /Size taken as new, and the trailer's /Root changed when `root` is given.
 */
export function appendUpdate(pdf: Buffer, objects: Record<number, string | Buffer>, root?: number): Buffer {
  const before = lastTrailer(pdf);
  const parts: Buffer[] = [pdf, Buffer.from('\n', 'latin1')];
  let at = pdf.length + 1;
  const offsets: [number, number][] = [];
  for (const [num, body] of Object.entries(objects)) {
    const chunk = Buffer.concat([
      Buffer.from(`${num} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    offsets.push([Number(num), at]);
    parts.push(chunk);
    at += chunk.length;
  }
  const size = offsets.reduce((max, [n]) => Math.max(max, n + 1), before.size);
  const xref = offsets
    .sort((a, b) => a[0] - b[0])
    .map(([n, o]) => `${n} 1\n${String(o).padStart(10, '0')} 00000 n \n`)
    .join('');
  const rootRef = root === undefined ? before.root : `${root} 0 R`;
  const trailer = `xref\n${xref}trailer\n<< /Size ${size} /Root ${rootRef} /Prev ${before.startxref} /ID ${before.id} >>\nstartxref\n${at}\n%%EOF\n`;
  parts.push(Buffer.from(trailer, 'latin1'));
  return Buffer.concat(parts);
}
