// The pipeline without HTTP, for command-line tools (npm run render, npm run validate, render-fixtures, visual:update):
// one Chromium page set, the project's data files, the XSD validator when an e-invoice is wanted, and the official
// rule sets when a received one is read. Same modules as the service.
import { loadConfig, projectRoot, type Config } from './config';
import { startBrowserPool } from './browser-setup';
import { loadAssets } from './assets';
import { PdfSigning } from './pdf-signing';
import { DocumentPipeline } from './pipeline';
import { acquireXsdValidator, type XsdValidatorRef } from './einvoice/xsd-validator';
import { acquireRulesPool, type RulesPoolRef } from './einvoice/rules/rules-pool';
import { ReceivedPipeline } from './received-pipeline';

export interface LocalPipeline {
  pipeline: DocumentPipeline;
  /** Received e-invoices: present when opened with `received`. */
  received?: ReceivedPipeline;
  config: Config;
  close(): Promise<void>;
}

export async function openLocalPipeline(
  opts: { concurrency?: number; eInvoice?: boolean; received?: boolean } = {},
): Promise<LocalPipeline> {
  const config = loadConfig({ ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'test' });
  // One user's files, one at a time by default: no queue bound worth refusing over, a slow machine's time, one browser
  // for the run and no renderer memory limit.
  const pool = await startBrowserPool(config, {
    concurrency: opts.concurrency ?? 1,
    queueLimit: 1000,
    timeoutMs: Math.max(config.renderTimeoutMs, 60000),
    maxRendersPerBrowser: 0,
    rendererMaxRssMiB: 0,
  });
  let xsd: XsdValidatorRef | undefined;
  let rules: RulesPoolRef | undefined;
  try {
    xsd = opts.eInvoice || opts.received ? acquireXsdValidator(config) : undefined;
    rules = opts.received ? acquireRulesPool(config) : undefined;
    await Promise.all([xsd?.validator.ready(), rules?.pool.ready()]);
    const signing = await PdfSigning.start(config);
    const pipeline = new DocumentPipeline(loadAssets(projectRoot(), config.limits), pool, xsd?.validator, config, signing);
    return {
      pipeline,
      received: xsd && rules ? new ReceivedPipeline(pipeline, xsd.validator, rules.pool, config.limits.maxItems) : undefined,
      config,
      async close() {
        await pool.close();
        await rules?.release();
        await xsd?.release();
      },
    };
  } catch (err) {
    await pool.close();
    await rules?.release();
    await xsd?.release();
    throw err;
  }
}
