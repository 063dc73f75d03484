// Makes Chromium's tagged PDF a PDF/A-3a and PDF/UA-1 file, as one incremental update appended after Chromium's
// bytes (which stay as they were): the document information dictionary; the XMP packet that identifies both
// standards and repeats the Info values and the language (xmp.ts); the sRGB OutputIntent that Chromium's DeviceRGB
// colours are to be read with; the catalog with /Metadata and /OutputIntents; every page's content with what
// Chromium leaves untagged marked as artifacts (content-marks.ts), the repeated table headers among it
// (repeated-headers.ts); and a trailer /ID. The ICC profile is compressed once; the XMP is a template filled in.
// archivePdf writes the update; archiveInto leaves it open for a signature to join (finish.ts).
// Knows no document type and no HTTP; pdfa3.ts builds on its output for Factur-X.
import { randomUUID } from 'node:crypto';
import { getDefaultSRGBProfile, PDFHexString, PDFName, PDFRawStream, PDFRef, PDFString, type PDFObject } from '@cantoo/pdf-lib';
import { markArtifacts } from './content-marks';
import { deflate, inflate } from './flate';
import { pdfDateText, pdfString, type PdfMetadata } from './metadata';
import { pageList, PdfFile, PdfUpdate, serialize, type UpdateBody } from './pdf-file';
import { repeatedHeaders } from './repeated-headers';
import { buildXmp, xmlSafeText } from './xmp';

/** The output condition of the OutputIntent: the ICC's own name for the profile it embeds. */
export const SRGB_CONDITION = 'sRGB IEC61966-2.1';

/** The sRGB profile as a compressed stream's dictionary and data, made once. */
let iccStream: { dict: string; data: Buffer } | undefined;
function srgbProfile(): { dict: string; data: Buffer } {
  if (!iccStream) {
    const data = deflate(getDefaultSRGBProfile(), 9);
    iccStream = { dict: `<</N 3\n/Filter /FlateDecode\n/Length ${data.length}>>`, data };
  }
  return iccStream;
}

/** A text value of the catalog (/Lang), whatever its encoding. */
function textOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
}

/** The decoded bytes of a content stream, or undefined for a filter other than Flate (left as it is). */
function decoded(stream: PDFRawStream): Buffer | undefined {
  const filter = stream.dict.get(PDFName.of('Filter'));
  if (filter === undefined) return Buffer.from(stream.contents);
  if (filter instanceof PDFName && filter.decodeText() === 'FlateDecode' && !stream.dict.has(PDFName.of('DecodeParms'))) {
    // One 32 KiB output chunk holds most pages' content whole: two to three times faster than the 16 KiB default,
    // which makes a second chunk and a copy for a typical page (measured on Chromium's pages, 17-27 KB inflated).
    return inflate(stream.contents, 32 * 1024);
  }
  return undefined;
}

/** The pages' content streams rewritten with artifacts marked, into `out` (object number → new stream). */
function markPages(file: PdfFile, out: Map<number, UpdateBody>): void {
  const pages = pageList(file);
  const repeats = repeatedHeaders(file, pages);
  for (const [num, body] of repeats.objects) out.set(num, body);
  pages.forEach((page, index) => {
    const contents = page.dict.get(PDFName.of('Contents'));
    const refs = contents instanceof PDFRef ? [contents] : (file.array(contents)?.asArray() ?? []);
    for (const ref of refs) {
      if (!(ref instanceof PDFRef)) continue;
      const stream = file.object(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const bytes = decoded(stream);
      const marked = bytes && markArtifacts(bytes, repeats.byPage.get(index));
      if (!marked) continue;
      // Level 1: a content stream compresses nearly as well, at a third of the time of the default.
      const data = deflate(marked, 1);
      const dict = stream.dict.clone();
      dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
      dict.set(PDFName.of('Length'), file.context.obj(data.length));
      out.set(ref.objectNumber, { dict: serialize(dict), data });
    }
  });
}

/** `pdf` (Chromium's) as a PDF/A-3a and PDF/UA-1 file, by one incremental update. */
export function archivePdf(pdf: Uint8Array, meta: PdfMetadata, producer: string, now: Date = new Date()): Buffer {
  const update = new PdfUpdate(new PdfFile(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)));
  archiveInto(update, meta, producer, now);
  return update.write();
}

/** Adds to `update` what makes its file PDF/A-3a and PDF/UA-1 (a signature may be added to the same update after). */
export function archiveInto(update: PdfUpdate, meta: PdfMetadata, producer: string, now: Date): void {
  const { file, objects, catalog } = update;
  const language = textOf(file.resolve(catalog.get(PDFName.of('Lang'))));
  // PDF dates have no unit below the second: the same instant goes into the Info and the XMP.
  const date = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const text = (value?: string) => (value ? xmlSafeText(value) : undefined);
  const info = {
    title: text(meta.title) ?? '',
    author: text(meta.author),
    creator: text(meta.creator) ?? '',
    producer: xmlSafeText(producer),
  };

  markPages(file, objects);
  const [infoNum, xmpNum, iccNum] = [update.reserve(), update.reserve(), update.reserve()];

  const entries = [`/Title ${pdfString(info.title)}`];
  if (info.author) entries.push(`/Author ${pdfString(info.author)}`);
  if (info.creator) entries.push(`/Creator ${pdfString(info.creator)}`);
  const stamp = `(${pdfDateText(date)})`;
  entries.push(`/Producer ${pdfString(info.producer)}`, `/CreationDate ${stamp}`, `/ModDate ${stamp}`);
  objects.set(infoNum, `<<${entries.join('\n')}>>`);

  const xmp = Buffer.from(buildXmp({ ...info, date, language, conformance: 'A', pdfua: true }), 'utf8');
  // Uncompressed, so that any reader (and PDF/A's rule for the metadata stream) can read the packet as it is.
  objects.set(xmpNum, { dict: `<</Type /Metadata\n/Subtype /XML\n/Length ${xmp.length}>>`, data: xmp });
  objects.set(iccNum, srgbProfile());

  catalog.set(PDFName.of('Metadata'), PDFRef.of(xmpNum));
  catalog.set(PDFName.of('Version'), PDFName.of('1.7'));
  catalog.set(PDFName.of('OutputIntents'), file.context.obj([outputIntent(file, iccNum)]));

  // The file identifier PDF/A requires, both halves the same at creation: a random UUID's 16 bytes (122 random bits),
  // which Node hands out from a buffer it fills in batches. ISO 32000-1 14.4 suggests hashing the instant, the size and
  // the Info values; what it asks is an identifier no other file has, which the random bits give alone. Measured under
  // load: randomBytes(8) asked OpenSSL every time (0.02 ms of a document's CPU), and so did an MD5 of those values
  // (0.02 ms: OpenSSL's digest set-up, its caches cold after Chromium's turn on the core).
  update.id = Buffer.from(randomUUID().replaceAll('-', ''), 'hex');
  update.info = infoNum;
}

/** The sRGB OutputIntent, its profile object `icc`. */
const outputIntent = (file: PdfFile, icc: number) =>
  file.context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of(SRGB_CONDITION),
    Info: PDFString.of(SRGB_CONDITION),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: PDFRef.of(icc),
  });
