// PDF printing: one Chromium (launch.ts), a few resident pages (each keeps the frame and fonts of the documents it
// prints, and is replaced after PAGE_MAX_RENDERS), a bounded queue (render-queue.ts) and a deadline per render, a
// watchdog (watchdog.ts) and a renderer memory limit (process-memory.ts); printing itself is print-page.ts. It takes
// a whole page or a document's parts, and page options, and returns PDF bytes; it never sees a document type. Pages run with JavaScript off and every request aborted: the HTML must be
// self-contained (inline CSS, data: fonts and images).
import { killGroup, launchChromium, openPrintPage } from './launch';
import { watchRendererMemory } from './process-memory';
import { startWatchdog } from './watchdog';
import type { Browser, CDPSession, Page } from 'puppeteer';
import { DomainError, errors } from '../errors';
import { withMetadata, type PdfMetadata } from './metadata';
import { newResidentState, printPage, type PrintDocument, type ResidentState } from './print-page';
import { RenderQueue } from './render-queue';

export interface PdfOptions {
  format: 'letter' | 'a4';
  /** Page margins in inches, when the HTML's @page rule sets none. */
  margin?: { top: number; right: number; bottom: number; left: number };
  /** Document information; the title and language also come from the HTML's <title> and lang. */
  metadata?: PdfMetadata;
  /** Aborted when nobody waits for the PDF any more (the client went away): the render leaves the queue, or its
   * page is closed mid-print, and the call rejects with errors.clientClosed(). */
  signal?: AbortSignal;
}

const PRODUCER = 'docgen-service (Chromium Skia/PDF)';

/** A page's fonts beyond this many bytes (of base64 CSS) have it replaced after its render: a page that printed
 * documents in many scripts holds them all, and CJK text brings megabytes. */
const MAX_RESIDENT_FONT_BYTES = 24 * 1024 * 1024;

export interface PdfRenderer {
  /** `content`: a whole page (written over what the page held), or a document's parts (swapped into a page that
   * keeps their frame). */
  render(content: string | PrintDocument, options: PdfOptions): Promise<Uint8Array>;
  isReady(): boolean;
  stats(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  active: number;
  queued: number;
  idlePages: number;
  renders: number;
  browserRestarts: number;
  blockedRequests: number;
  pagesReplaced: number;
  /** Frames written into resident pages: a page's first document, or one of another theme than its last. */
  framesWritten: number;
  /** Renderer processes killed for going over rendererMaxRssMiB. */
  renderersKilled: number;
}

export interface BrowserPoolOptions {
  executablePath: string;
  /** false adds --no-sandbox (root, or containers without user namespaces). */
  sandbox: boolean;
  concurrency: number;
  queueLimit: number;
  timeoutMs: number;
  /** Relaunch the browser after this many renders (0 = never), to bound any slow leak. */
  maxRendersPerBrowser: number;
  /**
   * Replace a page after this many renders (0 = never; default 100). Writing document after document into one page
   * makes each print slower: measured here, a page's throughput halves within its first 600 renders, while pages
   * replaced every 100 renders keep their first speed. The replacement is made beside the old page, off any request.
   */
  maxRendersPerPage?: number;
  onEvent?: (event: string, detail?: Record<string, unknown>) => void;
  /** How often the watchdog asks the browser for its version, and how long it waits (defaults 2 s and 3 s). */
  watchdog?: { intervalMs: number; timeoutMs: number };
  /** A renderer process above this resident size (MiB) is killed, which fails its render (0: no limit). */
  rendererMaxRssMiB?: number;
  /** After each successful render: time waited for a page, and time printing. */
  onRender?: (queueWaitMs: number, renderMs: number) => void;
}

class DeadlineError extends Error {}

export class BrowserPool implements PdfRenderer {
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private idle: Page[] = [];
  /** Each page's own DevTools session, for the print command. */
  private readonly sessions = new WeakMap<Page, CDPSession>();
  /** What each page holds between documents (its frame and fonts). */
  private readonly resident = new WeakMap<Page, ResidentState>();
  /** Renders done by each page, and the pages replaced while printing (closed when they come back). */
  private readonly pageRenders = new WeakMap<Page, number>();
  private readonly retired = new WeakSet<Page>();
  private readonly replacing = new WeakSet<Page>();
  private rendersOnBrowser = 0;
  private closed = false;
  private readonly counters = { renders: 0, browserRestarts: 0, blockedRequests: 0, pagesReplaced: 0, framesWritten: 0, renderersKilled: 0 };
  private memoryWatch: { stop(): void } | undefined;

  private watchdog: { stop(): void } | undefined;

  private readonly queue: RenderQueue;

  constructor(private readonly opts: BrowserPoolOptions) {
    this.queue = new RenderQueue(opts.concurrency, opts.queueLimit);
  }

  /** Launches the browser and opens the pages, so that the first request does not pay for it. */
  async start(): Promise<void> {
    const browser = await this.getBrowser();
    const missing = Math.max(0, this.opts.concurrency - this.idle.length);
    const pages = await Promise.all(Array.from({ length: missing }, () => this.newPage(browser)));
    this.idle.push(...pages);
    this.watchdog ??= startWatchdog({
      intervalMs: this.opts.watchdog?.intervalMs ?? 2000,
      timeoutMs: this.opts.watchdog?.timeoutMs ?? 3000,
      probe: () => (this.browser?.connected && !this.launching ? { browser: this.browser, call: this.browser.version() } : undefined),
      onHung: (browser) => this.replaceHungBrowser(browser as Browser),
    });
    const maxRss = this.opts.rendererMaxRssMiB ?? 0;
    this.memoryWatch ??=
      maxRss > 0
        ? watchRendererMemory({
            intervalMs: Math.min(this.opts.watchdog?.intervalMs ?? 2000, 500),
            maxRssMiB: maxRss,
            rootPid: () => this.browser?.process()?.pid,
            onKill: (rssMiB) => {
              this.counters.renderersKilled++;
              this.opts.onEvent?.('renderer_over_memory', { rssMiB: Math.round(rssMiB), limitMiB: maxRss });
            },
          })
        : undefined;
  }

  isReady(): boolean {
    return !this.closed && this.browser?.connected === true;
  }

  /** A browser that does not answer: its process group is killed (which ends its connection, so renders waiting on
   * it fail and retry once), and a new one is launched at once, so that readiness returns without a request. */
  private replaceHungBrowser(hung: Browser): void {
    // Only the browser that was asked: a recycled one's successor is not killed for its silence.
    if (hung !== this.browser || this.closed) return;
    this.browser = undefined;
    this.idle = [];
    this.counters.browserRestarts++;
    this.opts.onEvent?.('browser_hung');
    killGroup(hung.process()?.pid);
    void this.start().catch((err: Error) => this.opts.onEvent?.('browser_relaunch_failed', { error: err.message }));
  }

  /** The Chromium main process id (for operators and tests). */
  browserPid(): number | undefined {
    return this.browser?.process()?.pid;
  }

  /** Pages open in the browser (for operators and tests: the pool's own pages, never more). */
  async openPages(): Promise<number> {
    return this.browser ? (await this.browser.pages()).length : 0;
  }

  stats(): PoolStats {
    return { active: this.queue.running, queued: this.queue.waiting, idlePages: this.idle.length, ...this.counters };
  }

  async render(content: string | PrintDocument, options: PdfOptions): Promise<Uint8Array> {
    if (this.closed) throw errors.rendererBusy(5);
    if (options.signal?.aborted) throw errors.clientClosed();
    const queued = performance.now();
    const deadline = Date.now() + this.opts.timeoutMs;
    await this.queue.acquire(deadline, options.signal);
    const started = performance.now();
    try {
      // A client that left just as its turn came: no render for nobody.
      if (options.signal?.aborted) throw errors.clientClosed();
      const pdf = await this.renderInSlot(content, options, deadline, true);
      this.opts.onRender?.(started - queued, performance.now() - started);
      return pdf;
    } finally {
      this.queue.release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watchdog?.stop();
    this.memoryWatch?.stop();
    this.queue.close();
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    this.browser = undefined;
    this.idle = [];
    if (browser) {
      const pid = browser.process()?.pid;
      await browser.close().catch(() => undefined);
      killGroup(pid);
    }
  }

  // --- browser and pages -----------------------------------------------------------------------

  private async getBrowser(): Promise<Browser> {
    if (this.browser?.connected) return this.browser;
    if (!this.launching) {
      this.launching = this.launch().finally(() => {
        this.launching = undefined;
      });
    }
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const browser = await launchChromium(this.opts);
    // Puppeteer starts Chromium as a process group leader: killing the group reaches every helper process (zygote,
    // renderers, GPU), which a crash of the main process alone would leave behind as orphans.
    const pid = browser.process()?.pid;
    // A killed main process does not always end the DevTools connection (a surviving helper can hold the socket),
    // so its exit itself takes the group down, which then disconnects puppeteer.
    browser.process()?.once('exit', () => killGroup(pid));
    browser.on('disconnected', () => {
      killGroup(pid);
      if (this.browser === browser) {
        this.browser = undefined;
        this.idle = [];
        if (!this.closed) this.opts.onEvent?.('browser_disconnected');
      }
    });
    // The tab Chromium opens at launch is not one of the pool's pages: closed, it holds no renderer process.
    for (const page of await browser.pages()) await page.close().catch(() => undefined);
    this.browser = browser;
    this.rendersOnBrowser = 0;
    return browser;
  }

  private async newPage(browser: Browser): Promise<Page> {
    const page = await openPrintPage(browser);
    this.sessions.set(page, await page.createCDPSession());
    this.resident.set(page, newResidentState());
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
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

  /** An idle page, one holding `frame` when there is one (another is rebuilt with that frame by its print). */
  private async takePage(frame: string | undefined): Promise<Page> {
    const browser = await this.getBrowser();
    const at = this.idle.findLastIndex((p) => this.resident.get(p)?.frame === frame);
    const page = at >= 0 ? this.idle.splice(at, 1)[0] : this.idle.pop();
    if (page && !page.isClosed() && page.browser() === browser) return page;
    return this.newPage(browser);
  }

  private async renderInSlot(content: string | PrintDocument, options: PdfOptions, deadline: number, mayRetry: boolean): Promise<Uint8Array> {
    let page: Page | undefined;
    let timer: NodeJS.Timeout | undefined;
    const remaining = (): number => Math.max(1, deadline - Date.now());
    const work = (async () => {
      page = await this.takePage(typeof content === 'string' ? undefined : content.frame.key);
      const state = this.resident.get(page)!;
      if (typeof content !== 'string' && state.frame !== content.frame.key) this.counters.framesWritten++;
      return printPage(page, this.sessions.get(page)!, content, state, options);
    })();
    let onAbort: (() => void) | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineError()), remaining());
      // The client went away: stop waiting; the catch below closes the page, which ends the print in Chromium.
      onAbort = () => reject(errors.clientClosed());
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const pdf = await Promise.race([work, timeout]);
      this.counters.renders++;
      this.rendersOnBrowser++;
      this.returnPage(page!);
      this.maybeRecycleBrowser();
      return options.metadata ? withMetadata(pdf, options.metadata, PRODUCER) : pdf;
    } catch (err) {
      // The page may be in any state: never reuse it. If the work is still running (deadline), close the page
      // when it settles, so that no page is left behind.
      void work.catch(() => undefined).finally(() => void page?.close().catch(() => undefined));
      void (page as Page | undefined)?.close().catch(() => undefined);
      if (err instanceof DeadlineError) {
        this.opts.onEvent?.('render_timeout');
        throw errors.renderTimeout(this.queue.retryAfterSeconds());
      }
      if (err instanceof DomainError) throw err;
      if (mayRetry && Date.now() < deadline && !this.closed) {
        // A crashed renderer, or a crashed, hung or disconnected browser: try once more (relaunched if need be).
        this.opts.onEvent?.('render_retry', { error: (err as Error).message });
        if (!this.browser?.connected) this.counters.browserRestarts++;
        return this.renderInSlot(content, options, deadline, false);
      }
      // Failed twice (the renderer crashed or was killed over its memory limit, or the browser died again): the
      // client gets a 503 with the reason, never a 500.
      this.opts.onEvent?.('render_failed', { error: (err as Error).message });
      throw errors.renderFailed(this.queue.retryAfterSeconds());
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    }
  }

  private returnPage(page: Page): void {
    // A retired page, or one more than the pool keeps (pages opened by retries while a new browser was starting).
    if (this.retired.has(page) || this.idle.length >= this.opts.concurrency) {
      void page.close().catch(() => undefined);
      return;
    }
    this.idle.push(page);
    const renders = (this.pageRenders.get(page) ?? 0) + 1;
    this.pageRenders.set(page, renders);
    const max = this.opts.maxRendersPerPage ?? 100;
    const fontBytes = this.resident.get(page)?.fontBytes ?? 0;
    if (((max > 0 && renders >= max) || fontBytes > MAX_RESIDENT_FONT_BYTES) && !this.replacing.has(page)) void this.replacePage(page);
  }

  /** Opens a fresh page beside `old`, then retires `old`: at once when idle, else when its render returns it. */
  private async replacePage(old: Page): Promise<void> {
    const browser = this.browser;
    if (!browser || this.closed) return;
    this.replacing.add(old);
    let fresh: Page;
    try {
      fresh = await this.newPage(browser);
    } catch {
      this.replacing.delete(old); // The old page keeps serving; its next render tries again.
      return;
    }
    if (this.closed || this.browser !== browser || old.isClosed()) {
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

  private maybeRecycleBrowser(): void {
    const max = this.opts.maxRendersPerBrowser;
    if (max <= 0 || this.rendersOnBrowser < max || this.queue.running > 1) return;
    const old = this.browser;
    this.browser = undefined;
    this.idle = [];
    this.counters.browserRestarts++;
    this.opts.onEvent?.('browser_recycled', { renders: this.rendersOnBrowser });
    void old?.close().catch(() => undefined);
  }
}
