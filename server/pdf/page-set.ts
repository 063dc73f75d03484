// The print pages of one browser: opened with JavaScript off and every request aborted (but the page's own data:
// URIs), each with its DevTools session and what it holds between documents (resident frame and fonts); lent to one
// render at a time, preferring a page that holds the render's frame; replaced by a fresh page after
// maxRendersPerPage renders or when its fonts grow past MAX_RESIDENT_FONT_BYTES, the new one opened beside it, off
// any request. Knows nothing of the browser's life (browser-supervisor.ts) nor of printing (print-page.ts).
import type { Browser, CDPSession, Page } from 'puppeteer';
import { openPrintPage } from './launch';
import { newResidentState, type ResidentState } from './print-page';

/** A page's fonts beyond this many bytes (of base64 CSS) have it replaced after its render: a page that printed
 * documents in many scripts holds them all, and CJK text brings megabytes. */
const MAX_RESIDENT_FONT_BYTES = 24 * 1024 * 1024;

export class PageSet {
  private idle: Page[] = [];
  /** Each page's own DevTools session, for the print command. */
  private readonly sessions = new WeakMap<Page, CDPSession>();
  /** What each page holds between documents (its frame and fonts). */
  private readonly resident = new WeakMap<Page, ResidentState>();
  /** Renders done by each page, and the pages replaced while printing (closed when they come back). */
  private readonly renders = new WeakMap<Page, number>();
  private readonly retired = new WeakSet<Page>();
  private readonly replacing = new WeakSet<Page>();
  readonly counters = { blockedRequests: 0, pagesReplaced: 0 };

  /**
   * `size`: pages kept; `maxRendersPerPage`: renders before a page is replaced (0: never). A page written whole for
   * each document got slower with use (its throughput halved within 600 renders); a resident page, whose body is
   * replaced, keeps its speed, and is replaced to bound what a renderer accumulates (README: 1,000 by default).
   * `current`: the connected browser, if any (a replacement is only made for the browser that is still there).
   */
  constructor(
    private readonly size: number,
    private readonly maxRendersPerPage: number,
    private readonly current: () => Browser | undefined,
  ) {}

  idleCount(): number {
    return this.idle.length;
  }

  /** Opens pages until `size` are idle (at start-up and after a relaunch). */
  async fill(browser: Browser): Promise<void> {
    const missing = Math.max(0, this.size - this.idle.length);
    this.idle.push(...(await Promise.all(Array.from({ length: missing }, () => this.open(browser)))));
  }

  /** The browser is gone: its pages with it. */
  forget(): void {
    this.idle = [];
  }

  /** An idle page of `browser`, one holding `frame` when there is one (another is rebuilt with that frame by its
   * print), or a new one. */
  async take(browser: Browser, frame: string | undefined): Promise<Page> {
    const at = this.idle.findLastIndex((p) => this.resident.get(p)?.frame === frame);
    const page = at >= 0 ? this.idle.splice(at, 1)[0] : this.idle.pop();
    if (page && !page.isClosed() && page.browser() === browser) return page;
    return this.open(browser);
  }

  sessionOf(page: Page): CDPSession {
    return this.sessions.get(page)!;
  }

  stateOf(page: Page): ResidentState {
    return this.resident.get(page)!;
  }

  /** A page that printed: back to the idle pages, or closed (retired, or one more than the set keeps); replaced
   * after its render limit or when its fonts grew too large. */
  giveBack(page: Page, printed = true): void {
    if (this.retired.has(page) || this.idle.length >= this.size) {
      void page.close().catch(() => undefined);
      return;
    }
    this.idle.push(page);
    // A page handed back unused (its render was abandoned before it printed) has done no render.
    if (!printed) return;
    const renders = (this.renders.get(page) ?? 0) + 1;
    this.renders.set(page, renders);
    const worn = this.maxRendersPerPage > 0 && renders >= this.maxRendersPerPage;
    if ((worn || this.stateOf(page).fontBytes > MAX_RESIDENT_FONT_BYTES) && !this.replacing.has(page)) void this.replace(page);
  }

  /** A page in an unknown state (its render failed or timed out): never used again. */
  discard(page: Page | undefined): void {
    void page?.close().catch(() => undefined);
  }

  private async open(browser: Browser): Promise<Page> {
    const page = await openPrintPage(browser);
    try {
      this.sessions.set(page, await page.createCDPSession());
      this.resident.set(page, newResidentState());
      await page.setJavaScriptEnabled(false);
      await page.setRequestInterception(true);
    } catch (err) {
      // A page that could not be locked down is never used, and not left open in Chromium either.
      await page.close().catch(() => undefined);
      throw err;
    }
    page.on('request', (req) => {
      // The document's own data: URIs (its fonts, its logo) are part of it: Chromium sometimes routes them through
      // interception (seen for fonts of a page writing its second document), and refusing them drops the font.
      if (req.url().startsWith('data:')) {
        void req.continue().catch(() => undefined);
        return;
      }
      // Nothing else the page asks for is ever fetched: no network, no file. The CSP in the HTML already stops
      // most of it; this is the second lock.
      this.counters.blockedRequests++;
      void req.abort('blockedbyclient').catch(() => undefined);
    });
    return page;
  }

  /** Opens a fresh page beside `old`, then retires `old`: at once when idle, else when its render returns it. */
  private async replace(old: Page): Promise<void> {
    const browser = this.current();
    if (!browser) return;
    this.replacing.add(old);
    let fresh: Page;
    try {
      fresh = await this.open(browser);
    } catch {
      this.replacing.delete(old); // The old page keeps serving; its next render tries again.
      return;
    }
    if (this.current() !== browser || old.isClosed()) {
      void fresh.close().catch(() => undefined);
      return;
    }
    this.retired.add(old);
    const at = this.idle.indexOf(old);
    if (at >= 0) {
      this.idle.splice(at, 1);
      void old.close().catch(() => undefined);
    }
    this.idle.push(fresh);
    this.counters.pagesReplaced++;
  }
}
