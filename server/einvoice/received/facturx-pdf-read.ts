// The received Factur-X / ZUGFeRD PDF read in the reader's worker thread (facturx-pdf-worker.ts): the file's shape
// checked on its bytes (a PDF header near the start, startxref and %%EOF at the end), the objects parsed by
// @cantoo/pdf-lib under pdf-bounds.ts's object budget and stream cap, an encrypted file refused, the invoice XML found
// among the embedded files and decoded under its own cap, then every structure check run.
// PDFA3-FILE's trailer /ID is checked here (ISO 19005-3 6.1.3), its byte-level rest in pdf-file-shape.ts. What the
// whole set of checks covers and what it cannot is said in facturx-pdf.ts.
// Throws UnreadablePdf (the caller's unsupported_document) for a file it will not read; never touches the network or
// the file system, and keeps nothing between jobs but pdf-lib's interned names and references (the worker retires).
import { PDFArray, PDFDict, PDFParser, type PDFContext } from '@cantoo/pdf-lib';
import { checkFileShape } from './pdf-file-shape';
import { fatal, warning, type Check } from './pdf-check';
import { assertWithinBounds, beginJob, decodeBounded, PdfBoundReached } from './pdf-bounds';
import { embeddedFiles, embeddedStream, INVOICE_NAMES, pickInvoice, type FileSpec, type InvoiceName } from './pdf-attachment';
import { resolve } from './pdf-objects';
import { xmpChecks, type Declared } from './facturx-xmp';
import { afChecks, checksumChecks, fileSpecChecks, outputIntentChecks, pageTreeChecks } from './pdfa-catalog';
import { objectChecks } from './pdfa-objects';

export interface ReaderLimits {
  /** Objects parsed at most (those inside object streams included). */
  maxObjects: number;
  /** The embedded invoice XML's largest size, decoded. */
  maxXmlBytes: number;
  /** The largest decoded size of every other stream the reader decodes (object and cross-reference streams). */
  maxStreamBytes: number;
}

export interface ReadInput {
  pdf: Uint8Array;
  limits: ReaderLimits;
}

export interface ReadOutput {
  xml: Uint8Array;
  attachment: InvoiceName;
  declared: Declared;
  checks: Check[];
}

/** A file the reader will not read; the message completes "The body is not an e-invoice this service reads: …". */
export class UnreadablePdf extends Error {}

async function parse(pdf: Uint8Array, limits: ReaderLimits): Promise<PDFContext> {
  beginJob(limits);
  try {
    const context = await PDFParser.forBytesWithOptions(pdf, Infinity, false, false, false).parseDocument();
    assertWithinBounds();
    return context;
  } catch (err) {
    if (err instanceof PdfBoundReached) {
      throw new UnreadablePdf(`a PDF with ${err.message}`);
    }
    throw new UnreadablePdf(`a PDF that cannot be parsed (${(err as Error).message.slice(0, 160)})`);
  }
}

function catalogOf(context: PDFContext): PDFDict {
  if (context.trailerInfo.Encrypt) {
    throw new UnreadablePdf(
      "an encrypted PDF (PDF/A-3 forbids encryption, rule PDFA3-NO-ENCRYPT; an encrypted file's attachments are not read)",
    );
  }
  const catalog = resolve(context, context.trailerInfo.Root);
  if (!(catalog instanceof PDFDict)) throw new UnreadablePdf('a PDF without a document catalog');
  return catalog;
}

function trailerIdCheck(context: PDFContext): Check[] {
  const id = resolve(context, context.trailerInfo.ID);
  if (id instanceof PDFArray && id.size() === 2) return [];
  return [{ rule: 'PDFA3-FILE', severity: 'fatal', message: 'the trailer has no /ID of two strings', location: 'trailer' }];
}

/** The Factur-X / ZUGFeRD invoice of a PDF, with the structure checks; throws UnreadablePdf. */
export async function readPdf({ pdf, limits }: ReadInput): Promise<ReadOutput> {
  const shape = checkFileShape(pdf, limits.maxObjects);
  if (shape.refusal) throw new UnreadablePdf(shape.refusal);
  const context = await parse(pdf, limits);
  const catalog = catalogOf(context);
  const files = embeddedFiles(context, catalog);
  const picked = pickInvoice(files);
  if (!picked) {
    const others = files.length ? `; it embeds ${files.length} other file${files.length === 1 ? '' : 's'}` : '';
    throw new UnreadablePdf(`a PDF without an invoice XML inside (no embedded ${INVOICE_NAMES.join(', ')}${others})`);
  }
  const stream = embeddedStream(context, picked.file.spec);
  const decoded = stream ? decodeBounded(stream, limits.maxXmlBytes) : { why: 'has no embedded file stream' };
  if (!stream || !decoded.bytes) throw new UnreadablePdf(`a PDF whose ${picked.name} cannot be read: ${decoded.why}`);
  const xmp = xmpChecks(context, catalog, picked.name, picked.file.fileName ?? picked.name);
  const checks: Check[] = [
    ...shape.checks,
    ...trailerIdCheck(context),
    ...xmp.checks,
    ...outputIntentChecks(context, catalog),
    ...afChecks(context, picked.file),
    ...fileSpecChecks(context, files, picked.file),
    ...checksumChecks(context, stream, decoded.bytes, picked.file.location),
    ...pageTreeChecks(context, catalog),
    ...objectChecks(context, catalog),
  ];
  if (!picked.exact)
    checks.push(warning('FX-ATTACHMENT-NAME', `the invoice is named ${picked.file.fileName}, not ${picked.name}`, picked.file.location));
  checks.push(...uniqueInvoiceChecks(files, picked.file));
  return { xml: decoded.bytes, attachment: picked.name, declared: xmp.declared, checks: capped(checks) };
}

/** Another embedded file named as an invoice is (in any case): which of them is the invoice is not certain, and a
 * reader that took the other one would see another invoice (one in /Names, another only in /AF was read as valid). */
function uniqueInvoiceChecks(files: FileSpec[], invoice: FileSpec): Check[] {
  const invoiceName = (f: FileSpec) => INVOICE_NAMES.some((n) => n.toLowerCase() === f.fileName?.toLowerCase());
  const namesakes = files.filter((f) => f !== invoice && invoiceName(f));
  if (namesakes.length === 0) return [];
  const where = [invoice, ...namesakes].map((f) => `${f.fileName} (${f.location ?? 'a direct object'})`).join(', ');
  return [
    fatal(
      'FX-ATTACHMENT-UNIQUE',
      `${namesakes.length + 1} embedded files are named as the invoice: ${where}; which one is the invoice is not certain`,
      invoice.location,
    ),
  ];
}

/** The findings a report lists: the first MAX_CHECKS_LISTED, and one more counting the rest by rule (a file of 60,000
 * embedded files made a report of 240,000 findings, 39.5 MB, that held the event loop for a second). */
export const MAX_CHECKS_LISTED = 100;

function capped(checks: Check[]): Check[] {
  if (checks.length <= MAX_CHECKS_LISTED) return checks;
  const rest = checks.slice(MAX_CHECKS_LISTED);
  const byRule = new Map<string, number>();
  for (const c of rest) byRule.set(c.rule, (byRule.get(c.rule) ?? 0) + 1);
  const counts = [...byRule].map(([rule, n]) => `${n} ${rule}`).join(', ');
  const message = `${rest.length} more finding${rest.length === 1 ? '' : 's'} not listed: ${counts}`;
  const more = rest.some((c) => c.severity === 'fatal') ? fatal('PDF-MORE-FINDINGS', message) : warning('PDF-MORE-FINDINGS', message);
  return [...checks.slice(0, MAX_CHECKS_LISTED), more];
}
