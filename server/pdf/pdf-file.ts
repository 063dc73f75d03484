// Reading a PDF with a classic cross-reference table (Chromium's, with any incremental updates after it) object by
// object, and appending an incremental update to it: new or replaced objects, an xref section and a trailer with
// /Prev. The bytes already there are never changed, so the cost is that of the objects touched, not of the file.
// Objects are parsed and written by @cantoo/pdf-lib (PDFObjectParser, PDFObject.toString); this module only finds
// them (the xref tables) and lays out the update. It knows no PDF/A, structure tree or document type.
import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';

export class PdfStructureError extends Error {}

const EOF_TAIL = /startxref\s+(\d+)\s+%%EOF\s*$/;

/** One subsection of a cross-reference table: the rows of objects first … first + count - 1, from byte `rows` on. */
interface XrefRows {
  first: number;
  count: number;
  rows: number;
}

/** A row is 20 bytes: a 10-digit offset, a space, a 5-digit generation, a space, n or f, a two-byte end of line. */
const ROW_BYTES = 20;

export class PdfFile {
  readonly context = PDFContext.create();
  /** The cross-reference subsections, the newest section's first: an object's row is read when it is first asked
   * for (a page's few objects are; the rows of a file's hundreds or thousands are not read at all). */
  private readonly subsections: XrefRows[] = [];
  private readonly parsed = new Map<number, PDFObject>();
  readonly trailer: PDFDict;
  readonly startxref: number;
  readonly size: number;

  constructor(readonly bytes: Buffer) {
    const tail = bytes.subarray(Math.max(0, bytes.length - 1024)).toString('latin1');
    const end = EOF_TAIL.exec(tail);
    if (!end) throw new PdfStructureError('no startxref at the end of the PDF');
    this.startxref = Number(end[1]);
    let trailer: PDFDict | undefined;
    const seen = new Set<number>();
    for (let at: number | undefined = this.startxref; at !== undefined;) {
      if (seen.has(at) || seen.size > 64) throw new PdfStructureError('the chain of cross-reference sections loops');
      seen.add(at);
      const section = this.readXrefSection(at);
      trailer ??= section.trailer;
      const prev = section.trailer.get(PDFName.of('Prev'));
      at = prev instanceof PDFNumber ? prev.asNumber() : undefined;
    }
    this.trailer = trailer!;
    const size = this.trailer.get(PDFName.of('Size'));
    if (!(size instanceof PDFNumber)) throw new PdfStructureError('the trailer has no /Size');
    this.size = size.asNumber();
  }

  /** One `xref` table and the trailer after it; earlier sections never replace what a later one gave. */
  private readXrefSection(at: number): { trailer: PDFDict } {
    const text = this.bytes.subarray(at, Math.min(this.bytes.length, at + 64)).toString('latin1');
    if (!text.startsWith('xref')) throw new PdfStructureError('no classic cross-reference table at startxref');
    let pos = at + 4;
    const line = /\s*(\d+)\s+(\d+)\s*?[\r\n]+/y;
    const chunk = () => this.bytes.subarray(pos, Math.min(this.bytes.length, pos + 64)).toString('latin1');
    for (;;) {
      const head = chunk();
      if (/^\s*trailer/.test(head)) {
        pos += head.indexOf('trailer') + 'trailer'.length;
        break;
      }
      line.lastIndex = 0;
      const m = line.exec(head);
      if (!m) throw new PdfStructureError('a cross-reference subsection header cannot be read');
      pos += m[0].length;
      const first = Number(m[1]);
      const count = Number(m[2]);
      this.subsections.push({ first, count, rows: pos });
      pos += count * ROW_BYTES;
    }
    const trailer = PDFObjectParser.forBytes(this.bytes.subarray(pos), this.context).parseObject();
    if (!(trailer instanceof PDFDict)) throw new PdfStructureError('the trailer is not a dictionary');
    return { trailer };
  }

  /** The object `ref` (or a number) names, parsed once; undefined when the file has no such object. */
  object(ref: PDFRef | number): PDFObject | undefined {
    const num = typeof ref === 'number' ? ref : ref.objectNumber;
    const cached = this.parsed.get(num);
    if (cached) return cached;
    const offset = this.offsetOf(num);
    if (offset === undefined) return undefined;
    const head = /^\s*(\d+)\s+(\d+)\s+obj/.exec(this.bytes.subarray(offset, offset + 40).toString('latin1'));
    if (!head || Number(head[1]) !== num) throw new PdfStructureError(`object ${num} is not where the xref says`);
    const value = PDFObjectParser.forBytes(this.bytes.subarray(offset + head[0].length), this.context).parseObject();
    this.parsed.set(num, value);
    return value;
  }

  /** The byte offset of object `num`'s newest revision: the first row naming it in use (n), the newest section's
   * first (a free row, f, is passed over). */
  private offsetOf(num: number): number | undefined {
    for (const { first, count, rows } of this.subsections) {
      if (num < first || num >= first + count) continue;
      const at = rows + (num - first) * ROW_BYTES;
      if (at + 18 <= this.bytes.length && this.bytes[at + 17] === 0x6e) return Number(this.bytes.toString('latin1', at, at + 10));
    }
    return undefined;
  }

  /** `value` itself, or the object it refers to. */
  resolve(value: PDFObject | undefined): PDFObject | undefined {
    return value instanceof PDFRef ? this.object(value) : value;
  }

  dict(value: PDFObject | undefined): PDFDict | undefined {
    const v = this.resolve(value);
    if (v instanceof PDFRawStream) return v.dict;
    return v instanceof PDFDict ? v : undefined;
  }

  array(value: PDFObject | undefined): PDFArray | undefined {
    const v = this.resolve(value);
    return v instanceof PDFArray ? v : undefined;
  }

  /** The catalog's reference and dictionary. */
  catalog(): { ref: PDFRef; dict: PDFDict } {
    const ref = this.trailer.get(PDFName.of('Root'));
    const dict = ref instanceof PDFRef ? this.dict(ref) : undefined;
    if (!(ref instanceof PDFRef) || !dict) throw new PdfStructureError('the trailer has no catalog');
    return { ref, dict };
  }
}

export interface PageRef {
  ref: PDFRef;
  dict: PDFDict;
}

/** The document's pages in order (the page tree walked depth first). */
export function pageList(file: PdfFile): PageRef[] {
  const pages: PageRef[] = [];
  const walk = (node: PDFObject | undefined, depth: number) => {
    const dict = file.dict(node);
    if (!dict || depth > 32) return;
    const kids = file.array(dict.get(PDFName.of('Kids')));
    if (kids) for (let i = 0; i < kids.size(); i++) walk(kids.get(i), depth + 1);
    else if (node instanceof PDFRef) pages.push({ ref: node, dict });
  };
  walk(file.catalog().dict.get(PDFName.of('Pages')), 0);
  return pages;
}

/** The PDF syntax of a dictionary or other value (pdf-lib writes it). */
export function serialize(value: PDFObject): string {
  return value.toString();
}

/** An object's body for an update: a value's PDF syntax, or a stream's dictionary and its (encoded) bytes. */
export type UpdateBody = string | { dict: string; data: Uint8Array };

/**
 * `file`'s bytes with an incremental update appended: `objects` (number → body; numbers at or above the file's /Size
 * are new), an xref section listing them and a trailer keeping /Root, pointing at `info` (else the file's Info),
 * carrying `id` (else the file's /ID), and with /Prev the file's last cross-reference section.
 */
export function appendUpdate(file: PdfFile, objects: Map<number, UpdateBody>, trailer: { info?: number; id?: Buffer }): Buffer {
  const parts: Buffer[] = [file.bytes];
  let at = file.bytes.length;
  if (file.bytes[at - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    at += 1;
  }
  const offsets: [number, number][] = [];
  for (const [num, body] of objects) {
    const chunk =
      typeof body === 'string'
        ? Buffer.from(`${num} 0 obj\n${body}\nendobj\n`, 'latin1')
        : Buffer.concat([
            Buffer.from(`${num} 0 obj\n${body.dict}\nstream\n`, 'latin1'),
            body.data,
            Buffer.from('\nendstream\nendobj\n', 'latin1'),
          ]);
    offsets.push([num, at]);
    parts.push(chunk);
    at += chunk.length;
  }
  offsets.sort((a, b) => a[0] - b[0]);
  // Consecutive numbers share a subsection.
  let xref = 'xref\n0 1\n0000000000 65535 f \n';
  for (let i = 0; i < offsets.length;) {
    let j = i;
    while (j + 1 < offsets.length && offsets[j + 1]![0] === offsets[j]![0] + 1) j++;
    xref += `${offsets[i]![0]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) xref += `${String(offsets[k]![1]).padStart(10, '0')} 00000 n \n`;
    i = j + 1;
  }
  const size = offsets.reduce((max, [n]) => Math.max(max, n + 1), file.size);
  const root = file.catalog().ref;
  const info = trailer.info ?? (file.trailer.get(PDFName.of('Info')) as PDFRef | undefined)?.objectNumber;
  // A new identifier when given (both halves the same: a new file); else the file's own, kept as it was.
  const before = file.trailer.get(PDFName.of('ID'));
  const id = trailer.id
    ? `\n/ID [<${trailer.id.toString('hex')}> <${trailer.id.toString('hex')}>]`
    : before
      ? `\n/ID ${serialize(before)}`
      : '';
  parts.push(
    Buffer.from(
      `${xref}trailer\n<</Size ${size}\n/Root ${root.objectNumber} ${root.generationNumber} R${
        info === undefined ? '' : `\n/Info ${info} 0 R`
      }${id}\n/Prev ${file.startxref}>>\nstartxref\n${at}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/**
 * One incremental update being assembled by several steps (the PDF/A finish, then the signature): the objects it
 * replaces or adds, the catalog as it will be written (each step changes this one copy, so that their changes to it
 * add up), the trailer's Info and /ID; `write` lays it out once, after the file's bytes.
 */
export class PdfUpdate {
  readonly objects = new Map<number, UpdateBody>();
  readonly catalog: PDFDict;
  readonly catalogRef: PDFRef;
  info?: number;
  id?: Buffer;
  private next: number;

  constructor(readonly file: PdfFile) {
    const { ref, dict } = file.catalog();
    this.catalogRef = ref;
    this.catalog = dict.clone();
    this.next = file.size;
  }

  /** A new object number. */
  reserve(): number {
    return this.next++;
  }

  /** The file with the update appended. */
  write(): Buffer {
    this.objects.set(this.catalogRef.objectNumber, serialize(this.catalog));
    return appendUpdate(this.file, this.objects, { info: this.info, id: this.id });
  }
}
