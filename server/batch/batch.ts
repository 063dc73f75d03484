// POST /batch's core, with no HTTP in it: the batch body read and every document in it parsed and validated before
// anything renders (one validation_failed naming each bad field as `documents[i].…`), then each document rendered in the format it
// asks for, and the file names a batch's archive gives them (as the single operation names each, de-duplicated).
// Must not render anything while validating, nor know about quota, the answer's media type or streams.
import { inTurn } from '../cpu-turns';
import { DomainError, errors, type FieldProblem } from '../errors';
import type { DocumentPipeline, PreparedDocument, RenderOptions } from '../pipeline';
import type { Locale } from '../render/labels/locale';
import { E_INVOICE_OUTPUTS, type EInvoiceOutput } from '../einvoice/outputs';
import type { ParsedBody } from '../documents/parse-body';
import { printedLines } from '../documents/print-budget';
import type { Brand } from '../documents/brand';

/** A batch's formats: the PDF and every e-invoice output. */
export type BatchFormat = 'pdf' | EInvoiceOutput;
export const BATCH_FORMATS: readonly BatchFormat[] = ['pdf', ...(Object.keys(E_INVOICE_OUTPUTS) as EInvoiceOutput[])];

export interface BatchItem {
  format: BatchFormat;
  prepared: PreparedDocument;
}

export interface BatchFile {
  filename: string;
  data: Uint8Array;
  /** Whether `data` is a PDF (the merged answer takes only those). */
  pdf: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFormat = (v: unknown): v is BatchFormat => typeof v === 'string' && (BATCH_FORMATS as readonly string[]).includes(v);
const formatProblem = (field: string): FieldProblem => ({ field, message: `${field} must be one of ${BATCH_FORMATS.join(', ')}` });

/** `documents[3].items[0].quantity` from `items[0].quantity`; a problem with the whole body names the document. */
function prefixed(index: number, problem: FieldProblem): FieldProblem {
  const base = `documents[${index}]`;
  const field = problem.field === '(body)' ? base : `${base}.${problem.field}`;
  return { field, message: `${base}: ${problem.message}` };
}

/** The batch's own fields: `format` (default for every document) and 1 to `max` objects in `documents`. */
function batchShape(body: unknown, max: number): { format: BatchFormat; documents: ParsedBody[] } {
  if (!isObject(body)) throw errors.notAnObject();
  const problems: FieldProblem[] = [];
  const format = body.format ?? 'pdf';
  if (!isFormat(format)) problems.push(formatProblem('format'));
  const documents = body.documents;
  if (!Array.isArray(documents) || documents.length === 0 || documents.length > max) {
    problems.push({ field: 'documents', message: `documents must be a list of 1 to ${max} documents` });
  }
  if (problems.length > 0) throw errors.validation(problems);
  // The entries of a parsed body are JSON values themselves.
  return { format: format as BatchFormat, documents: documents as ParsedBody[] };
}

/** One merged PDF of a batch prints at most this many documents' worth of lines (MAX_PRINTED_LINES each): 100
 * documents each within its own budget made one 5,800-page PDF, held whole. (A ZIP is made and sent a document at a
 * time, and an e-invoice that is not a PDF prints nothing: neither is bounded so.) */
const BATCH_PRINTED_DOCUMENTS = 4;

/** Refuses the merged PDF of `items` when their documents print more than BATCH_PRINTED_DOCUMENTS × `maxLines` lines
 * in all. */
export function checkMergedBudget(items: BatchItem[], maxLines: number): void {
  const lines = items.reduce((n, item) => n + printedLines(item.prepared.doc), 0);
  const most = BATCH_PRINTED_DOCUMENTS * maxLines;
  if (lines <= most) return;
  const amount = (n: number) => n.toLocaleString('en-US');
  throw errors.validation([
    {
      field: 'documents',
      message: `documents print about ${amount(lines)} lines in all; a batch may print at most ${amount(most)} (about ${amount(Math.round(most / 40))} pages): send it as several`,
    },
  ]);
}

/**
 * Reads a batch body and prepares every document (each as POST / would, plus the e-invoice type check of its
 * format). Throws one error with every problem of every document, each field prefixed `documents[i].`: the code is
 * the documents' own when they all share it (unsupported_type), validation_failed otherwise.
 */
export async function prepareBatch(
  pipeline: DocumentPipeline,
  body: ParsedBody,
  locale: Locale,
  max: number,
  brand?: Brand,
): Promise<BatchItem[]> {
  const shape = batchShape(body, max);
  const items: BatchItem[] = [];
  const failures: DomainError[] = [];
  const problems: FieldProblem[] = [];
  for (const [i, raw] of shape.documents.entries()) {
    const fail = (err: DomainError, details: FieldProblem[]) => {
      failures.push(err);
      problems.push(...details.map((d) => prefixed(i, d)));
    };
    let doc = raw;
    let format = shape.format;
    if (isObject(raw) && 'format' in raw) {
      const { format: own, ...rest } = raw;
      if (!isFormat(own)) {
        fail(errors.validation([formatProblem('format')]), [formatProblem('format')]);
        continue;
      }
      format = own;
      doc = rest;
    }
    try {
      // Each document at its own turn of the event loop (cpu-turns.ts): a batch of long ones never holds it.
      const prepared = await inTurn(() => pipeline.prepare(doc, locale, format !== 'pdf', brand));
      // Mapped into the model as its operation will, and dropped: what the model refuses (a missing country, number
      // or VAT reason) is refused now rather than after the ZIP has begun.
      if (format !== 'pdf') pipeline.eInvoiceModel(prepared, format);
      items.push({ format, prepared });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      fail(err, err.facts.details ?? [{ field: '(body)', message: err.message }]);
    }
  }
  if (failures.length === 0) return items;
  const sentence = errors.validation(problems);
  const code = failures.every((f) => f.code === failures[0]!.code) ? failures[0]!.code : 'validation_failed';
  throw code === 'validation_failed'
    ? sentence
    : new DomainError(code, sentence.message.replace(/^Invalid document/, 'Invalid batch'), { details: problems });
}

/** One document of a batch, made as its single operation makes it (POST /, /ubl, /cii, /factur-x). */
export async function renderBatchItem(pipeline: DocumentPipeline, item: BatchItem, options: RenderOptions): Promise<BatchFile> {
  const xml = ({ xml, filename }: { xml: string; filename: string }): BatchFile => ({
    filename,
    data: Buffer.from(xml, 'utf8'),
    pdf: false,
  });
  switch (item.format) {
    case 'pdf': {
      const { pdf, filename } = await pipeline.renderPdf(item.prepared, options);
      return { filename, data: pdf, pdf: true };
    }
    case 'factur-x': {
      const { pdf, filename } = await pipeline.renderFacturX(item.prepared, options);
      return { filename, data: pdf, pdf: true };
    }
    case 'ubl':
      return xml(await pipeline.renderUbl(item.prepared, options));
    case 'cii':
      return xml(await pipeline.renderCii(item.prepared));
  }
}
