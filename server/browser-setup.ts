// The browser pool as configured (CHROMIUM_PATH, the render limits), started: one setup for the service (service.ts)
// and the command-line tools (local-pipeline.ts), which differ only in what they override. Knows nothing of requests;
// what the pool does with a page is pdf/'s.
import type { Config } from './config';
import { BrowserPool, type BrowserPoolOptions } from './pdf/browser-pool';

type PoolConfig = Pick<
  Config,
  | 'chromiumPath'
  | 'chromiumSandbox'
  | 'renderConcurrency'
  | 'renderQueueLimit'
  | 'renderTimeoutMs'
  | 'browserMaxRenders'
  | 'pageMaxRenders'
  | 'rendererMaxRssMiB'
>;

/** The pool's options from the configuration, `overrides` taking precedence (a tool's own limits, the hooks). */
export function browserPoolOptions(config: PoolConfig, overrides: Partial<BrowserPoolOptions> = {}): BrowserPoolOptions {
  return {
    executablePath: config.chromiumPath,
    sandbox: config.chromiumSandbox,
    concurrency: config.renderConcurrency,
    queueLimit: config.renderQueueLimit,
    timeoutMs: config.renderTimeoutMs,
    maxRendersPerBrowser: config.browserMaxRenders,
    maxRendersPerPage: config.pageMaxRenders,
    rendererMaxRssMiB: config.rendererMaxRssMiB,
    ...overrides,
  };
}

/** A started pool (its browser launched, its pages open); a Chromium that cannot start is an error saying how to set
 * one up (launchAdvice), and the half-started pool is closed. */
export async function startBrowserPool(config: PoolConfig, overrides: Partial<BrowserPoolOptions> = {}): Promise<BrowserPool> {
  const options = browserPoolOptions(config, overrides);
  const pool = new BrowserPool(options);
  try {
    await pool.start();
  } catch (err) {
    await pool.close().catch(() => undefined);
    const cause = options.sandbox && (await startsWithoutSandbox(options)) ? 'sandbox' : 'browser';
    throw new Error(`${launchAdvice(options.executablePath, cause)}: ${(err as Error).message}`, { cause: err });
  }
  return pool;
}

/** Whether the browser that failed with its sandbox starts without it: then the sandbox was the cause (Chromium's own
 * words for it reach puppeteer only as "Target closed" when its zygote dies). */
async function startsWithoutSandbox(options: BrowserPoolOptions): Promise<boolean> {
  const probe = new BrowserPool({ ...options, sandbox: false, concurrency: 1 });
  try {
    await probe.start();
    return true;
  } catch {
    return false;
  } finally {
    await probe.close().catch(() => undefined);
  }
}

/** How to set Chromium up after it failed to start for `cause`. */
export function launchAdvice(executablePath: string, cause: 'sandbox' | 'browser'): string {
  return cause === 'sandbox'
    ? `Chromium starts without its sandbox but not with it: the sandbox needs user namespaces, which Docker's default ` +
        `seccomp profile refuses a container, and refuses to run as root. Set CHROMIUM_SANDBOX=false where the ` +
        `container is the isolation boundary (the Docker image's default, docs/docker.md), or allow user namespaces`
    : `Chromium could not be started from ${executablePath} (set CHROMIUM_PATH, or run scripts/install-system.sh)`;
}
