// The one Chromium: launched when first needed (one launch shared by every caller), its process group killed when it
// dies or hangs (the watchdog asks it for its version), relaunched at once after a hang, recycled after
// maxRendersPerBrowser renders, and its renderers held under a memory limit and killed when stopped
// (process-memory.ts). Knows nothing of pages or documents: it tells its owner when the browser (and with it every
// page) is gone.
import type { Browser } from 'puppeteer';
import { killGroup, launchChromium } from './launch';
import { watchRenderers } from './process-memory';
import { startWatchdog } from './watchdog';

export interface SupervisorOptions {
  executablePath: string;
  /** false adds --no-sandbox (root, or containers without user namespaces). */
  sandbox: boolean;
  /** Relaunch the browser after this many renders (0 = never), to bound any slow leak. */
  maxRendersPerBrowser: number;
  /** How often the watchdog asks the browser for its version, and how long it waits (defaults 2 s and 3 s). */
  watchdog?: { intervalMs: number; timeoutMs: number };
  /** Renderer processes Chromium may run (launch.ts): above the pages open at once, so that each has its own. */
  rendererProcessLimit?: number;
  /** A renderer process above this resident size (MiB) is killed, which fails its render (0: no limit). */
  rendererMaxRssMiB?: number;
  onEvent?: (event: string, detail?: Record<string, unknown>) => void;
}

export class BrowserSupervisor {
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private rendersOnBrowser = 0;
  private closed = false;
  private watchdog: { stop(): void } | undefined;
  private rendererWatch: { stop(): void } | undefined;
  readonly counters = { browserRestarts: 0, renderersKilled: 0 };

  /** `onLost`: the browser is gone (crashed, killed, recycled); its pages with it. */
  constructor(
    private readonly opts: SupervisorOptions,
    private readonly onLost: () => void,
  ) {}

  isConnected(): boolean {
    return !this.closed && this.browser?.connected === true;
  }

  /** The current browser, if one is connected (no launch). */
  current(): Browser | undefined {
    return this.browser?.connected ? this.browser : undefined;
  }

  pid(): number | undefined {
    return this.browser?.process()?.pid;
  }

  /** The browser, launching it if need be (concurrent callers share one launch). */
  async get(): Promise<Browser> {
    if (this.browser?.connected) return this.browser;
    if (!this.launching) {
      this.launching = this.launch().finally(() => {
        this.launching = undefined;
      });
    }
    return this.launching;
  }

  /** Starts the watchdog and the renderers' watch (once). `relaunch` is called after a hung browser was killed. */
  watch(relaunch: () => Promise<void>): void {
    this.watchdog ??= startWatchdog({
      intervalMs: this.opts.watchdog?.intervalMs ?? 2000,
      timeoutMs: this.opts.watchdog?.timeoutMs ?? 3000,
      probe: () => (this.browser?.connected && !this.launching ? { browser: this.browser, call: this.browser.version() } : undefined),
      onHung: (browser) => this.replaceHung(browser as Browser, relaunch),
    });
    const maxRss = this.opts.rendererMaxRssMiB ?? 0;
    this.rendererWatch ??= watchRenderers({
      intervalMs: Math.min(this.opts.watchdog?.intervalMs ?? 2000, 500),
      maxRssMiB: maxRss,
      rootPid: () => this.browser?.process()?.pid,
      onKill: (rssMiB) => {
        this.counters.renderersKilled++;
        this.opts.onEvent?.('renderer_over_memory', { rssMiB: Math.round(rssMiB), limitMiB: maxRss });
      },
      onStopped: (pid) => this.opts.onEvent?.('renderer_stopped', { pid }),
    });
  }

  /** A render is about to be retried: a browser that is gone counts as restarted. */
  noteRetry(): void {
    if (!this.browser?.connected) this.counters.browserRestarts++;
  }

  /** After each successful render: recycles the browser after its render limit, when at most this render is busy. */
  countRender(busy: number): void {
    this.rendersOnBrowser++;
    const max = this.opts.maxRendersPerBrowser;
    if (max <= 0 || this.rendersOnBrowser < max || busy > 1) return;
    const old = this.browser;
    this.browser = undefined;
    this.onLost();
    this.counters.browserRestarts++;
    this.opts.onEvent?.('browser_recycled', { renders: this.rendersOnBrowser });
    void old?.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watchdog?.stop();
    this.rendererWatch?.stop();
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    this.browser = undefined;
    if (browser) {
      const pid = browser.process()?.pid;
      await browser.close().catch(() => undefined);
      killGroup(pid);
    }
  }

  /** A browser that does not answer: its process group is killed (which ends its connection, so renders waiting on
   * it fail and retry once), and a new one is launched at once, so that readiness returns without a request. */
  private replaceHung(hung: Browser, relaunch: () => Promise<void>): void {
    // Only the browser that was asked: a recycled one's successor is not killed for its silence.
    if (hung !== this.browser || this.closed) return;
    this.browser = undefined;
    this.onLost();
    this.counters.browserRestarts++;
    this.opts.onEvent?.('browser_hung');
    killGroup(hung.process()?.pid);
    void relaunch().catch((err: Error) => this.opts.onEvent?.('browser_relaunch_failed', { error: err.message }));
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
        this.onLost();
        if (!this.closed) this.opts.onEvent?.('browser_disconnected');
      }
    });
    // The tab Chromium opens at launch is not one of the pool's pages: closed, it holds no renderer process.
    for (const page of await browser.pages()) await page.close().catch(() => undefined);
    this.browser = browser;
    this.rendersOnBrowser = 0;
    return browser;
  }
}
