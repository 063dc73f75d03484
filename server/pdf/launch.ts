// Starting Chromium for printing: Debian's chromium-headless-shell over a DevTools pipe, with its own background
// traffic off and a fontconfig without system fonts (font-isolation.ts). Also the one way to end a browser: its
// whole process group. This is the only module that launches puppeteer.
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer';
import type { Readable, Writable } from 'node:stream';
import { DirectCalls } from './direct-calls';
import { isolatedFontEnv } from './font-isolation';

export async function launchChromium(opts: { executablePath: string; sandbox: boolean; rendererProcessLimit?: number }): Promise<Browser> {
  const browser = await puppeteer.launch({
    executablePath: opts.executablePath,
    headless: 'shell',
    // DevTools over a pipe rather than a WebSocket on loopback TCP: no framing, masking or TCP stack for the
    // ~45 KB of HTML sent and the PDF read back per render.
    pipe: true,
    // The network is closed to the page anyway; these flags stop Chromium's own background traffic.
    args: [
      ...(opts.sandbox ? [] : ['--no-sandbox']),
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-extensions',
      '--no-first-run',
      '--disable-quic',
      '--font-render-hinting=none',
      // Every print page gets a renderer process of its own, so that one that dies or stops costs one page. Chromium
      // does that for new tabs until its own limit, which it derives from the host's memory (3 at least); past
      // it, tabs share renderers (measured: 4 pages under --renderer-process-limit=2 ran in 2). The limit is set
      // above the pages the pool can have open at once: no more processes than before, on any host.
      ...(opts.rendererProcessLimit ? [`--renderer-process-limit=${opts.rendererProcessLimit}`] : []),
    ],
    env: await isolatedFontEnv(),
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  coalescePipeWrites(browser);
  await attachDirectCalls(browser);
  return browser;
}

/** Each browser's direct calls (direct-calls.ts), when its pipe has them. */
const directCalls = new WeakMap<Browser, DirectCalls>();

/** The direct calls of `browser`'s pipe, or undefined (prints then go through puppeteer's sessions). */
export function directCallsOf(browser: Browser): DirectCalls | undefined {
  return directCalls.get(browser);
}

/** How long the start-up call may take before the browser's prints go through puppeteer instead. */
const DIRECT_CHECK_MS = 10_000;

/** Direct calls on `browser`'s pipe, kept when a first call is answered through them (direct-calls.ts). */
async function attachDirectCalls(browser: Browser): Promise<void> {
  const stdio = browser.process()?.stdio;
  const [write, read] = [stdio?.[3] as Writable | null | undefined, stdio?.[4] as Readable | null | undefined];
  if (!write || !read) return;
  const calls = new DirectCalls(write, read);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer')), DIRECT_CHECK_MS);
  });
  try {
    await Promise.race([calls.call(undefined, 'Browser.getVersion'), late]);
    directCalls.set(browser, calls);
  } catch (err) {
    calls.close(err as Error);
  } finally {
    clearTimeout(timer);
  }
}

let pagesOpened = 0;
/** Each browser's own DevTools session, opened once: detaching one makes puppeteer forget the browser's target. */
const browserSessions = new WeakMap<Browser, Promise<CDPSession>>();

/**
 * A page that draws nothing on screen: its frames are produced only when asked through DevTools (BeginFrame control,
 * headless shell only), and nothing asks. A page only ever prints, and the print lays out and paints on its own;
 * the screen frames Chromium would otherwise make after each document (layout, paint, raster in the GPU process)
 * were about a fifth of a render's CPU, measured here.
 */
export async function openPrintPage(browser: Browser): Promise<Page> {
  // The URL names the new target for waitForTarget (puppeteer's newPage() cannot ask for BeginFrame control).
  const url = `about:blank#print-page-${++pagesOpened}`;
  let session = browserSessions.get(browser);
  if (!session) browserSessions.set(browser, (session = browser.target().createCDPSession()));
  const created = (await session).send('Target.createTarget', { url, enableBeginFrameControl: true });
  // waitForTarget() does not end when the browser goes away; the command's failure (a disconnect) does.
  const [target] = await Promise.all([browser.waitForTarget((t) => t.url() === url, { timeout: 10_000 }), created]);
  const page = await target.page();
  if (!page) throw new Error('the new print target has no page');
  return page;
}

/**
 * Puppeteer writes each DevTools message to the pipe as two writes, the message and its NUL terminator: two system
 * calls, a third of what the service spends talking to Chromium. Corked until the end of the tick, they go as one.
 */
function coalescePipeWrites(browser: Browser): void {
  const pipe = browser.process()?.stdio[3] as
    (NodeJS.WritableStream & { cork(): void; uncork(): void; writableCorked: number }) | undefined;
  if (!pipe || typeof pipe.cork !== 'function') return;
  const write = pipe.write.bind(pipe) as (...args: unknown[]) => boolean;
  pipe.write = ((...args: unknown[]) => {
    if (!pipe.writableCorked) {
      pipe.cork();
      process.nextTick(() => pipe.uncork());
    }
    return write(...args);
  }) as typeof pipe.write;
}

/** Kills a browser's process group: every helper (zygote, renderers, GPU) goes with the main process. */
export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
