// Bounds on what @cantoo/pdf-lib may spend on one untrusted PDF, for the received-PDF reader's worker thread only
// (facturx-pdf-worker.ts): pdf-lib parses every object of a file eagerly and inflates object streams and
// cross-reference streams as it meets them, with no limit of its own. Two of its methods are wrapped, once, when this
// module is loaded:
// - the decoders' common buffer growth (pdf.js's DecodeStream.ensureBuffer, reached through the prototype of the
//   decoder pdf-lib's decodePDFRawStream makes): no stream decodes past the current cap, so a FlateDecode bomb stops
//   at the cap instead of allocating gigabytes;
// - PDFContext.assign, through which the parser stores every object it reads (object streams' included): a file
//   stops being parsed at the object budget.
// Either bound, once reached, stays reached until the next job, so that pdf-lib's own recovery (it skips an object it
// cannot parse and goes on) cannot spend the bound again. The parse is synchronous from start to end (no
// objectsPerTick), so one job at a time owns this state. Must not be imported on the main thread: it changes pdf-lib
// for the whole thread.
import { deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFContext, PDFName, PDFRawStream, type PDFObject, type PDFRef } from '@cantoo/pdf-lib';

/** A bound of this module was reached: the PDF is refused, never read in part. */
export class PdfBoundReached extends Error {}

let decodeCap = Infinity;
let maxObjects = Infinity;
let objectsLeft = Infinity;
/** Objects parsed since this thread started: what pdf-lib's interning pools may hold. */
let objectsEver = 0;
let reached: PdfBoundReached | undefined;

function trip(message: string): never {
  reached ??= new PdfBoundReached(message);
  throw reached;
}

function wrapDecoders(): void {
  const empty = deflateSync(new Uint8Array(0));
  const probe = decodePDFRawStream(PDFRawStream.of(PDFContext.create().obj({ Filter: 'FlateDecode' }), empty));
  const decodeStream = Object.getPrototypeOf(Object.getPrototypeOf(probe)) as { ensureBuffer?: (n: number) => Uint8Array };
  const ensureBuffer = decodeStream.ensureBuffer;
  // A pdf-lib that no longer has this method would decode without bound: every read fails instead (tests see it).
  if (typeof ensureBuffer !== 'function') throw new Error('@cantoo/pdf-lib: DecodeStream.ensureBuffer not found');
  decodeStream.ensureBuffer = function (this: unknown, requested: number) {
    if (reached) throw reached;
    if (requested > decodeCap) trip(`a stream that decodes to more than ${decodeCap} bytes`);
    return ensureBuffer.call(this, requested);
  };
}

function wrapAssign(): void {
  const assign = PDFContext.prototype.assign;
  PDFContext.prototype.assign = function (this: PDFContext, ref: PDFRef, object: PDFObject) {
    if (reached) throw reached;
    if (--objectsLeft < 0) trip(`more objects than the reader allows (more than ${maxObjects})`);
    objectsEver++;
    assign.call(this, ref, object);
  };
}

wrapDecoders();
wrapAssign();

/** Starts one job: the object budget for its parse and the cap for every stream decoded while parsing. */
export function beginJob(limits: { maxObjects: number; maxStreamBytes: number }): void {
  maxObjects = limits.maxObjects;
  objectsLeft = limits.maxObjects;
  decodeCap = limits.maxStreamBytes;
  reached = undefined;
}

/** Objects parsed by this thread so far, every job counted. */
export function objectsParsedEver(): number {
  return objectsEver;
}

/** Throws the bound the job reached, if any (pdf-lib may have swallowed it while recovering from a broken object). */
export function assertWithinBounds(): void {
  if (reached) throw reached;
}

/** The decoded bytes of `stream` (its /Filter chain), at most `cap` bytes; undefined when it decodes past `cap`, or
 * cannot be decoded at all (an unknown filter, corrupt data): `why` says which. */
export function decodeBounded(stream: PDFRawStream, cap: number): { bytes?: Uint8Array; why?: string } {
  const before = decodeCap;
  decodeCap = cap;
  try {
    if (!stream.dict.has(PDFName.of('Filter'))) {
      return stream.contents.length > cap ? { why: `it is larger than ${cap} bytes` } : { bytes: stream.contents.slice() };
    }
    return { bytes: decodePDFRawStream(stream).decode().slice() };
  } catch (err) {
    if (err instanceof PdfBoundReached) {
      reached = undefined;
      return { why: `it decodes to more than ${cap} bytes` };
    }
    return { why: `it cannot be decoded (${(err as Error).message.slice(0, 120)})` };
  } finally {
    decodeCap = before;
  }
}
