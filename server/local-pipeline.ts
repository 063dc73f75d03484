// The pipeline without HTTP, for command-line tools (npm run render, render-fixtures, visual:update): one Chromium
// page set, the project's data files, and the XSD validator when an e-invoice is wanted. Same modules as the service.
import { loadConfig, projectRoot, type Config } from './config';
import { BrowserPool } from './pdf/browser-pool';
import { loadAssets } from './assets';
import { DocumentPipeline } from './pipeline';
import { acquireXsdValidator, type XsdValidatorRef } from './einvoice/xsd-validator';

export interface LocalPipeline {
  pipeline: DocumentPipeline;
  config: Config;
  close(): Promise<void>;
}

export async function openLocalPipeline(opts: { concurrency?: number; eInvoice?: boolean } = {}): Promise<LocalPipeline> {
  const config = loadConfig({ ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'test' });
  const pool = new BrowserPool({
    executablePath: config.chromiumPath,
    sandbox: config.chromiumSandbox,
    concurrency: opts.concurrency ?? 1,
    queueLimit: 1000,
    timeoutMs: Math.max(config.renderTimeoutMs, 60000),
    maxRendersPerBrowser: 0,
    maxRendersPerPage: config.pageMaxRenders,
  });
  let xsd: XsdValidatorRef | undefined;
  try {
    await pool.start();
    xsd = opts.eInvoice ? acquireXsdValidator(config) : undefined;
    await xsd?.validator.ready();
    const pipeline = new DocumentPipeline(loadAssets(projectRoot(), config.limits), pool, xsd?.validator, config);
    return {
      pipeline,
      config,
      async close() {
        await pool.close();
        await xsd?.release();
      },
    };
  } catch (err) {
    await pool.close();
    await xsd?.release();
    throw err;
  }
}
