// The API's operations as one route table (ROUTES): each row is a method and path, the media types its 200 answer may
// have, and the handler that makes it. app.ts mounts every row behind the same chain (locale and no-store, method, API
// key, body limits); the OpenAPI description names the same paths and answers (test/unit/http/routes.test.ts holds the
// two together). The handlers turn a body that was read into an answer through the pipelines, each document counted
// against the account's quota (counted.ts); they never write an error body (errors-to-http.ts does).
import http from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { errors } from '../errors';
import type { DocumentPipeline, LogoLogger, PreparedDocument } from '../pipeline';
import type { Quota } from '../quota/quota';
import type { Locale } from '../render/labels/locale';
import type { ReceivedPipeline, Target } from '../received-pipeline';
import { batchHandler } from './batch';
import { bodyKind } from './body-kind';
import { counted } from './counted';
import { queryProfile, queryTheme, receivedBody } from './received';
import { requestErrors } from './request-errors';

/** What the handlers use, given once when the app is made. */
export interface RouteContext {
  pipeline: DocumentPipeline;
  quota: Quota;
  logger: Logger;
  /** Received e-invoices; absent (no rule sets installed): 503 rules_unavailable. */
  received?: ReceivedPipeline;
  /** Parses and validates a document body; `eInvoice`: an e-invoice operation, which refuses other types first. */
  prepare(req: Request, res: Response, eInvoice?: boolean): Promise<PreparedDocument>;
  maxBatchDocuments: number;
}

export interface Route {
  method: 'POST';
  path: string;
  /** The media types of the 200 answer. */
  answers: readonly string[];
  handler(ctx: RouteContext): RequestHandler;
}

const PDF = 'application/pdf';
const XML = 'application/xml';

/** A made document: a PDF or an XML e-invoice, with its file name. */
type Made = { pdf: Uint8Array; filename: string } | { xml: string; filename: string };

/** What a document operation makes of a prepared document. */
type Make = (pipeline: DocumentPipeline, prepared: PreparedDocument, logoLog: LogoLogger, signal: AbortSignal) => Promise<Made>;

export const ROUTES: readonly Route[] = [
  {
    method: 'POST',
    path: '/',
    answers: [PDF],
    handler: documentRoute('pdf', false, (p, doc, log, signal) => p.renderPdf(doc, { onLogoFailure: log, signal })),
  },
  // The e-invoices: invoice, receipt and credit note only (other types are refused before the body is validated).
  {
    method: 'POST',
    path: '/ubl',
    answers: [XML],
    handler: documentRoute('ubl', true, (p, doc, log, signal) => p.renderUbl(doc, { onLogoFailure: log, signal })),
  },
  { method: 'POST', path: '/cii', answers: [XML], handler: documentRoute('cii', true, (p, doc) => p.renderCii(doc)) },
  {
    method: 'POST',
    path: '/factur-x',
    answers: [PDF],
    handler: documentRoute('factur-x', true, (p, doc, log, signal) => p.renderFacturX(doc, { onLogoFailure: log, signal })),
  },
  // A received e-invoice checked against its XSD and every official rule set of its specification: the report, a 200
  // whether it passes or not (received-pipeline.ts); one document of the quota.
  { method: 'POST', path: '/validate', answers: ['application/json'], handler: validateRoute },
  // The lifecycle status of a received French invoice (France's reform): the CDAR message; one document of the quota.
  { method: 'POST', path: '/status', answers: [XML], handler: statusRoute },
  // Many documents in one request (batch.ts).
  {
    method: 'POST',
    path: '/batch',
    answers: ['application/zip', PDF],
    handler: ({ pipeline, quota, logger, maxBatchDocuments }) => batchHandler({ pipeline, quota, logger, maxDocuments: maxBatchDocuments }),
  },
];

/**
 * A document operation: a received e-invoice (XML or PDF) is shown (`pdf`) or converted to `received`; any other
 * body is a document request, prepared and made by `make`.
 */
function documentRoute(received: 'pdf' | Target, eInvoice: boolean, make: Make): Route['handler'] {
  return (ctx) => async (req, res) => {
    if (await answerReceived(ctx, req, res, received)) return;
    const prepared = await ctx.prepare(req, res, eInvoice);
    const logoLog = (reason: string) => ctx.logger.info({ requestId: res.locals.requestId, reason }, 'logo not used');
    send(res, await counted(ctx.quota, res, async (signal) => answerOf(await make(ctx.pipeline, prepared, logoLog, signal))));
  };
}

function validateRoute(ctx: RouteContext): RequestHandler {
  return async (req, res) => {
    const body = receivedBody(req);
    if (!body)
      throw requestErrors.unsupportedMediaType(
        req.get('content-type'),
        'an e-invoice: application/xml (UBL or CII) or application/pdf (Factur-X / ZUGFeRD)',
      );
    const pipe = receiving(ctx);
    res.locals.documentType = 'received';
    res.status(200).json(await counted(ctx.quota, res, (signal) => pipe.validate(body, signal)));
  };
}

function statusRoute(ctx: RouteContext): RequestHandler {
  return async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const request = ctx.pipeline.statusRequest(await ctx.pipeline.parse(bodyKind(req.get('content-type')), raw));
    const pipe = receiving(ctx);
    res.locals.documentType = 'status';
    send(res, await counted(ctx.quota, res, async (signal) => answerOf(await pipe.status(request, signal))));
  };
}

/** The received pipeline, or 503 when the instance has no rule sets installed. */
function receiving(ctx: RouteContext): ReceivedPipeline {
  if (!ctx.received) throw errors.rulesUnavailable();
  return ctx.received;
}

/** A received e-invoice (XML or PDF) shown (`pdf`) or converted; false when the body is a document request. */
async function answerReceived(ctx: RouteContext, req: Request, res: Response, target: 'pdf' | Target): Promise<boolean> {
  const body = receivedBody(req);
  if (!body) return false;
  const pipe = receiving(ctx);
  const opts = { locale: res.locals.locale as Locale, theme: queryTheme(req) };
  res.locals.documentType = 'received';
  if (target === 'pdf') send(res, await counted(ctx.quota, res, async (signal) => answerOf(await pipe.show(body, { ...opts, signal }))));
  else {
    const profile = queryProfile(req);
    send(res, await counted(ctx.quota, res, async (signal) => answerOf(await pipe.convert(body, target, { ...opts, profile, signal }))));
  }
  return true;
}

/** A document's answer, made whole (its headers checked) before its document is counted, so that nothing can fail
 * between the count and the answer: a failure while making it releases the document instead (counted.ts). */
interface Answer {
  headers: Record<string, string>;
  body: Buffer | string;
}

/** The answer of a made document: XML (UBL, CII) or a PDF, inline under its file name. */
function answerOf(out: Made): Answer {
  const headers: Record<string, string> =
    'xml' in out
      ? { 'Content-Type': 'application/xml; charset=utf-8', 'Content-Disposition': inlineDisposition(out.filename) }
      : {
          'Content-Type': 'application/pdf',
          'Content-Disposition': inlineDisposition(out.filename),
          'Content-Length': String(out.pdf.byteLength),
        };
  for (const [name, value] of Object.entries(headers)) http.validateHeaderValue(name, value);
  return { headers, body: 'xml' in out ? out.xml : Buffer.from(out.pdf.buffer, out.pdf.byteOffset, out.pdf.byteLength) };
}

function send(res: Response, answer: Answer): void {
  res.status(200).set(answer.headers);
  if (typeof answer.body === 'string') res.send(answer.body);
  else res.end(answer.body);
}

/** `inline; filename="…"` (docs/decisions.md §6), plus RFC 6266 filename* when the name is not plain ASCII. */
function inlineDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  if (ascii === filename) return `inline; filename="${filename}"`;
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
