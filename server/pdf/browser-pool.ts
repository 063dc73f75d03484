// PDF printing as the service uses it: a bounded queue (render-queue.ts) in front of one Chromium
// (browser-supervisor.ts) and its resident print pages (page-set.ts); for each render a deadline (queue wait
// included), a cancel signal, and one retry on a fresh page after a crash. Printing itself is print-page.ts. Takes a
// whole page or a document's parts and page options and returns Chromium's PDF bytes (what follows, PDF/A and the
// signature, is the pipeline's, outside the queue's slots); never sees a document type. Pages run with JavaScript off and every request aborted: the
// HTML must be self-contained (inline CSS, data: fonts and images).
import type { Page } from 'puppeteer';
import { DomainError, errors } from '../errors';
import { BrowserSupervisor, type SupervisorOptions } from './browser-supervisor';
import type { DirectCalls } from './direct-calls';
import { directCallsOf } from './launch';
import { PageSet } from './page-set';
import { printPage, type PrintDocument } from './print-page';
import type { PdfOptions, PdfRenderer, PoolStats } from './renderer';
import { RenderQueue } from './render-queue';

export type { PdfOptions, PdfRenderer, PoolStats } from './renderer';

export interface BrowserPoolOptions extends SupervisorOptions {
  concurrency: number;
  queueLimit: number;
  timeoutMs: number;
  /** Replace a page after this many renders (0 = never): PAGE_MAX_RENDERS. */
  maxRendersPerPage: number;
  /** After each successful render: time waited for a page, and time printing. */
  onRender?: (queueWaitMs: number, renderMs: number) => void;
  /** Told when renders start being in flight (true) and when none is (false): workers/print-first.ts. */
  onPrinting?: (printing: boolean) => void;
}

class DeadlineError extends Error {}

export class BrowserPool implements PdfRenderer {
  private readonly queue: RenderQueue;
  private readonly browser: BrowserSupervisor;
  private readonly pages: PageSet;
  private closed = false;
  private sweep: { stop(): void } | undefined;
  private renders = 0;
  private framesWritten = 0;

  constructor(private readonly opts: BrowserPoolOptions) {
    // Every waiter leaves at its deadline, so no backlog outlasts one: a client is never told to wait longer.
    this.queue = new RenderQueue(opts.concurrency, opts.queueLimit, {
      maxRetryAfterSeconds: Math.ceil(opts.timeoutMs / 1000),
      onBusy: opts.onPrinting,
    });
    // The pages, plus a replacement opened beside each (page-set.ts), each in a renderer of its own.
    const rendererProcessLimit = opts.rendererProcessLimit ?? 2 * opts.concurrency + 2;
    this.browser = new BrowserSupervisor({ ...opts, rendererProcessLimit }, () => this.pages.forget());
    this.pages = new PageSet(
      opts.concurrency,
      opts.maxRendersPerPage,
      () => (this.closed ? undefined : this.browser.current()),
      opts.onEvent,
    );
  }

  /** Launches the browser and opens the pages, so that the first request does not pay for it. */
  async start(): Promise<void> {
    await this.pages.fill(await this.browser.get());
    this.browser.watch(() => this.start());
    this.sweep ??= this.pages.watch();
  }

  isReady(): boolean {
    return !this.closed && this.browser.isConnected();
  }

  /** The current browser's direct DevTools calls, if it has them (direct-calls.ts; for the tests). */
  directCalls(): DirectCalls | undefined {
    const browser = this.browser.current();
    return browser && directCallsOf(browser);
  }

  /** The Chromium main process id (for operators and tests). */
  browserPid(): number | undefined {
    return this.browser.pid();
  }

  /** Pages open in the browser (for operators and tests: the pool's own pages, never more). */
  async openPages(): Promise<number> {
    const browser = this.browser.current();
    return browser ? (await browser.pages()).length : 0;
  }

  /** The figures with every idle page asked now whether its renderer answers (for /readyz: a dead or hung page is
   * never counted, and is replaced). */
  async liveStats(): Promise<PoolStats> {
    if (!this.closed) await this.pages.check();
    return this.stats();
  }

  stats(): PoolStats {
    return {
      active: this.queue.running,
      queued: this.queue.waiting,
      idlePages: this.pages.idleCount(),
      renders: this.renders,
      framesWritten: this.framesWritten,
      ...this.browser.counters,
      ...this.pages.counters,
    };
  }

  async render(content: string | PrintDocument, options: PdfOptions): Promise<Uint8Array> {
    if (this.closed) throw errors.rendererBusy(5);
    if (options.signal?.aborted) throw errors.clientClosed();
    const queued = performance.now();
    const deadline = Date.now() + this.opts.timeoutMs;
    const release = await this.queue.acquire(deadline, options.signal);
    const started = performance.now();
    try {
      // A client that left just as its turn came: no render for nobody.
      if (options.signal?.aborted) throw errors.clientClosed();
      const pdf = await this.renderInSlot(content, options, deadline, true);
      this.opts.onRender?.(started - queued, performance.now() - started);
      return pdf;
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.sweep?.stop();
    this.queue.close();
    this.pages.forget();
    await this.browser.close();
  }

  /** One render in a queue slot: a page taken, the document printed, raced against the deadline and the client. */
  private async renderInSlot(
    content: string | PrintDocument,
    options: PdfOptions,
    deadline: number,
    mayRetry: boolean,
  ): Promise<Uint8Array> {
    let page: Page | undefined;
    let timer: NodeJS.Timeout | undefined;
    const remaining = (): number => Math.max(1, deadline - Date.now());
    // Set when the deadline or the client won the race: a page taken after that goes back unused, so that a render
    // that has given up its queue place never prints (nor costs a healthy page).
    let abandoned = false;
    const work = (async () => {
      const taken = await this.pages.take(await this.browser.get(), typeof content === 'string' ? undefined : content.frame.key);
      if (abandoned) {
        this.pages.giveBack(taken, false);
        throw new DeadlineError();
      }
      page = taken;
      const state = this.pages.stateOf(page);
      if (typeof content !== 'string' && state.frame !== content.frame.key) this.framesWritten++;
      return printPage(page, this.pages.callsOf(page), content, state, options);
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
      this.renders++;
      this.pages.giveBack(page!);
      this.browser.countRender(this.queue.running);
      return pdf;
    } catch (err) {
      abandoned = true;
      // The page may be in any state: never reuse it. If the work is still running (deadline), close the page
      // when it settles, so that no page is left behind.
      void work.catch(() => undefined).finally(() => this.pages.discard(page));
      this.pages.discard(page);
      return this.afterFailure(err, content, options, deadline, mayRetry);
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** After a failed render (its page discarded): the deadline's error or the client's, else one more try while
   * `mayRetry` and time is left, else render_failed. Throws synchronously, as the catch it is called from would. */
  private afterFailure(
    err: unknown,
    content: string | PrintDocument,
    options: PdfOptions,
    deadline: number,
    mayRetry: boolean,
  ): Promise<Uint8Array> {
    if (err instanceof DeadlineError) {
      this.opts.onEvent?.('render_timeout');
      throw errors.renderTimeout(this.queue.retryAfterSeconds());
    }
    if (err instanceof DomainError) throw err;
    if (mayRetry && Date.now() < deadline && !this.closed) {
      // A crashed renderer, or a crashed, hung or disconnected browser: try once more (relaunched if need be).
      this.opts.onEvent?.('render_retry', { error: (err as Error).message });
      this.browser.noteRetry();
      return this.renderInSlot(content, options, deadline, false);
    }
    // Failed twice (the renderer crashed or was killed over its memory limit, or the browser died again): the
    // client gets render_failed (try again later), never an internal error.
    this.opts.onEvent?.('render_failed', { error: (err as Error).message });
    throw errors.renderFailed(this.queue.retryAfterSeconds());
  }
}
