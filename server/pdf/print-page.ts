// Printing one document on one page: put the document in and wait until it is ready, then print. A document comes
// either as a whole page (written over whatever the page held) or as its parts for a resident page, which keeps its
// theme's frame and the fonts it has loaded between documents and swaps in only the document: about twice as fast,
// as writing a page (parsing its styles, decoding its fonts) costs more than printing it. When the page has nothing
// to wait for, the swap and the print are asked together (one round trip). Long texts go to the page in parts, and a
// long document's PDF comes back as a stream (SEND_PART_BYTES, STREAM_ABOVE_CHARS); otherwise the bytes come in the
// print's reply. A document with an element for the foot of its last page (the Swiss QR-bill) is printed twice, to
// measure and then to place it. A renderer that crashes mid-way ends the print at once (the page's `error` event)
// instead of leaving its calls unanswered until the deadline. Knows nothing of the pool or of documents.
import type { Page, Protocol } from 'puppeteer';
import type { DevToolsCalls } from './direct-calls';
import { randomUUID } from 'node:crypto';
import {
  holdPart,
  markPageBottom,
  measureLayout,
  settlePageBottom,
  swapDocument,
  writeDocument,
  type HeldText,
  type SwapInput,
} from './page-scripts';
import { PAGE_MARGIN_IN, PAPER, type PageSize } from '../documents/paper';

export interface PrintOptions {
  format: PageSize;
  /** The document has an element to set on the bottom edge of its last page (`data-page-bottom`; the Swiss QR-bill):
   * printed twice, the second time with the element moved down by what the first left below it. */
  pageBottom?: boolean;
}

/** A document as parts, for a page that keeps its frame (render/html.ts makes them; see templates/document.hbs). */
export interface PrintDocument {
  /** The page around every document of one theme, with the document's parts empty; `key` names it. */
  frame: { key: string; html: string };
  lang: string;
  title: string;
  author: string;
  /** The document's own style (font stack, page counter), replaced with each document. */
  css: string;
  /** Every font face the document uses, named by file; a page loads those it lacks and keeps them. */
  fonts: { id: string; css: string }[];
  /** The body's class (themes/base.css styles `.doc` and `.doc--<type>`) and content: a new body element replaces the
   * previous one wholesale. */
  bodyClass: string;
  body: string;
}

/** What a page holds between documents. */
export interface ResidentState {
  /** The key of the frame the page holds (undefined: none, or a whole page was written over it). */
  frame?: string;
  /** The font faces loaded in the page since its frame was written, and their bytes. */
  fonts: Set<string>;
  fontBytes: number;
}

export function newResidentState(): ResidentState {
  return { fonts: new Set(), fontBytes: 0 };
}

/**
 * Chromium carries a DevTools message of a few hundred kilobytes much more slowly than several smaller ones (measured
 * here, Chromium 156: 100 KB in 3 ms, 317 KB in 31 ms, 1 MB in 119 ms, either way). So a long text goes to the page
 * in parts of about SEND_PART_BYTES of UTF-8 (partLength), and a document whose body is over STREAM_ABOVE_CHARS (a
 * whole page: its length, frame and fonts included; a statement of about 150 lines and more) has its PDF come back as
 * a stream read in chunks rather than whole in the print's reply (a 200-line statement's 370 KB PDF in 126 ms against
 * 156 ms, the 1,000-line statement's 1.8 MB in 716 ms against 787 ms; a one-page invoice's 38 KB in 17 ms against
 * 15 ms, hence the threshold).
 */
export const SEND_PART_BYTES = 96 * 1024;
export const STREAM_ABOVE_CHARS = 48 * 1024;
/** The stream's chunk: the pipe's own size read faster than Chromium's default (about a megabyte) and than 32, 48,
 * 96, 256 and 512 KiB, over alternating runs on the 1,000-line statement (within the noise of one another at best). */
const STREAM_CHUNK_BYTES = 64 * 1024;
/**
 * A document whose body is longer than this may run past its first page: the print page measures its layout before
 * printing it (page-scripts.ts measureLayout: the totals' room, tall rows), a screen layout that costs about a tenth of
 * a one-page invoice's print. A shorter one (the reference's invoices are 2-4 KB, a one-page invoice of 30 lines about
 * 9 KB) is printed at once, and measured and printed again only if it did run past a page.
 */
export const MEASURE_ABOVE_CHARS = 6 * 1024;

export async function printPage(
  page: Page,
  session: DevToolsCalls,
  content: string | PrintDocument,
  state: ResidentState,
  options: PrintOptions,
): Promise<Uint8Array> {
  // A renderer that crashes (killed, out of memory) leaves its DevTools calls unanswered: the page's `error` event
  // ends the print at once (the pool retries it once on a fresh page).
  let onCrash: ((err: Error) => void) | undefined;
  const crashed = new Promise<never>((_, reject) => {
    onCrash = (err: Error) => reject(err);
    // on, not once: puppeteer's once() registers a wrapper that off(onCrash) cannot find, and every print's listener
    // stayed on the page with its print's promises and the PDF's base64 reply (about 45 KB a print, kept until the
    // page was replaced: promoted to the old generation at 3.6-4 MB a scavenge, 0 now).
    page.on('error', onCrash);
  });
  crashed.catch(() => undefined);
  const guard: Guard = (call) => Promise.race([call, crashed]);
  // A whole page counts its frame and fonts too (only the benchmark and tools write whole pages).
  const printing = printingOf(options, typeof content === 'string' ? content.length : content.body.length);
  try {
    if (typeof content === 'string') {
      await guard(writeWhole(session, content, state));
      return await print(session, printing, guard);
    }
    const swap = await guard(prepareSwap(session, content, state));
    const measureFirst = options.pageBottom === true || content.body.length > MEASURE_ABOVE_CHARS;
    let pdf: Uint8Array;
    if (!options.pageBottom && readyAtOnce(swap, content)) pdf = await swapAndPrint(session, swap, printing, guard, measureFirst);
    else {
      await guard(evaluateIn(session, swapDocument, swap));
      if (measureFirst) await guard(evaluateIn(session, measureLayout, undefined));
      pdf = await (options.pageBottom ? printOnPageBottom(session, printing, guard) : print(session, printing, guard));
    }
    if (measureFirst || !morePagesThanOne(pdf)) return pdf;
    // A short document that ran past a page all the same (a long word, large text): measured, and printed again.
    await guard(evaluateIn(session, measureLayout, undefined));
    return await print(session, printing, guard);
  } finally {
    // One listener per print, removed after it: a page prints a hundred documents before it is replaced.
    page.off('error', onCrash!);
  }
}

/**
 * Prints a page whose `[data-page-bottom]` element goes on the bottom edge of the page it falls on: a first print
 * with a marker at the element's foot tells how much room is left below it, a second with that much padding above
 * it sets it there (kept whole on one page, the element stays on the page it was printed on).
 */
async function printOnPageBottom(session: DevToolsCalls, options: Printing, guard: Guard): Promise<Uint8Array> {
  await guard(evaluateIn(session, markPageBottom, MARKER_URL));
  const first = await print(session, options, guard);
  // A point less than the room measured: the link's rectangle is snapped to whole CSS pixels (0.75 pt), and an
  // element a fraction over its page's foot would start a page of its own.
  await guard(evaluateIn(session, settlePageBottom, Math.max(0, (pointsBelowMarker(first) ?? 0) - 1)));
  const second = await print(session, options, guard);
  if (pageCount(second) === pageCount(first)) return second;
  // Never seen (a sweep of 1 to 44 lines is tested): the element where it was rather than a page more.
  await guard(evaluateIn(session, settlePageBottom, 0));
  return print(session, options, guard);
}

/** The marker's link: no document's own link can be it. */
const MARKER_URL = `https://page-bottom.invalid/${randomUUID()}`;
const MARKER = Buffer.from(`/URI (${MARKER_URL})`, 'latin1');

/**
 * How far above the paper's bottom edge the marker's link ends, in points: its annotation's /Rect (Chromium writes
 * each annotation as one plain dictionary, its /Rect before its action; the lowest edge when it writes several).
 */
function pointsBelowMarker(pdf: Uint8Array): number | undefined {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let lowest: number | undefined;
  for (let at = bytes.indexOf(MARKER); at >= 0; at = bytes.indexOf(MARKER, at + MARKER.length)) {
    const dict = bytes.subarray(Math.max(0, bytes.lastIndexOf('<<', bytes.lastIndexOf('/Annot', at)) - 2), at).toString('latin1');
    const rect = /\/Rect\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]/.exec(dict);
    if (!rect) continue;
    const bottom = Math.min(Number(rect[2]), Number(rect[4]));
    if (Number.isFinite(bottom)) lowest = lowest === undefined ? bottom : Math.min(lowest, bottom);
  }
  return lowest;
}

/**
 * Whether Chromium's `pdf` has more than one page, read from the first page-tree node in it: Skia builds the tree
 * bottom up and never makes a node of one child, so only a one-page document has a node of /Count 1. The node is
 * near the start (after the page objects), where counting every page object would read the whole file.
 */
function morePagesThanOne(pdf: Uint8Array): boolean {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const at = bytes.indexOf(PAGES_COUNT);
  if (at === -1) return pageCount(pdf) > 1;
  const digit = bytes[at + PAGES_COUNT.length];
  const next = bytes[at + PAGES_COUNT.length + 1];
  return digit !== 0x31 || (next !== undefined && next >= 0x30 && next <= 0x39);
}
const PAGES_COUNT = Buffer.from('/Type /Pages\n/Count ', 'latin1');

/** The pages of one of Chromium's PDFs (each a plain `/Type /Page` dictionary). */
function pageCount(pdf: Uint8Array): number {
  return (
    Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
      .toString('latin1')
      .match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0
  );
}

/** Each page function's source text, made once. */
const SOURCES = new Map<(arg: never) => Promise<void>, string>();

/**
 * Runs one of page-scripts.ts's functions in the page, in one DevTools call on the page's own session. Puppeteer's
 * page.evaluate() does the same with more bookkeeping around it (execution contexts, source URLs): a measurable part
 * of the service's own CPU per document.
 */
async function evaluateIn<T>(session: DevToolsCalls, fn: (arg: T) => Promise<void>, arg: T): Promise<void> {
  let source = SOURCES.get(fn);
  if (source === undefined) SOURCES.set(fn, (source = `(${fn.toString()})`));
  const { exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: `${source}(${JSON.stringify(arg)})`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`in the print page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
}

async function writeWhole(session: DevToolsCalls, html: string, state: ResidentState): Promise<void> {
  Object.assign(state, newResidentState());
  await evaluateIn(session, writeDocument, html);
}

/**
 * What swapDocument is to be given for `doc`, with what it needs first: the theme's frame written when the page holds
 * another, and long texts sent in parts. The page's state is updated before the swap: a swap that fails leaves a page
 * that is never used again.
 */
async function prepareSwap(session: DevToolsCalls, doc: PrintDocument, state: ResidentState): Promise<SwapInput> {
  // Another theme's frame (or none yet): written first, one more round trip only on a change of theme.
  if (state.frame !== doc.frame.key) {
    Object.assign(state, newResidentState(), { frame: doc.frame.key });
    await evaluateIn(session, writeDocument, doc.frame.html);
  }
  const missing = doc.fonts.filter((face) => !state.fonts.has(face.id));
  for (const face of missing) {
    state.fonts.add(face.id);
    state.fontBytes += face.css.length;
  }
  const { lang, title, author, css, bodyClass } = doc;
  const fontCss = await sendLong(session, 'fontCss', missing.map((face) => face.css).join('\n'));
  const body = await sendLong(session, 'body', doc.body);
  return { fontCss, lang, title, author, css, bodyClass, body };
}

/** The swap waits for nothing in the page: no font face to load (the page has them all) and no image to decode
 * (page-scripts.ts swapDocument), so the page is ready to print as soon as the swap has run. */
function readyAtOnce(swap: SwapInput, doc: PrintDocument): boolean {
  return swap.fontCss === '' && !doc.body.includes('<img');
}

/**
 * The swap and the print asked together, the print without waiting for the swap's answer: a round trip less (about
 * 6 % more one-page invoices a second, two pages printing, measured alternately). Chromium runs the two on the page's
 * renderer in the order they were sent (4,745 prints of two alternating documents, none out of order); that is also
 * checked: the page's title for this print is a nonce (the PDF's real title is written by archive.ts), which Chromium
 * writes into the PDF it prints, so a print that ran before the swap would be known, and printed again after it.
 */
async function swapAndPrint(
  session: DevToolsCalls,
  swap: SwapInput,
  options: Printing,
  guard: Guard,
  measure: boolean,
): Promise<Uint8Array> {
  const nonce = randomUUID();
  const swapped = guard(evaluateIn(session, swapDocument, { ...swap, title: nonce }));
  // The measurement between them, in the same order: nothing in the swap waits, so each runs whole before the next.
  const measured = measure ? guard(evaluateIn(session, measureLayout, undefined)) : undefined;
  const printed = print(session, options, guard);
  const [swapDone, measureDone, pdf] = await Promise.allSettled([swapped, measured, printed]);
  if (swapDone.status === 'rejected') throw swapDone.reason;
  if (measureDone.status === 'rejected') throw measureDone.reason;
  if (pdf.status === 'rejected') throw pdf.reason;
  return printedAfter(pdf.value, nonce) ? pdf.value : print(session, options, guard);
}

/** Whether Chromium printed `pdf` from a page titled `nonce` (a UUID: Chromium writes it as a literal string). */
export function printedAfter(pdf: Uint8Array, nonce: string): boolean {
  return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).includes(`(${nonce})`, 0, 'latin1');
}

/** `text` itself when it is short; else sent to the page in parts (partLength), and null for swapDocument to take
 * them there. */
async function sendLong(session: DevToolsCalls, name: HeldText, text: string): Promise<string | null> {
  const part = partLength(text);
  if (text.length <= part) return text;
  for (let at = 0; at < text.length; at += part)
    await evaluateIn(session, holdPart, { text: name, part: text.slice(at, at + part), first: at === 0 });
  return null;
}

/** The characters of `text` in one part: SEND_PART_BYTES of its UTF-8 on average (Chinese takes three bytes a
 * character, HTML and base64 one). */
export function partLength(text: string): number {
  return Math.max(1, Math.floor((SEND_PART_BYTES * text.length) / Math.max(1, Buffer.byteLength(text, 'utf8'))));
}

/** How a document of `chars` characters is printed. */
const printingOf = (options: PrintOptions, chars: number): Printing => ({ ...options, streamed: chars > STREAM_ABOVE_CHARS });

/** The swap alone, as printPage does it when the print waits for it (the benchmark's profile times the two apart). */
export async function swapAlone(session: DevToolsCalls, doc: PrintDocument, state: ResidentState): Promise<void> {
  await evaluateIn(session, swapDocument, await prepareSwap(session, doc, state));
}

/** The print alone, as printPage asks it for `doc` (the benchmark's profile times it apart from the swap). */
export function printAlone(session: DevToolsCalls, doc: PrintDocument, options: PrintOptions): Promise<Uint8Array> {
  return print(session, printingOf(options, doc.body.length), (call) => call);
}

/** A DevTools call raced against the renderer's crash. */
type Guard = <T>(call: Promise<T>) => Promise<T>;

/** How one document is printed: its options, and whether its PDF comes back as a stream (STREAM_ABOVE_CHARS). */
interface Printing extends PrintOptions {
  streamed: boolean;
}

// The print, one DevTools call with the bytes in the reply (puppeteer's setContent() + pdf() take about seven:
// lifecycle events, a fonts check, a stream read in chunks, its close, each waiting its turn on the event loop behind
// other requests' work). A long document's PDF is read from a stream instead, a round trip per chunk costing less
// than the one reply.
async function print(session: DevToolsCalls, options: Printing, guard: Guard): Promise<Uint8Array> {
  if (!options.streamed) {
    const { data } = await guard(session.send('Page.printToPDF', printParameters(options.format)));
    return Buffer.from(data, 'base64');
  }
  const { stream } = await guard(session.send('Page.printToPDF', { ...printParameters(options.format), transferMode: 'ReturnAsStream' }));
  if (!stream) throw new Error('the print returned no stream');
  const chunks: Buffer[] = [];
  for (let eof = false; !eof;) {
    const chunk = await guard(session.send('IO.read', { handle: stream, size: STREAM_CHUNK_BYTES }));
    chunks.push(Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8'));
    eof = chunk.eof;
  }
  // Not waited for: the stream is read, and a page whose close failed is still fit to print.
  session.send('IO.close', { handle: stream }).catch(() => undefined);
  return new Uint8Array(Buffer.concat(chunks));
}

/** What every print asks of Chromium (the benchmark's print-only limits ask the same paper, margins and tagging). */
export function printParameters(format: PrintOptions['format']): Protocol.Page.PrintToPDFRequest {
  const paper = PAPER[format];
  const margin = PAGE_MARGIN_IN;
  return {
    transferMode: 'ReturnAsBase64',
    paperWidth: paper.width,
    paperHeight: paper.height,
    marginTop: margin.top,
    marginRight: margin.right,
    marginBottom: margin.bottom,
    marginLeft: margin.left,
    printBackground: true,
    // Page numbers come from the page's own @page margin boxes, which use its inline fonts; Chromium's
    // header/footer templates cannot (they fall back to system fonts) and cost time.
    displayHeaderFooter: false,
    generateTaggedPDF: true,
  };
}
