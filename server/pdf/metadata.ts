// PDF document information (Title, Author, Creator, Producer) written as an incremental update: a new Info
// dictionary and a trailer appended after Chromium's output, which stays byte for byte as it was. This costs
// microseconds whatever the page count, where re-writing the file with a PDF library costs milliseconds per page.
// Chromium already writes the title of <title> and the document language (/Lang from <html lang>).

/** The PDF Producer entry of every PDF the service makes (Info dictionary, and the XMP of a PDF/A). */
export const PRODUCER = 'docgen-service (Chromium Skia/PDF)';

export interface PdfMetadata {
  title?: string;
  author?: string;
  creator?: string;
}

/** A PDF text string: ASCII in a literal string, anything else as UTF-16BE with a byte order mark. */
function pdfString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const utf16 = Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
  return `<${utf16.toString('hex').toUpperCase()}>`;
}

/** A PDF date (`D:20261123152316Z`): UTC to the second, for the Info dictionary and a PDF/A's file parameters. */
export function pdfDateText(date: Date): string {
  return `D:${date.toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`;
}

export class PdfStructureError extends Error {}

/** Returns `pdf` with an incremental update that sets the document information dictionary. */
export function withMetadata(pdf: Uint8Array, meta: PdfMetadata, producer: string, now: Date = new Date()): Uint8Array {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  // The last trailer is within the final few hundred bytes.
  const tail = buf.subarray(Math.max(0, buf.length - 2048)).toString('latin1');
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  const trailerAt = tail.lastIndexOf('trailer');
  if (!startxref || trailerAt < 0) throw new PdfStructureError('no classic trailer at the end of the PDF');
  const trailer = tail.slice(trailerAt);
  const size = /\/Size\s+(\d+)/.exec(trailer);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(trailer);
  if (!size || !root) throw new PdfStructureError('the PDF trailer has no /Size or /Root');

  const id = Number(size[1]);
  const entries: string[] = [];
  if (meta.title) entries.push(`/Title ${pdfString(meta.title)}`);
  if (meta.author) entries.push(`/Author ${pdfString(meta.author)}`);
  if (meta.creator) entries.push(`/Creator ${pdfString(meta.creator)}`);
  const date = `(${pdfDateText(now)})`;
  entries.push(`/Producer ${pdfString(producer)}`, `/CreationDate ${date}`, `/ModDate ${date}`);

  const lead = buf[buf.length - 1] === 0x0a ? '' : '\n';
  const objOffset = buf.length + lead.length;
  const obj = `${id} 0 obj\n<<${entries.join('\n')}>>\nendobj\n`;
  const xrefOffset = objOffset + Buffer.byteLength(obj, 'latin1');
  const update =
    `${lead}${obj}xref\n0 1\n0000000000 65535 f \n${id} 1\n${String(objOffset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<</Size ${id + 1}\n/Root ${root[1]}\n/Info ${id} 0 R\n/Prev ${startxref[1]}>>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([buf, Buffer.from(update, 'latin1')]);
}
