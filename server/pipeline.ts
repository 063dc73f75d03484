// The core, with no HTTP in it: request body → validated document → totals → HTML → PDF, or an e-invoice (UBL, CII,
// Factur-X: einvoice/outputs.ts, from the one EN 16931 model), and a received e-invoice as a PDF
// (render/received/view.ts), from the data files loaded once (assets.ts). Used by the HTTP layer and by command-line
// tools alike.
import { inTurn } from './cpu-turns';
import type { Assets } from './assets';
import type { Config } from './config';
import { errors } from './errors';
import { isDocumentType, isEInvoiceType, type DocumentRequest } from './documents/model';
import { maxBodyValues, type BodyKind, type ParsedBody } from './documents/parse-body';
import { readBody } from './documents/read-body';
import { DEFAULT_THEME } from './documents/theme-ids';
import { underBrand, validateBrand, type Brand } from './documents/brand';
import { validateDocument, validateStatusRequest } from './documents/validate';
import type { StatusRequest } from './einvoice/cdar/status-of';
import type { LogoOptions } from './logo/fetch-logo';
import { LogoCache } from './logo/logo-cache';
import { computeTotals, type Totals } from './money/totals';
import { amountBoundProblems } from './money/bounds';
import type { PdfRenderer } from './pdf/renderer';
import { printBudgetProblems, receivedBudgetProblems } from './documents/print-budget';
import type { RenderedHtml, ThemeDraft } from './render/html';
import { negotiateLocale, type LanguagePreferences, type Locale } from './render/labels/locale';
import { QR_BILL_TAGS, type QrBillLanguage } from './render/labels/qr-bill-labels';
import { buildView, labelFor } from './render/view/view-model';
import { pdfFilename } from './documents/filename';
import { toEInvoice } from './einvoice/map';
import {
  E_INVOICE_OUTPUTS,
  embedsPdf,
  makeCii,
  makeFacturX,
  makeUbl,
  type EInvoiceContext,
  type EInvoiceOutput,
  type RenderedXml,
} from './einvoice/outputs';
import { archivePdfOffLoop } from './pdf/archive-thread';
import { PRODUCER } from './pdf/metadata';
import { paymentCodeOf, type PaymentCode } from './payments/request';
import type { PdfSigning } from './pdf-signing';
import type { XsdValidator } from './einvoice/xsd-validator';
import type { EInvoice } from './einvoice/model';
import { receivedPage, receivedParts, type ReceivedCheck } from './render/received/view';

/** The PDF Creator entry (docs/decisions.md §7: "this service"). */
export const CREATOR = 'docgen-service';

export interface PreparedDocument {
  doc: DocumentRequest;
  locale: Locale;
  totals: Totals;
  /** The payment QR code asked for (payment_code), checked. */
  paymentCode?: PaymentCode;
  /** The account's brand (documents/brand.ts): its colours and font print on the page. */
  brand?: Brand;
  /** The studio's unsaved edits of the document's theme (render/html.ts ThemeDraft). */
  draft?: ThemeDraft;
}

export interface RenderedDocument {
  pdf: Uint8Array;
  filename: string;
  html: RenderedHtml;
}

export type LogoLogger = (reason: string) => void;

/** How one document is made, beside what it is. */
export interface RenderOptions {
  /** Told why the request's logo was left out (unreachable, too big, not an image): the document prints without it. */
  onLogoFailure?: LogoLogger;
  /** Aborted when nobody waits for the document any more: the render is cancelled. */
  signal?: AbortSignal;
  /** False leaves a PDF unsigned for a caller that changes it further (a batch's merged PDF is signed once, whole);
   * true by default. */
  sign?: boolean;
}

export type { RenderedXml };

export class DocumentPipeline {
  /** Logos by URL (data: URIs pass through: they come with the request). */
  readonly logos: LogoCache;

  constructor(
    public assets: Assets,
    private readonly pdf: PdfRenderer,
    private readonly xsd: XsdValidator | undefined,
    private readonly config: Pick<
      Config,
      'limits' | 'timeZone' | 'logoAllowPrivate' | 'logoAllowedHosts' | 'logoTimeoutMs' | 'logoMaxBytes' | 'logoCache'
    >,
    /** Signs every finished PDF (PAdES); absent: PDFs are not signed. */
    private readonly signing?: PdfSigning,
  ) {
    this.logos = new LogoCache(config.logoCache);
  }

  /** The lines one document may print (MAX_PRINTED_LINES); a batch may print BATCH_PRINTED_DOCUMENTS times as many. */
  get maxPrintedLines(): number {
    return this.config.limits.maxPrintedLines;
  }

  /** Swaps in freshly loaded data files (live reload in development); requests in flight keep the old ones. */
  replaceAssets(assets: Assets): void {
    this.assets = assets;
  }

  /** Parses a raw body of `kind` (empty_body, malformed_json, validation_failed on failure); a big form is read in a
   * worker thread. */
  parse(kind: BodyKind, raw: Buffer): Promise<ParsedBody> {
    const { maxItems, maxCustomFields } = this.config.limits;
    return readBody(kind, raw, { maxItems, maxValues: maxBodyValues(maxItems, maxCustomFields) });
  }

  /** The body of POST /status, validated against its schema (validation_failed naming every field). */
  statusRequest(body: ParsedBody): StatusRequest {
    return validateStatusRequest(this.assets.schemas, body) as StatusRequest;
  }

  /** How logos are fetched (LOGO_* settings). */
  private logoOptions(): LogoOptions {
    return {
      allowPrivate: this.config.logoAllowPrivate,
      allowedHosts: this.config.logoAllowedHosts,
      timeoutMs: this.config.logoTimeoutMs,
      maxBytes: this.config.logoMaxBytes,
    };
  }

  /** The body of PUT /brand as the brand to store: checked (documents/brand.ts), its logo fetched and checked once
   * and kept as a data: URI, so that documents print the account's own copy. */
  async brand(body: ParsedBody): Promise<Brand> {
    const brand = validateBrand(this.assets.schemas, body, {
      fonts: this.assets.html.latinFamilies,
      languages: this.assets.catalogues.languages,
    });
    if (brand.logo === undefined) return brand;
    const logo = await this.logos.get(brand.logo, this.logoOptions());
    if (!logo.ok) throw errors.validation([{ field: 'logo', message: `logo cannot be used: ${logo.reason}` }], 'brand');
    return { ...brand, logo: logo.dataUri };
  }

  /** The locale for the client's language tags, most preferred first (never fails; en-US when nothing matches). */
  locale(preferences: LanguagePreferences = []): Locale {
    const locale = negotiateLocale(preferences, this.assets.catalogues.defaultTags);
    const qrBill = negotiateLocale(preferences, QR_BILL_TAGS).language as QrBillLanguage;
    return qrBill === 'en' ? locale : { ...locale, qrBill };
  }

  /** Validates and computes totals; throws validation_failed with every problem, also when the document would print
   * too long.
   * `eInvoice`: for an e-invoice operation (invoice, receipt and credit note only). */
  /** `brand`: the account's, under the request (its theme, logo, footer and paper where the request sends none). */
  prepare(body: ParsedBody, locale: Locale, eInvoice = false, brand?: Brand): PreparedDocument {
    // An e-invoice is refused for another type before the body is validated: its fields do not matter then.
    if (eInvoice) {
      const sent = (body as { type?: unknown } | null)?.type;
      const type = typeof sent === 'string' && sent.trim() !== '' ? sent.trim().toLowerCase() : 'invoice';
      if (isDocumentType(type) && !isEInvoiceType(type)) throw errors.eInvoiceType(type);
    }
    // A brand's theme that is no longer offered (its folder removed) is left out, not every document refused.
    const usable = brand?.theme && !this.assets.html.themes.includes(brand.theme) ? { ...brand, theme: undefined } : brand;
    const doc = validateDocument(this.assets.schemas, underBrand(body, usable));
    const tooLong = printBudgetProblems(doc, this.config.limits.maxPrintedLines);
    if (tooLong.length > 0) throw errors.validation(tooLong);
    const totals = computeTotals(doc);
    const tooLarge = amountBoundProblems(totals, this.config.limits.maxAmount);
    if (tooLarge.length > 0) throw errors.validation(tooLarge);
    const payment = paymentCodeOf(doc, totals);
    if (payment.problems.length > 0) throw errors.validation(payment.problems);
    return { doc, locale, totals, paymentCode: payment.code, brand };
  }

  async renderHtml(prepared: PreparedDocument, onLogoFailure?: LogoLogger): Promise<RenderedHtml> {
    const { doc, locale, totals, paymentCode, brand } = prepared;
    let logoDataUri: string | undefined;
    if (doc.logo && doc.logo === brand?.logo && doc.logo.startsWith('data:image/')) {
      // The brand's logo is stored as this service wrote it when the brand was set (brand() below: fetched, decoded
      // under the pixel budget and written again as a data: URI): printed as it is, not decoded again for every
      // document. Anything else a brand might hold is checked as a request's logo is.
      logoDataUri = doc.logo;
    } else if (doc.logo) {
      const logo = await this.logos.get(doc.logo, this.logoOptions());
      if (logo.ok) logoDataUri = logo.dataUri;
      else onLogoFailure?.(logo.reason);
    }
    const view = await inTurn(() =>
      buildView(doc, totals, {
        catalogues: this.assets.catalogues,
        locale,
        timeZone: this.config.timeZone,
        logoDataUri,
        paymentCode,
        brand: brand && { accent: brand.accent_color, text: brand.text_color, font: brand.font },
      }),
    );
    return inTurn(() => this.assets.html.render(view, doc.theme, prepared.draft));
  }

  /** The request's PDF: PDF/A-3a and PDF/UA-1, signed when the service signs (unless `options.sign` is false). */
  async renderPdf(prepared: PreparedDocument, options: RenderOptions = {}): Promise<RenderedDocument> {
    const html = await this.renderHtml(prepared, options.onLogoFailure);
    return this.print(html, prepared.doc, options.signal, options.sign ?? true);
  }

  /** A finished PDF signed when the service signs (the last change to its bytes: an incremental update). */
  async signPdf(pdf: Uint8Array): Promise<Uint8Array> {
    return this.signing ? this.signing.sign(pdf) : pdf;
  }

  /** A received e-invoice (read from UBL or CII) as the PDF a person reads to approve it, on A4 in `theme` (classic
   * unless named; another is refused): its own stated amounts, the terms the other documents do not print, and how it
   * was checked (render/received/view.ts). The Factur-X conversion prints the PDF inside it with this too. */
  async renderReceived(
    invoice: EInvoice,
    check: ReceivedCheck,
    locale: Locale,
    { theme, signal, sign = true }: Omit<RenderOptions, 'onLogoFailure'> & { theme?: string } = {},
  ): Promise<RenderedDocument> {
    if (theme !== undefined && !this.assets.html.themes.includes(theme))
      throw errors.validation([{ field: 'theme', message: `theme must be one of ${this.assets.html.themes.join(', ')}` }]);
    const ctx = { catalogues: this.assets.catalogues, locale, timeZone: this.config.timeZone };
    const options = { theme: theme ?? DEFAULT_THEME, pageSize: 'a4' as const };
    const parts = await inTurn(() => receivedParts(invoice, check, ctx, options));
    const { doc, view } = await inTurn(() => receivedPage(parts, ctx));
    const tooLong = await inTurn(() => receivedBudgetProblems(doc, view, this.config.limits.maxPrintedLines));
    if (tooLong.length > 0) throw errors.validation(tooLong);
    return this.print(await inTurn(() => this.assets.html.render(view, doc.theme)), doc, signal, sign);
  }

  /** Chromium's print made PDF/A-3a and PDF/UA-1 (the title and language also come from the HTML's <title> and
   * lang), and signed in the same incremental update when `sign` and the service signs. */
  private async print(html: RenderedHtml, doc: DocumentRequest, signal: AbortSignal | undefined, sign: boolean): Promise<RenderedDocument> {
    // A QR-bill is made for A4 (its guidelines' page), printed twice to set it on the last page's foot.
    const qrBill = doc.payment_code === 'swiss_qr_bill';
    const printed = await this.pdf.render(html.parts, { signal, format: qrBill ? 'a4' : doc.page_size, pageBottom: qrBill });
    const meta = { title: html.title, author: html.author, creator: CREATOR };
    const pdf = sign && this.signing ? await this.signing.archiveAndSign(printed, meta) : await archivePdfOffLoop(printed, meta, PRODUCER);
    return { pdf, filename: pdfFilename(doc), html };
  }

  /** The request in the EN 16931 model as `output` makes it: the one mapping of every e-invoice, also used to refuse
   * what an output cannot express before anything is made (a batch checks each document so). */
  eInvoiceModel(prepared: PreparedDocument, output: EInvoiceOutput): EInvoice {
    const { doc, locale, totals } = prepared;
    const label = (key: 'discounts_title' | 'shipping_title'): string => labelFor(doc, this.assets.catalogues, locale.language, key);
    const row = E_INVOICE_OUTPUTS[output];
    return toEInvoice({
      doc,
      totals,
      syntax: row.syntax,
      defaultProfile: row.defaultProfile,
      localeTag: locale.tag,
      timeZone: this.config.timeZone,
      labels: { discount: label('discounts_title'), shipping: label('shipping_title') },
      attachment: embedsPdf(doc, output) ? pdfFilename(doc) : undefined,
    });
  }

  /** What the e-invoice outputs need of this request: its model, and its PDF printed (unsigned) when they ask. */
  private eInvoice(prepared: PreparedDocument, { onLogoFailure, signal }: RenderOptions): EInvoiceContext {
    if (!this.xsd) throw new Error('e-invoices need the XSD validator');
    return {
      xsd: this.xsd,
      doc: prepared.doc,
      filename: pdfFilename(prepared.doc),
      map: (output) => this.eInvoiceModel(prepared, output),
      print: async () => {
        const { pdf, html } = await this.renderPdf(prepared, { onLogoFailure, signal, sign: false });
        return { pdf, info: { title: html.title, author: html.author, creator: CREATOR, producer: PRODUCER } };
      },
      sign: (pdf) => this.signPdf(pdf),
    };
  }

  /** UBL 2.1 with the PDF of the same request inside; the model is made (and a request it cannot express refused)
   * before anything is printed, and the exact text sent is XSD-validated. */
  renderUbl(prepared: PreparedDocument, options: RenderOptions = {}): Promise<RenderedXml> {
    return makeUbl(this.eInvoice(prepared, options));
  }

  /** UN/CEFACT CII D16B, XSD-validated; nothing is printed. */
  renderCii(prepared: PreparedDocument): Promise<RenderedXml> {
    return makeCii(this.eInvoice(prepared, {}));
  }

  /** Factur-X / ZUGFeRD: the PDF/A-3 with its CII attached. */
  renderFacturX(prepared: PreparedDocument, options: RenderOptions = {}): Promise<{ pdf: Uint8Array; filename: string }> {
    return makeFacturX(this.eInvoice(prepared, options));
  }
}
