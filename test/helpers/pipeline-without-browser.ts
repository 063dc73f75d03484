// The real DocumentPipeline (server/pipeline.ts) with the project's data files and the real XSD validator, and a
// stand-in for Chromium: a renderer that records what it was asked to print and answers with a small PDF written by
// hand. Enough for everything around printing (parse, validate, totals, HTML, the PDF's post-processing, the
// e-invoices and their XSD); what Chromium itself prints is test/e2e's.

import { loadConfig, type Config } from '../../server/config';
import { DocumentPipeline } from '../../server/pipeline';
import type { PdfOptions, PdfRenderer, PoolStats, PrintDocument } from '../../server/pdf/renderer';
import { acquireXsdValidator, type XsdValidatorRef } from '../../server/einvoice/xsd-validator';
import { smallPdf } from './small-pdf';
import { projectAssets } from './project-assets';

export interface PrintCall {
  content: string | PrintDocument;
  options: PdfOptions;
}

/** A renderer that prints nothing: each call is recorded and answered with the same one-page PDF. */
export class RecordingRenderer implements PdfRenderer {
  readonly calls: PrintCall[] = [];
  private readonly pdf = smallPdf();

  render(content: string | PrintDocument, options: PdfOptions): Promise<Uint8Array> {
    this.calls.push({ content, options });
    return Promise.resolve(new Uint8Array(this.pdf));
  }

  isReady(): boolean {
    return true;
  }

  stats(): PoolStats {
    throw new Error('not asked of a recording renderer');
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export interface PipelineWithoutBrowser {
  pipeline: DocumentPipeline;
  renderer: RecordingRenderer;
  config: Config;
  close(): Promise<void>;
}

/** A pipeline on the test configuration (time zone UTC unless `env` says otherwise), ready to use. */
export async function openPipelineWithoutBrowser(env: Record<string, string> = {}): Promise<PipelineWithoutBrowser> {
  const config = loadConfig({ DOCUMENT_TIME_ZONE: 'UTC', ...env });
  const xsd: XsdValidatorRef = acquireXsdValidator(config);
  await xsd.validator.ready();
  const renderer = new RecordingRenderer();
  const pipeline = new DocumentPipeline(projectAssets(config.limits), renderer, xsd.validator, config);
  return { pipeline, renderer, config, close: () => xsd.release() };
}
