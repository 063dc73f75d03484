// The print pages of one browser: opened with JavaScript off and every request aborted (but the page's own data:
// URIs), each with its DevTools session and what it holds between documents (resident frame and fonts); lent to one
// render at a time, preferring a page that holds the render's frame; replaced by a fresh page after
// maxRendersPerPage renders or when its fonts grow past MAX_RESIDENT_FONT_BYTES, the new one opened beside it, off
// any request. Each page has a renderer process of its own (Chromium gives every new tab one: measured, 8 pages,
// 8 renderers of about 85 MiB each), so a renderer that dies or stops costs one page only. A page is lost, closed
// and replaced at once when its renderer crashes (killed, out of memory) or its target closes, idle or not, and an
// idle page is asked a trivial call (PROBE_TIMEOUT_MS to answer) before it is lent when it has been idle a while,
// every SWEEP_INTERVAL_MS off any request, and for /readyz: one that does not answer is lost. Knows nothing of the
// browser's life (browser-supervisor.ts) nor of printing (print-page.ts).
import type { Browser, CDPSession, Page } from 'puppeteer';
import type { DevToolsCalls } from './direct-calls';
import { directCallsOf, openPrintPage } from './launch';
import { newResidentState, type ResidentState } from './print-page';

/** A page's fonts beyond this many bytes (of base64 CSS) have it replaced after its render: a page that printed
 * documents in many scripts holds them all, and CJK text brings megabytes. */
const MAX_RESIDENT_FONT_BYTES = 24 * 1024 * 1024;
/** An idle page whose renderer has not answered for this long is asked again before it is lent: a page that printed
 * a moment ago is lent without the extra round trip, so a busy pool pays nothing. */
const CHECK_BEFORE_LENDING_AFTER_MS = 500;
/** How long an idle renderer may take to answer a trivial call (a healthy one answers in a millisecond or two; a
 * stopped, deadlocked or dead one never). */
export const PROBE_TIMEOUT_MS = 1000;
/** Every idle page is asked at least this often, off any request. */
const SWEEP_INTERVAL_MS = 1000;

export class PageSet {
  private idle: Page[] = [];
  /** Pages lent to a render, and pages being opened to fill the set (a render that finds no idle page waits for
   * one of these rather than open yet another). */
  private readonly lent = new Set<Page>();
  private arriving: { page: Promise<Page | undefined>; claimed: boolean }[] = [];
  /** Each page's own DevTools session, for the print command. */
  private readonly sessions = new WeakMap<Page, CDPSession>();
  /** Each page's calls for printing: its session's, or the same made straight on the pipe (direct-calls.ts). */
  private readonly calls = new WeakMap<Page, DevToolsCalls>();
  /** What each page holds between documents (its frame and fonts). */
  private readonly resident = new WeakMap<Page, ResidentState>();
  /** Renders done by each page, and the pages replaced while printing (closed when they come back). */
  private readonly renders = new WeakMap<Page, number>();
  private readonly retired = new WeakSet<Page>();
  private readonly replacing = new WeakSet<Page>();
  /** Pages closed or lost: never lent again. `gone` settles when a page is lost (its renderer crashed, its target
   * closed, or it did not answer). */
  private readonly dead = new WeakSet<Page>();
  private readonly gone = new WeakMap<Page, { promise: Promise<void>; settle: () => void }>();
  /** When each page's renderer last answered (a print, a probe). */
  private readonly answeredAt = new WeakMap<Page, number>();
  private sweeping = false;
  readonly counters = { blockedRequests: 0, pagesReplaced: 0, pagesLost: 0 };

  /**
   * `size`: pages kept; `maxRendersPerPage`: renders before a page is replaced (0: never). A page written whole for
   * each document got slower with use (its throughput halved within 600 renders); a resident page, whose body is
   * replaced, keeps its speed, and is replaced to bound what a renderer accumulates (docs/configuration.md: 1,000 by default).
   * `current`: the connected browser, if any (a replacement is only made for the browser that is still there).
   */
  constructor(
    private readonly size: number,
    private readonly maxRendersPerPage: number,
    private readonly current: () => Browser | undefined,
    private readonly onEvent?: (event: string, detail?: Record<string, unknown>) => void,
  ) {}

  /** Idle pages not known to be lost (for /readyz, call check() first: it asks each one now). */
  idleCount(): number {
    return this.idle.filter((p) => !this.dead.has(p) && !p.isClosed()).length;
  }

  /** Opens pages until `size` are idle or lent (at start-up and after a relaunch). */
  async fill(browser: Browser): Promise<void> {
    const missing = Math.max(0, this.size - this.idle.length - this.lent.size - this.arriving.length);
    this.idle.push(...(await Promise.all(Array.from({ length: missing }, () => this.open(browser)))));
  }

  /** The browser is gone: its pages with it. */
  forget(): void {
    this.idle = [];
    this.lent.clear();
    this.arriving = [];
  }

  /** An idle page of `browser` whose renderer answers, one holding `frame` when there is one (another is rebuilt
   * with that frame by its print), or a new one. A page found lost on the way is replaced and the next one tried. */
  async take(browser: Browser, frame: string | undefined): Promise<Page> {
    for (;;) {
      const at = this.idle.findLastIndex((p) => this.resident.get(p)?.frame === frame);
      const page = at >= 0 ? this.idle.splice(at, 1)[0] : this.idle.pop();
      if (!page) break;
      if (this.dead.has(page) || page.isClosed() || page.browser() !== browser) {
        this.close(page);
        continue;
      }
      this.lent.add(page);
      const quiet = Date.now() - (this.answeredAt.get(page) ?? 0) > CHECK_BEFORE_LENDING_AFTER_MS;
      if (!quiet || (await this.probe(page))) return page;
    }
    const arriving = this.arriving.find((a) => !a.claimed);
    if (arriving) arriving.claimed = true;
    const page = (await arriving?.page) ?? (await this.open(browser));
    this.lent.add(page);
    return page;
  }

  sessionOf(page: Page): CDPSession {
    return this.sessions.get(page)!;
  }

  /** The calls a print makes on `page`: straight to the browser's pipe when it has them (direct-calls.ts). */
  callsOf(page: Page): DevToolsCalls {
    return this.calls.get(page)!;
  }

  stateOf(page: Page): ResidentState {
    return this.resident.get(page)!;
  }

  /** A page that printed: back to the idle pages, or closed (lost, retired, of a browser gone, or one more than the
   * set keeps); replaced after its render limit or when its fonts grew too large. */
  giveBack(page: Page, printed = true): void {
    this.lent.delete(page);
    const stale = this.dead.has(page) || page.isClosed() || page.browser() !== this.current();
    if (stale || this.retired.has(page) || this.idle.length >= this.size) {
      this.close(page);
      return;
    }
    this.idle.push(page);
    // A page handed back unused (its render was abandoned before it printed) has done no render.
    if (!printed) return;
    this.answeredAt.set(page, Date.now());
    const renders = (this.renders.get(page) ?? 0) + 1;
    this.renders.set(page, renders);
    const worn = this.maxRendersPerPage > 0 && renders >= this.maxRendersPerPage;
    if ((worn || this.stateOf(page).fontBytes > MAX_RESIDENT_FONT_BYTES) && !this.replacing.has(page)) void this.replace(page);
  }

  /** A page in an unknown state (its render failed or timed out): never used again; a fresh one takes its place. */
  discard(page: Page | undefined): void {
    if (!page) return;
    this.lent.delete(page);
    this.close(page);
    this.topUp();
  }

  /** Asks every idle page now (for /readyz): one that does not answer within PROBE_TIMEOUT_MS is lost and replaced. */
  async check(): Promise<void> {
    await Promise.all(this.idle.map((page) => this.probe(page)));
  }

  /** Asks the idle pages that have not answered for SWEEP_INTERVAL_MS, every SWEEP_INTERVAL_MS (until stopped), so
   * that a renderer that died or stopped while idle is replaced before a request needs its page. */
  watch(): { stop(): void } {
    const timer = setInterval(() => {
      if (this.sweeping || !this.current()) return;
      this.sweeping = true;
      const due = this.idle.filter((p) => Date.now() - (this.answeredAt.get(p) ?? 0) >= SWEEP_INTERVAL_MS);
      void Promise.all(due.map((page) => this.probe(page))).finally(() => {
        this.sweeping = false;
      });
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /**
   * One trivial call to the page's renderer: true when it answers within `timeoutMs`; false, and the page lost, when
   * its renderer crashed, its target closed, the call failed or no answer came. A timer that fires much later than
   * set means this process was stalled, not the renderer: the wait starts once more.
   */
  private probe(page: Page, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
    const gone = this.gone.get(page);
    if (!gone || this.dead.has(page) || page.isClosed()) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const done = (ok: boolean, reason: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (ok) this.answeredAt.set(page, Date.now());
        else this.lose(page, reason);
        resolve(ok);
      };
      const wait = (again: boolean): void => {
        const armed = Date.now();
        timer = setTimeout(() => {
          if (again && Date.now() - armed > timeoutMs + 500) wait(false);
          else done(false, 'no answer');
        }, timeoutMs);
      };
      wait(true);
      void gone.promise.then(() => done(false, 'lost'));
      this.sessionOf(page)
        .send('Runtime.evaluate', { expression: '0', returnByValue: true })
        .then(
          () => done(true, ''),
          (err: Error) => done(false, err.message),
        );
    });
  }

  /** A page whose renderer crashed, whose target closed, or which did not answer: closed (Chromium ends its
   * renderer), out of the idle pages, and replaced at once. Its render, if it has one, fails and is retried. */
  private lose(page: Page, reason: string): void {
    // Pages closing with their browser (closed, recycled, crashed) are the supervisor's business.
    if (this.dead.has(page) || page.browser() !== this.current()) return;
    this.counters.pagesLost++;
    this.onEvent?.('page_lost', { reason });
    this.lent.delete(page);
    this.close(page);
    this.topUp();
  }

  /** Closes a page (once) and takes it out of the idle pages. */
  private close(page: Page): void {
    const at = this.idle.indexOf(page);
    if (at >= 0) this.idle.splice(at, 1);
    if (this.dead.has(page)) return;
    this.dead.add(page);
    this.gone.get(page)?.settle();
    void page.close().catch(() => undefined);
  }

  /** Opens pages, off any request, until idle, lent and arriving pages make the set's size again. A page that
   * arrives goes to the render that claimed it, else to the idle pages. */
  private topUp(): void {
    const browser = this.current();
    if (!browser) return;
    const missing = this.size - this.idle.length - this.lent.size - this.arriving.length;
    for (let i = 0; i < missing; i++) {
      const arriving = {
        claimed: false,
        page: this.open(browser).then(
          (page): Page | undefined => {
            this.arriving = this.arriving.filter((a) => a !== arriving);
            if (arriving.claimed && !this.dead.has(page)) return page;
            if (!arriving.claimed && this.current() === browser && this.idle.length + this.lent.size < this.size) this.idle.push(page);
            else this.close(page);
            return undefined;
          },
          (err: Error) => {
            this.arriving = this.arriving.filter((a) => a !== arriving);
            this.onEvent?.('page_open_failed', { error: err.message });
            return undefined;
          },
        ),
      };
      this.arriving.push(arriving);
    }
  }

  private async open(browser: Browser): Promise<Page> {
    const page = await openPrintPage(browser);
    try {
      const session = await page.createCDPSession();
      this.sessions.set(page, session);
      this.calls.set(page, directCallsOf(browser)?.on(session.id()) ?? session);
      this.resident.set(page, newResidentState());
      await page.setJavaScriptEnabled(false);
      await page.setRequestInterception(true);
    } catch (err) {
      // A page that could not be locked down is never used, and not left open in Chromium either.
      await page.close().catch(() => undefined);
      throw err;
    }
    let settle!: () => void;
    const promise = new Promise<void>((resolve) => (settle = resolve));
    this.gone.set(page, { promise, settle });
    this.answeredAt.set(page, Date.now());
    // Idle or printing: a renderer that crashes, or a target that closes under us, loses the page at once (a print
    // in it ends by its own listener, print-page.ts).
    page.on('error', () => this.lose(page, 'renderer crashed'));
    page.once('close', () => {
      // Chromium answers no call of a closed page's session: a direct call still waiting fails once the browser has
      // closed the page, as puppeteer's calls do (not when the service asks it to: a page of a hung browser is not
      // closed, and its print waits for the browser to be replaced, then is retried on the new one).
      const session = this.sessions.get(page);
      if (session) directCallsOf(browser)?.drop(session.id(), 'the print page was closed');
      this.lose(page, 'target closed');
    });
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
    if (this.current() !== browser || old.isClosed() || this.dead.has(old)) {
      this.close(fresh);
      return;
    }
    this.retired.add(old);
    if (this.idle.includes(old)) this.close(old);
    this.idle.push(fresh);
    this.counters.pagesReplaced++;
  }
}
