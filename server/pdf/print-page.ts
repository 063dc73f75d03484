// Printing one document on one page: two DevTools round trips, write-and-wait, then print with the bytes in the reply.
// A renderer that crashes mid-way ends the print at once (the page's `error` event) instead of leaving its calls
// unanswered until the deadline. Knows nothing of the pool or of documents.
import type { CDPSession, Page } from 'puppeteer';

export interface PrintOptions {
  format: 'letter' | 'a4';
  /** Page margins in inches, when the HTML's @page rule sets none. */
  margin?: { top: number; right: number; bottom: number; left: number };
}

const DEFAULT_MARGIN = { top: 0.55, right: 0.6, bottom: 0.75, left: 0.6 };
/** Paper sizes in inches (puppeteer's own table). */
const PAPER = { letter: { width: 8.5, height: 11 }, a4: { width: 8.27, height: 11.7 } } as const;

/** What writeDocument uses of the page's globals (the server is compiled without the DOM's types). */
interface PageGlobals {
  document: { open(): void; write(html: string): void; close(): void; readyState: string; fonts: { ready: Promise<unknown> } };
  addEventListener(type: 'load', listener: () => void, options: { once: boolean }): void;
}

/**
 * Runs in the page (through DevTools, which works with the page's JavaScript off): replaces the document, then waits
 * for its load event and its fonts, all in one round trip.
 */
async function writeDocument(html: string): Promise<void> {
  const page = globalThis as unknown as PageGlobals;
  page.document.open();
  page.document.write(html);
  page.document.close();
  if (page.document.readyState !== 'complete') await new Promise<void>((resolve) => page.addEventListener('load', resolve, { once: true }));
  await page.document.fonts.ready;
}

export async function printPage(page: Page, session: CDPSession, html: string, options: PrintOptions): Promise<Uint8Array> {
  // A renderer that crashes (killed, out of memory) leaves its DevTools calls unanswered: the page's `error` event
  // ends the print at once (the pool retries it once on a fresh page).
  let onCrash: ((err: Error) => void) | undefined;
  const crashed = new Promise<never>((_, reject) => {
    onCrash = (err: Error) => reject(err);
    page.once('error', onCrash);
  });
  crashed.catch(() => undefined);
  const guard = <T>(call: Promise<T>): Promise<T> => Promise.race([call, crashed]);
  try {
    return await printWithGuard(page, session, html, options, guard);
  } finally {
    // One listener per print, removed after it: a page prints a hundred documents before it is replaced.
    page.off('error', onCrash!);
  }
}

async function printWithGuard(page: Page, session: CDPSession, html: string, options: PrintOptions, guard: <T>(call: Promise<T>) => Promise<T>): Promise<Uint8Array> {
  // Two DevTools round trips per render: write-and-wait, then print returning the bytes in the reply. Puppeteer's
  // setContent() + pdf() take about seven (lifecycle events, a fonts check, a stream read in chunks, its close),
  // each of which waits its turn on the event loop behind other requests' work.
  await guard(page.evaluate(writeDocument, html));
  const paper = PAPER[options.format];
  const margin = options.margin ?? DEFAULT_MARGIN;
  const { data } = await guard(
    session.send('Page.printToPDF', {
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
    }),
  );
  return new Uint8Array(Buffer.from(data, 'base64'));
}
