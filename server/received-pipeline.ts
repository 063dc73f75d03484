// Received e-invoices, from the bytes that arrive to what each operation answers, with no HTTP in it: a Factur-X /
// ZUGFeRD PDF opened for the XML inside and its PDF/A-3 structure checked (einvoice/received/facturx-pdf.ts), the XML
// checked against its XSD and every official rule set of its specification (einvoice/received/check.ts), read into the
// one EN 16931 model (ubl/read.ts, cii/read.ts), then shown as a PDF (DocumentPipeline.renderReceived) or written in
// another syntax from that model (retarget.ts says which specification the output keeps). An invoice that breaks its
// own rules is never converted into something that looks valid: invalid_e_invoice with its report.
import { inTurn } from './cpu-turns';
import type { XsdValidator } from './einvoice/xsd-validator';
import { pdfFilename } from './documents/filename';
import { DomainError, errors } from './errors';
import { WorkerPoolError } from './workers/pool';
import { readCii } from './einvoice/cii/read';
import type { EInvoice, Profile } from './einvoice/model';
import { checked, packageFacturX, writeCii, writeUbl, type RenderedXml } from './einvoice/outputs';
import {
  applicable,
  checkReceived,
  CREDIT_NOTE_TYPE_CODES,
  type CheckedDocument,
  type Finding,
  type ValidationReport,
} from './einvoice/received/check';
import { checkConformanceLevel, readFacturXPdf, type FacturXPdf } from './einvoice/received/facturx-pdf';
import { retarget, type Target } from './einvoice/received/retarget';
import { PROFILES } from './einvoice/profiles';
import { carriageProblems } from './einvoice/profile-terms';
import type { RulesPool } from './einvoice/rules/rules-pool';
import { readUbl } from './einvoice/ubl/read';
import { writeCdar } from './einvoice/cdar/build';
import { statusInput, type StatusRequest } from './einvoice/cdar/status-of';
import { decodeXml } from './einvoice/xml-tree';
import { PRODUCER } from './pdf/metadata';
import { CREATOR, type DocumentPipeline, type RenderedDocument } from './pipeline';
import type { ReceivedCheck } from './render/received/check';
import type { Locale } from './render/labels/locale';

export type { Target };

/** A received body: the XML of a UBL or CII invoice, or a Factur-X / ZUGFeRD PDF. */
export interface ReceivedBody {
  kind: 'xml' | 'pdf';
  bytes: Uint8Array;
}

export interface ShowOptions {
  locale: Locale;
  theme?: string;
  signal?: AbortSignal;
}

export interface ConvertOptions extends ShowOptions {
  /** Another specification for the output than the input's own. */
  profile?: Profile;
}

/** The PDF/A-3 checks of a received Factur-X PDF, as a rule set of the report. */
const PDF_RULE_SET = { name: 'PDF/A-3 and Factur-X structure', version: 'ISO 19005-3, Factur-X 1.09' };

/** The report with the PDF's structure checks first (the container is read before the XML inside it). */
function withPdfChecks(report: ValidationReport, pdf: FacturXPdf): ValidationReport {
  const level = checkConformanceLevel(pdf.declared.conformanceLevel, report.specification ?? '');
  const findings: Finding[] = [...pdf.checks, ...(level ? [level] : [])].map((c) => ({
    rule: c.rule,
    severity: c.severity,
    message: c.message,
    location: c.location ?? '',
    rule_set: PDF_RULE_SET.name,
  }));
  const fatal = findings.filter((f) => f.severity === 'fatal');
  const errorsFound = [...fatal, ...report.errors];
  return {
    ...report,
    valid: errorsFound.length === 0,
    rule_sets: [{ ...PDF_RULE_SET, fatal: fatal.length, warnings: findings.length - fatal.length }, ...report.rule_sets],
    errors: errorsFound,
    warnings: [...findings.filter((f) => f.severity !== 'fatal'), ...report.warnings],
  };
}

/** The check line of the shown PDF: the rule sets that ran (not the XSD, not one skipped) and the rules broken. */
function checkLine(report: ValidationReport): ReceivedCheck {
  return {
    specification: report.specification,
    ruleSets: report.rule_sets.filter((s) => !s.skipped && !/XSD|PDF\/A/.test(s.name)).map((s) => ({ name: s.name, version: s.version })),
    valid: report.valid,
    broken: [...new Set(report.errors.map((f) => f.rule))],
  };
}

/** Whether the document failed its XSD (it cannot then be read into the model: its structure is not the syntax's). */
const failedXsd = (report: ValidationReport): boolean => report.errors.some((f) => f.rule === 'XSD');

/** A received body checked: a PDF's XML (or the XML), with the PDF's own structure checks in the report. */
export async function checkReceivedBody(
  body: ReceivedBody,
  xsd: XsdValidator,
  rules: RulesPool,
  signal?: AbortSignal,
  maxLines?: number,
): Promise<CheckedDocument> {
  try {
    const pdf = body.kind === 'pdf' ? await readFacturXPdf(body.bytes, {}, signal) : undefined;
    const xml = decodeXml(pdf ? pdf.xml : body.bytes);
    if (maxLines !== undefined) refuseLongerThan(xml, maxLines);
    const doc = await checkReceived(xml, { xsd, rules, fromFacturXPdf: Boolean(pdf), signal });
    return pdf ? { ...doc, report: withPdfChecks(doc.report, pdf) } : doc;
  } catch (err) {
    // A rule set that could not finish on this document is in its report (check.ts); these are the pool's own.
    if (!(err instanceof WorkerPoolError)) throw err;
    if (err.reason === 'busy') throw errors.rendererBusy(BUSY_RETRY_SECONDS);
    throw errors.rulesUnavailable();
  }
}

/** A line of either syntax, as a start tag (UBL InvoiceLine, CreditNoteLine; CII IncludedSupplyChainTradeLineItem). */
const LINE_TAG = /<(?:[\w.-]+:)?(?:InvoiceLine|CreditNoteLine|IncludedSupplyChainTradeLineItem)[\s>/]/g;

/** Shown or converted, an invoice is read into the model and printed: one of more lines than MAX_ITEMS is refused
 * before anything is checked or read (a regular expression over the text: about 15 ms for 12 MB). */
function refuseLongerThan(xml: string, maxLines: number): void {
  let lines = 0;
  for (LINE_TAG.lastIndex = 0; LINE_TAG.exec(xml) && lines <= maxLines;) lines++;
  if (lines > maxLines) {
    throw errors.validation([
      {
        field: '(body)',
        message: `the invoice has more than ${maxLines} lines; at most ${maxLines} (MAX_ITEMS) are shown or converted (POST /validate checks any)`,
      },
    ]);
  }
}

/** What the CII of the invoice's profile has no place for is refused, naming it, never written with some left out:
 * sub-lines outside the profiles that carry them; more than one preceding invoice in CII D16B (a plain CII,
 * XRechnung's: InvoiceReferencedDocument 0..1; Factur-X's profiles and D22B have several). */
function refuseWhatCiiCannotCarry(invoice: EInvoice, xsd: string): void {
  const subLines = invoice.lines.filter((l) => l.subLines).length;
  if (subLines > 0 && !PROFILES[invoice.profile].subLines) {
    throw errors.validation([
      {
        field: '(body)',
        message: `${subLines} line${subLines === 1 ? ' has' : 's have'} sub-lines (cac:SubInvoiceLine, XRechnung's extension BG-DEX-01), which CII carries only in the profiles extended and extended_ctc_fr (XRechnung's CII has none, BR-DEX-15): convert with ?profile=extended, or keep the invoice in UBL`,
      },
    ]);
  }
  const n = invoice.precedingInvoices.length;
  if (xsd !== 'CrossIndustryInvoice' || n <= 1) return;
  throw errors.validation([
    {
      field: '(body)',
      message: `the invoice refers to ${n} preceding invoices (BG-3: ${invoice.precedingInvoices.map((p) => p.number).join(', ')}); CII D16B carries one: keep it in UBL, or convert it with ?profile=en16931 to /factur-x, whose XML carries them all`,
    },
  ]);
}

/**
 * The terms an invoice converted to the Factur-X profile the query names (`?profile=minimum`, `basic_wl`, `basic`) holds
 * and that profile has no place for (profile-terms.ts), refused naming the query's field, as a JSON request's are
 * naming its own: written anyway, the output failed the profile's XSD (an internal error).
 */
function refuseWhatTheProfileCannotCarry(invoice: EInvoice, target: Target): void {
  if (target === 'ubl') return; // The profiles that lack terms are made in CII only (retarget.ts refuses them in UBL).
  const problems = carriageProblems(invoice, PROFILES[invoice.profile].facturX?.level ?? invoice.profile);
  if (problems.length === 0) return;
  throw errors.validation(problems.map((p) => ({ field: 'profile', message: `profile ${invoice.profile}: the invoice's ${p.message}` })));
}

/** Seconds to retry after when every rule checker and queue place is taken: a check takes a fraction of a second to seconds. */
const BUSY_RETRY_SECONDS = 2;

export class ReceivedPipeline {
  /** `maxLines`: MAX_ITEMS, the longest invoice shown or converted. */
  constructor(
    private readonly pipeline: DocumentPipeline,
    private readonly xsd: XsdValidator,
    private readonly rules: RulesPool,
    private readonly maxLines: number,
  ) {}

  /** The /validate report of a received body. */
  async validate(body: ReceivedBody, signal?: AbortSignal): Promise<ValidationReport> {
    return (await checkReceivedBody(body, this.xsd, this.rules, signal)).report;
  }

  /** The PDF a person reads to approve the invoice, with the line saying under which rules it was checked. A document
   * that fails its XSD cannot be read, and is answered with its report (invalid_e_invoice). */
  async show(body: ReceivedBody, opts: ShowOptions): Promise<RenderedDocument> {
    const doc = await this.check(body, opts.signal);
    if (failedXsd(doc.report)) throw errors.invalidEInvoice(doc.report.errors.length, doc.report);
    return this.pipeline.renderReceived(await inTurn(() => this.read(doc)), checkLine(doc.report), opts.locale, {
      theme: opts.theme,
      signal: opts.signal,
    });
  }

  /** The same invoice in the `target` syntax (retarget.ts: its specification kept where the syntax has it). */
  async convert(body: ReceivedBody, target: Target, opts: ConvertOptions): Promise<RenderedXml | RenderedDocument> {
    const doc = await this.check(body, opts.signal);
    if (!doc.report.valid) throw errors.invalidEInvoice(doc.report.errors.length, doc.report);
    const invoice = await inTurn(() => retarget(this.read(doc), target, opts.profile));
    if (opts.profile) refuseWhatTheProfileCannotCarry(invoice, target);
    const filename = pdfFilename({
      type: CREDIT_NOTE_TYPE_CODES.has(invoice.typeCode) ? 'credit_note' : 'invoice',
      number: invoice.number,
    }).replace(/\.pdf$/, '.xml');
    if (target === 'ubl') {
      const ubl = await writeUbl(invoice);
      await checked(this.xsd, ubl.xml, ubl.root);
      // Every output is checked, not only one written to another specification: a term the other syntax cannot carry
      // (XRechnung's third-party payments, BT-DEX-002) must not make an invalid invoice look converted.
      await this.outputMustPass(ubl.xml, target, opts.profile, opts.signal);
      return { xml: ubl.xml, root: ubl.root, filename };
    }
    // The XSD /validate will check the output against (check.ts's table): a Factur-X profile's, D22B, or D16B.
    const recognised = {
      syntax: 'cii',
      documentType: 'invoice',
      profile: invoice.profile,
      french: PROFILES[invoice.profile].france,
    } as const;
    const { xsd } = applicable(recognised, target === 'factur-x');
    refuseWhatCiiCannotCarry(invoice, xsd);
    const xml = await writeCii(invoice);
    await checked(this.xsd, xml, xsd);
    await this.outputMustPass(xml, target, opts.profile, opts.signal);
    if (target === 'cii') return { xml, root: 'CrossIndustryInvoice', filename };
    // Printed unsigned: the Factur-X rewrite comes first, the signature last.
    const shown = await this.pipeline.renderReceived(invoice, checkLine(doc.report), opts.locale, {
      theme: opts.theme,
      signal: opts.signal,
      sign: false,
    });
    const info = { title: shown.html.title, author: shown.html.author, creator: CREATOR, producer: PRODUCER };
    return { ...shown, pdf: await this.pipeline.signPdf(await packageFacturX(invoice, xml, { pdf: shown.pdf, info })) };
  }

  /** The CDAR lifecycle status message (France's reform) of a received French invoice, as `request` states it: the
   * invoice is checked (its XSD must pass for it to be read; its rules need not: a refusal is for an invoice that
   * breaks them too), known to be French, read, and the message written and checked against the CDAR XSD. */
  async status(request: StatusRequest, signal?: AbortSignal): Promise<{ xml: string; filename: string }> {
    const doc = await this.check({ kind: 'xml', bytes: Buffer.from(request.invoice, 'utf8') }, signal).catch((err: unknown) => {
      // The invoice is a field of the request here, not the body: what is wrong with it is a problem of that field.
      if (err instanceof DomainError && (err.code === 'unsupported_document' || err.code === 'malformed_xml')) {
        throw errors.validation([
          { field: 'invoice', message: `invoice: ${err.message.replace(/^The body /, 'the text ').replace(/\.$/, '')}` },
        ]);
      }
      throw err;
    });
    if (failedXsd(doc.report)) {
      throw errors.validation([
        {
          field: 'invoice',
          message: `invoice is not valid against its XSD (${doc.report.errors[0]!.message.slice(0, 200)}): it cannot be read; POST /validate reports it whole`,
        },
      ]);
    }
    if (!doc.report.french) {
      throw errors.validation([
        {
          field: 'invoice',
          message:
            "invoice is not a French e-invoice: lifecycle statuses are France's reform's (an invoice under it states a billing framework in BT-23, B1, S1, M1 …, or an electronic address in scheme 0225)",
        },
      ]);
    }
    const invoice = await inTurn(() => this.read(doc));
    const xml = writeCdar(statusInput(request, invoice, new Date()));
    await checked(this.xsd, xml, 'CrossDomainAcknowledgementAndResponse');
    const name = pdfFilename({ type: 'invoice', number: invoice.number })
      .replace(/^invoice-/, 'status-')
      .replace(/\.pdf$/, `-${request.status}.xml`);
    return { xml, filename: name };
  }

  /** Checked to be shown or converted: no longer than MAX_ITEMS lines. */
  private check(body: ReceivedBody, signal?: AbortSignal): Promise<CheckedDocument> {
    return checkReceivedBody(body, this.xsd, this.rules, signal, this.maxLines);
  }

  /** The document in the model, by the reader of its syntax, as the specification its report names. */
  private read(doc: CheckedDocument): EInvoice {
    const profile = doc.report.profile ?? 'en16931';
    return doc.report.syntax === 'ubl' ? readUbl(doc.root, profile) : readCii(doc.root, profile);
  }

  /** Every output is checked against the rules of its own specification: an invoice that lacks what another
   * specification asks (XRechnung's buyer reference …), or a term the other syntax has no place for, is refused with
   * the output's report, never sent. */
  private async outputMustPass(xml: string, target: Target, asked: Profile | undefined, signal?: AbortSignal): Promise<void> {
    const { report } = await checkReceived(xml, { xsd: this.xsd, rules: this.rules, fromFacturXPdf: target === 'factur-x', signal });
    if (!report.valid) throw errors.invalidConversion(report.errors.length, report);
    // A French profile asked and an output France's rules do not recognise as theirs (no billing framework in BT-23, no
    // address in scheme 0225): its rules never ran on it, and it is not what was asked.
    if (asked && PROFILES[asked].france && !report.french) {
      throw errors.validation([
        {
          field: 'profile',
          message: `profile ${asked}: the invoice is not a French e-invoice: it states no billing framework of France's reform in BT-23 (B1, S1, M1 …) and no electronic address in scheme 0225, which the received XML does not hold; issue it with POST /ubl or /cii and e_invoice.profile ${asked}`,
        },
      ]);
    }
  }
}
