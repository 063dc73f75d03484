// The functions that run inside a print page (through DevTools, which works with the page's JavaScript off):
// writing a whole page; keeping the parts of a long text sent in pieces; swapping one document into a page that
// already holds its frame (each returns once the page is ready to print: loaded, images decoded, fonts loaded); and,
// for a document with an element to set on the bottom edge of its last page, marking that element's foot and then
// moving it down. Each is one round trip. They are serialized into the page, so they use nothing from this module's
// scope; the server is compiled without the DOM's types, hence the small interfaces below.

/** One document's parts, as swapDocument takes them. */
export interface SwapInput {
  /** @font-face rules for the faces this page has not loaded yet ('' when it has them all), or null for the parts
   * holdPart has put in the page. */
  fontCss: string | null;
  lang: string;
  /** The page's title: the document's, or a nonce when the print is asked with the swap (print-page.ts swapAndPrint). */
  title: string;
  author: string;
  css: string;
  bodyClass: string;
  /** The body's HTML, or null for the parts holdPart has put in the page. */
  body: string | null;
}

/** The long texts the page keeps, in parts, between holdPart and swapDocument. */
export type HeldText = 'fontCss' | 'body';
interface HeldTexts {
  docgenHeld?: Partial<Record<HeldText, string>>;
}

interface PageFontFace {
  load(): Promise<unknown>;
}
interface PageElement {
  textContent: string | null;
  innerHTML: string;
  className: string;
  appendChild(node: PageElement): void;
  replaceChild(node: PageElement, old: PageElement): void;
  setAttribute(name: string, value: string): void;
  decode?(): Promise<void>;
  remove(): void;
  style: { paddingTop: string; setProperty(name: string, value: string): void };
  classList: { add(name: string): void };
  getBoundingClientRect(): { bottom: number; height: number };
}
interface PageDocument {
  open(): void;
  write(html: string): void;
  close(): void;
  readyState: string;
  title: string;
  fonts: Iterable<PageFontFace> & { ready: Promise<unknown> };
  head: PageElement;
  body: PageElement;
  documentElement: PageElement & { lang: string };
  images: Iterable<PageElement>;
  createElement(tag: string): PageElement;
  getElementById(id: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
// The page's own globals, as these functions see them when they run there (they are sent as source text): declared
// for this module only, so that the server's program knows nothing of a DOM.
declare const document: PageDocument;
/** The page's global object, where long texts wait in parts for swapDocument. */
declare const window: HeldTexts;
declare function addEventListener(type: 'load', listener: () => void, options: { once: boolean }): void;
declare function getComputedStyle(element: PageElement): { lineHeight: string };

/** Replaces the page's whole document, then waits for its load event and its fonts. */
export async function writeDocument(html: string): Promise<void> {
  document.open();
  document.write(html);
  document.close();
  if (document.readyState !== 'complete') await new Promise<void>((resolve) => addEventListener('load', resolve, { once: true }));
  await document.fonts.ready;
}

/**
 * Keeps one part of one of a document's long texts in the page (the first part starts it afresh) until swapDocument
 * takes it: Chromium carries several messages of a hundred kilobytes faster than one of several hundred (print-page.ts).
 */
export async function holdPart(input: { text: HeldText; part: string; first: boolean }): Promise<void> {
  const held = (window.docgenHeld ??= {});
  held[input.text] = input.first ? input.part : (held[input.text] ?? '') + input.part;
}

/**
 * Puts one document into a page that holds its theme's frame (written first by writeDocument when it did not): the fonts it lacks are added (and kept: they are public
 * files, not document data), the language, title, author and the document's style are set, and the body is replaced
 * wholesale by a new body element, so nothing of the previous document stays. Returns when its images are decoded and every font it uses has loaded.
 */
export async function swapDocument(input: SwapInput): Promise<void> {
  const doc = document;
  const held = window.docgenHeld ?? {};
  window.docgenHeld = undefined;
  // Parts announced (null) but never held would print a document without its body or faces: refused instead.
  const fontCss = input.fontCss ?? held.fontCss;
  const html = input.body ?? held.body;
  if (fontCss === undefined || html === undefined) throw new Error('the parts of a long text never arrived');
  let added: PageFontFace[] = [];
  if (fontCss !== '') {
    const known = new Set(doc.fonts);
    const style = doc.createElement('style');
    style.className = 'fonts';
    style.textContent = fontCss;
    doc.head.appendChild(style);
    // The faces just added are loaded now, rather than when layout first meets their characters.
    added = [...doc.fonts].filter((face) => !known.has(face));
  }
  doc.documentElement.lang = input.lang;
  doc.querySelector('meta[name="author"]')?.setAttribute('content', input.author);
  const style = doc.getElementById('document');
  if (style) style.textContent = input.css;
  // A new body element, filled by the parser (DOMParser's document of its own cost a tenth of the render).
  const body = doc.createElement('body');
  body.className = input.bodyClass;
  body.innerHTML = html;
  doc.documentElement.replaceChild(body, doc.body);
  // The title last: a nonce title in a print (print-page.ts swapAndPrint) shows that the whole swap ran before it.
  doc.title = input.title;
  // Every face in the page is loaded before its first print (those of earlier documents were loaded then), so no
  // layout is needed to find the fonts (the print lays the page out anyway, for paper): waiting for the faces just
  // added and the images is enough.
  const images = [...doc.images];
  if (added.length > 0 || images.length > 0) {
    await Promise.all([
      ...added.map((face) => face.load().catch(() => undefined)),
      ...images.map((img) => img.decode?.().catch(() => undefined)),
    ]);
  }
}

/**
 * Before the print of a document that may run past a page (print-page.ts decides), what the page's layout must know
 * in advance. The totals keep the items' last row with them on the page they start (base.css, .doc-items--reserve):
 * the last row is made as tall as itself plus the room the totals take below the table, and the totals are drawn
 * back up into that room; a row is never split, so the totals can no longer begin a page alone (Chromium's
 * break-before: avoid, which should do it, is not kept once the table has run past a page). And a row is kept whole
 * on a page unless it is taller than a third of a page (the pixels below: a third of A4's or Letter's text height,
 * near enough): kept whole, it went to the next page and left the page before it blank below the header, then was
 * split all the same; such a row may break between its lines. And a paragraph of the notes or terms of up to five
 * lines is kept whole. Measured on the screen's layout, whose width is near the paper's (pixels spare for the
 * difference): the one layout this costs.
 */
export async function measureLayout(): Promise<void> {
  const doc = document;
  const TALL_ROW_PX = 320;
  // Everything is read from one layout, as the document stands, before any class below changes it.
  const items = doc.querySelector('.doc-items');
  const totals = doc.querySelector('.doc-items + .doc-totals');
  const rows = items && items.getBoundingClientRect().height > TALL_ROW_PX ? [...doc.querySelectorAll('.doc-items tbody tr')] : [];
  const tall = rows.filter((row) => row.getBoundingClientRect().height > TALL_ROW_PX);
  const paragraphs = [...doc.querySelectorAll('.doc-note__para')];
  const lineHeight = paragraphs.length > 0 ? parseFloat(getComputedStyle(paragraphs[0]!).lineHeight) : 0;
  const whole = paragraphs.filter((p) => p.getBoundingClientRect().height <= lineHeight * 5.5);
  // The table's rule and the gap below it move into the totals with the class (a pixel or two): three spare.
  const room = items && totals ? totals.getBoundingClientRect().bottom - items.getBoundingClientRect().bottom + 3 : 0;
  for (const row of tall) row.classList.add('doc-item--tall');
  // Paragraphs of up to five lines are kept whole: Chromium's orphans and widows let a four-line one split 3 + 1.
  for (const p of whole) p.classList.add('doc-note__para--whole');
  if (items && totals) {
    items.classList.add('doc-items--reserve');
    doc.body.style.setProperty('--doc-totals-room', `${Math.ceil(room)}px`);
  }
}

/**
 * Before a first print: at the foot of the `[data-page-bottom]` element (none: nothing to do; it must be positioned
 * and kept whole on one page) a one-pixel link to `url`, whose rectangle in the printed PDF tells how far above the
 * paper's bottom edge the element ended (print-page.ts reads it).
 */
export async function markPageBottom(url: string): Promise<void> {
  const element = document.querySelector('[data-page-bottom]');
  if (!element) return;
  const marker = document.createElement('a');
  marker.className = 'page-bottom-marker';
  marker.setAttribute('href', url);
  marker.setAttribute('aria-hidden', 'true');
  marker.setAttribute('style', 'position:absolute;left:0;bottom:0;width:1px;height:1px;display:block');
  element.appendChild(marker);
}

/** Before the second print: the marker gone, and the element's top padding `points` high, which sets its foot on the
 * bottom edge of the page it was printed on (the element is kept whole, its padding with it: on the page it was). */
export async function settlePageBottom(points: number): Promise<void> {
  document.querySelector('.page-bottom-marker')?.remove();
  const element = document.querySelector('[data-page-bottom]');
  if (element) element.style.paddingTop = `${points}pt`;
}
