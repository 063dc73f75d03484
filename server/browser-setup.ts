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
 * one up, and the half-started pool is closed. */
export async function startBrowserPool(config: PoolConfig, overrides: Partial<BrowserPoolOptions> = {}): Promise<BrowserPool> {
  const options = browserPoolOptions(config, overrides);
  const pool = new BrowserPool(options);
  try {
    await pool.start();
  } catch (err) {
    await pool.close().catch(() => undefined);
    throw new Error(
      `Chromium could not be started from ${options.executablePath} (set CHROMIUM_PATH, or run scripts/install-system.sh): ${(err as Error).message}`,
      { cause: err },
    );
  }
  return pool;
}
