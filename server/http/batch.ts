// POST /batch over HTTP: content negotiation (a ZIP by default, one merged PDF with Accept: application/pdf, 406
// otherwise), the quota of every document reserved at once (429 and nothing counted when it cannot take them all),
// and the answer streamed. The batch's documents are validated before anything renders (batch/batch.ts) and then
// rendered one at a time through the same pool as single requests, so those keep their turn; a client that goes
// away cancels the rest. Quota: each document is committed when its file has been handed to the answer (the ZIP) or
// when the merged PDF is complete, and every document not delivered is released. Must not hold the batch's files
// together for the ZIP (each leaves before the next is made), nor write error bodies (errors-to-http.ts does).
import { pipeline as pipe } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { errors, type FieldProblem } from '../errors';
import type { Plan } from '../keys/key-store';
import type { DocumentPipeline } from '../pipeline';
import { CREATOR } from '../pipeline';
import type { Quota, QuotaTicket } from '../quota/quota';
import type { Locale } from '../render/labels/locale';
import { checkMergedBudget, prepareBatch, renderBatchItem, type BatchFile, type BatchItem } from '../batch/batch';
import { UniqueNames } from '../documents/filename';
import { mergePdfsOffLoop } from '../pdf/merge-thread';
import { PRODUCER } from '../pdf/metadata';
import { ZipStream } from '../batch/zip';
import { rateLimitHeaders } from './rate-limit';
import { requestErrors } from './request-errors';
import { watchClient } from './client-gone';
import { bodyKind } from './body-kind';
import type { Brand } from '../documents/brand';

export interface BatchDeps {
  pipeline: DocumentPipeline;
  quota: Quota;
  logger: Logger;
  maxDocuments: number;
}

const ZIP = 'application/zip';
const PDF = 'application/pdf';

/** The merged PDF takes PDFs only: every document must be format pdf (a 400 naming each that is not). */
function onlyPdf(items: BatchItem[]): void {
  const problems: FieldProblem[] = items.flatMap((item, i) =>
    item.format === 'pdf'
      ? []
      : [{ field: `documents[${i}].format`, message: `documents[${i}].format must be pdf for one merged PDF (Accept: application/pdf)` }],
  );
  if (problems.length > 0) throw errors.validation(problems);
}

export function batchHandler(deps: BatchDeps): RequestHandler {
  const { pipeline, quota, logger } = deps;
  return async (req: Request, res: Response) => {
    const answer = req.accepts([ZIP, PDF]);
    if (answer !== ZIP && answer !== PDF) throw requestErrors.notAcceptable([ZIP, PDF]);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const items = await prepareBatch(
      pipeline,
      await pipeline.parse(bodyKind(req.get('content-type')), raw),
      res.locals.locale as Locale,
      deps.maxDocuments,
      res.locals.brand as Brand | undefined,
    );
    if (answer === PDF) {
      onlyPdf(items);
      checkMergedBudget(items, pipeline.maxPrintedLines);
    }
    res.locals.documentType = 'batch';

    const client = watchClient(res);
    const { tickets, state } = await quota.reserveMany(res.locals.account as string, res.locals.plan as Plan, items.length);
    const onLogo = (reason: string) => logger.info({ requestId: res.locals.requestId, reason }, 'logo not used');
    // One document at a time: the batch holds at most one page of the pool, whatever its size.
    // The merged PDF's documents are signed once, as one file, after they are merged.
    const render = async (i: number): Promise<BatchFile> => {
      const file = await renderBatchItem(pipeline, items[i]!, { onLogoFailure: onLogo, signal: client.signal, sign: answer === ZIP });
      if (client.signal.aborted) throw errors.clientClosed();
      return file;
    };
    try {
      res.set(rateLimitHeaders(state));
      if (answer === ZIP) await sendZip(res, items.length, render, tickets, client.signal);
      else await sendMerged(res, items.length, render, tickets, (pdf) => pipeline.signPdf(pdf));
    } catch (err) {
      // A client that left shows up as an aborted render or write: that is a 499, not a defect.
      throw client.signal.aborted ? errors.clientClosed() : err;
    } finally {
      client.release();
      // Whatever was not delivered (a failure, a client that left) is given back; committed tickets ignore this.
      await Promise.all(tickets.map((t) => t.release()));
    }
  };
}

/**
 * The ZIP, streamed: the status and headers leave with the first file (so a batch whose first render fails still
 * gets a proper error), then each file as it is made. A failure after that can only end the connection: the archive
 * then lacks its central directory, which every unzip reports as broken.
 */
async function sendZip(
  res: Response,
  count: number,
  render: (i: number) => Promise<BatchFile>,
  tickets: QuotaTicket[],
  signal: AbortSignal,
): Promise<void> {
  const zip = new ZipStream();
  const names = new UniqueNames();
  let sent: Promise<void> | undefined;
  try {
    for (let i = 0; i < count; i++) {
      const file = await render(i);
      if (!sent) {
        res.status(200).set('Content-Type', ZIP).set('Content-Disposition', 'attachment; filename="batch.zip"');
        sent = pipe(zip.output, res);
        // Its failure (the client left) is seen through the abort signal; this keeps it from going unhandled.
        sent.catch(() => undefined);
      }
      await zip.add(names.name(file.filename), file.data, !file.pdf, signal);
      await tickets[i]!.commit();
    }
    zip.end();
    await sent;
  } catch (err) {
    zip.output.destroy();
    throw err;
  }
}

/** One PDF of every document's pages in order; counted when it is complete, just before it is sent. */
async function sendMerged(
  res: Response,
  count: number,
  render: (i: number) => Promise<BatchFile>,
  tickets: QuotaTicket[],
  sign: (pdf: Uint8Array) => Promise<Uint8Array>,
): Promise<void> {
  const pdfs: Uint8Array[] = [];
  for (let i = 0; i < count; i++) pdfs.push((await render(i)).data);
  const pdf = await sign(await mergePdfsOffLoop(pdfs, { title: `Batch of ${count} documents`, creator: CREATOR }, PRODUCER));
  for (const ticket of tickets) await ticket.commit();
  res
    .status(200)
    .set('Content-Type', PDF)
    .set('Content-Disposition', 'inline; filename="batch.pdf"')
    .set('Content-Length', String(pdf.byteLength))
    .end(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
}
