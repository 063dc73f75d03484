// Reading a received Factur-X / ZUGFeRD PDF: the invoice XML embedded in it (factur-x.xml, xrechnung.xml,
// zugferd-invoice.xml or ZUGFeRD-invoice.xml, found through /Names /EmbeddedFiles and /AF) and the PDF/A-3 and
// Factur-X structure checks this service can make without a PDF/A validator. The work runs in a worker thread of its
// own (facturx-pdf-worker.ts), never on the main event loop, under limits: the objects parsed, every decoded stream's
// size (a FlateDecode bomb stops at the cap), the worker's heap, and a deadline past which the worker is terminated
// and replaced. A pool of one worker (workers/pool.ts) runs one read at a time, at most READER_QUEUE_LIMIT others waiting
// in its queue (more are refused: renderer_busy), so that a worker terminated for one file never takes another file
// down with it; each deadline counts from when the read starts on a loaded worker (a worker's start-up is not the
// file's fault), and a read's whole time, its wait included, is at most twice that (then renderer_busy). Raises only the domain's unsupported_document for a PDF it will not read; no HTTP, no network, no
// file access (the worker reads the bytes it is sent).
//
// Checks (rule ids stable; `checks` lists the failures, empty when all pass):
//   PDFA3-FILE              header %PDF-1.0…1.7 at byte 0, binary comment, nothing after %%EOF, trailer /ID (6.1.2, 6.1.3)
//   PDFA3-NO-ENCRYPT        an encrypted PDF is refused (unsupported_document), never read (6.1.3)
//   PDFA3-XMP               a /Metadata stream, /Type /Metadata /Subtype /XML, unfiltered, well-formed XMP (6.6.2.1)
//   PDFA3-XMP-PDFAID        pdfaid:part 3, pdfaid:conformance A, B or U (6.6.4)
//   PDFA3-OUTPUTINTENT      a GTS_PDFA1 OutputIntent with an ICC profile (header, colour space = /N), one profile (6.2.3)
//   PDFA3-AF                the invoice in the catalog's /AF with a PDF/A-3 /AFRelationship (6.8)
//   PDFA3-FILESPEC          every embedded file: /F, /UF, /AFRelationship, in /AF, a MIME /Subtype (6.8)
//   PDFA3-FONTS-EMBEDDED    every font but Type 3 has a FontFile, FontFile2 or FontFile3 (6.2.11.4.1)
//   PDFA3-ACTIONS           no forbidden action, named action, /AA or JavaScript name tree (6.6.1, 6.6.2)
//   PDFA3-STREAMS           no external stream data, no LZWDecode (6.1.7)
//   PDF-PAGE-TREE           the page tree has pages and no node twice
//   PDF-EMBEDDED-CHECKSUM   the invoice's /Params /CheckSum (MD5) and /Size match its bytes
//   FX-XMP                  fx:DocumentFileName = the attachment, DocumentType INVOICE, Version, a ConformanceLevel of
//                           the specification, in the namespace the file name calls for, declared by an extension schema
//   FX-AF-RELATIONSHIP      the invoice's relationship is Data, Source or Alternative (warning)
//   FX-ATTACHMENT-NAME      the invoice's name differs from the specification's only in case (warning)
//   FX-LEVEL                fx:ConformanceLevel against the XML's guideline id: checkConformanceLevel (facturx-level.ts)
//   FX-ATTACHMENT-UNIQUE    no other embedded file is named as the invoice (in any case)
//   PDF-MORE-FINDINGS       the findings past the first 100, counted by rule (fatal when one of them is)
// Not covered (a PDF/A validator such as veraPDF is needed): the content streams (colour spaces against the
// OutputIntent, transparency, images, operators), whether embedded font programs hold every glyph used and their
// widths agree, CIDSet / CharSet, annotations and their appearance streams, optional content, the Info dictionary's
// equivalence with the XMP, custom XMP properties other than fx:, the cross-reference table's offsets, the tagged
// structure of levels A and U, and whether the embedded XML is a valid invoice (the caller validates it).
import path from 'node:path';
import { errors } from '../../errors';
import { WorkerDeadlineError, WorkerPool, WorkerPoolError } from '../../workers/pool';
import type { ReadInput, ReaderLimits, ReadOutput } from './facturx-pdf-read';

export type { Check } from './pdf-check';
export type { Declared } from './facturx-xmp';
export type { InvoiceName } from './pdf-attachment';
export { checkConformanceLevel } from './facturx-level';

export interface FacturXPdfLimits extends ReaderLimits {
  /** The time one read may take once a loaded worker runs it (its wait in the queue and a new worker's start-up are not
   * counted); past it the worker is terminated and replaced. */
  deadlineMs: number;
}

export const DEFAULT_FACTURX_PDF_LIMITS: FacturXPdfLimits = {
  maxObjects: 50_000,
  maxXmlBytes: 10 * 1024 * 1024,
  maxStreamBytes: 16 * 1024 * 1024,
  deadlineMs: 3000,
};

/** The worker's heap: a file within the limits above needs well under half of it. */
const WORKER_HEAP_MB = 256;

export type FacturXPdf = ReadOutput;

/** Reads that may wait for the reader beyond the one it runs; more are refused at once (renderer_busy). */
export const READER_QUEUE_LIMIT = 4;
/** A read's whole time, its wait for the reader included, as a multiple of its own deadline: past it the read is given
 * up (renderer_busy) wherever it is. Six PDFs that each took the reader's whole deadline made a valid Factur-X behind
 * them wait 19.5-27.5 s. */
const WHOLE_READ_DEADLINES = 2;

const pool = new WorkerPool<ReadInput, ReadOutput>({
  file: path.join(__dirname, 'facturx-pdf-worker'),
  size: 1,
  queueLimit: READER_QUEUE_LIMIT,
  lazy: true,
  announcesReady: true,
  resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  expectedError: (message) => errors.unsupportedDocument(message),
});

/**
 * The invoice XML of a received Factur-X / ZUGFeRD PDF (as embedded, byte for byte), its name, what the XMP declares,
 * and the structure checks that fail. Throws unsupported_document for bytes that are not a PDF, a truncated, broken
 * or encrypted PDF, one without an invoice XML, and one beyond the limits (objects, decoded sizes, memory, time).
 */
export async function readFacturXPdf(pdf: Uint8Array, limits: Partial<FacturXPdfLimits> = {}, signal?: AbortSignal): Promise<FacturXPdf> {
  const { deadlineMs, ...reader } = { ...DEFAULT_FACTURX_PDF_LIMITS, ...limits };
  const whole = AbortSignal.timeout(WHOLE_READ_DEADLINES * deadlineMs);
  try {
    return await pool.run({ pdf, limits: reader }, { timeoutMs: deadlineMs, signal: signal ? AbortSignal.any([signal, whole]) : whole });
  } catch (err) {
    // No place in the queue, or no turn within the whole deadline: the reader is busy, not the file at fault.
    const busy = (whole.aborted && !signal?.aborted) || (err instanceof WorkerPoolError && err.reason === 'busy');
    if (busy) throw errors.rendererBusy(Math.ceil(deadlineMs / 1000));
    if (err instanceof WorkerDeadlineError) throw errors.unsupportedDocument(`a PDF that takes longer than ${deadlineMs} ms to read`);
    if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw errors.unsupportedDocument('a PDF that needs more memory to read than the reader allows');
    }
    throw err;
  }
}
