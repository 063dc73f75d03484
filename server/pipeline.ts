// The core, with no HTTP in it: request body → validated document → totals → HTML → PDF.
// Loads every data file (schemas, locales, templates, themes, fonts) once, and reports all broken files together.
// Used by the HTTP layer and by command-line tools alike.
import fs from 'node:fs';
import path from 'node:path';
import type { Config, Limits } from './config';
import { errors } from './errors';
import type { DocumentRequest } from './documents/model';
import { bodyKind, parseBody } from './documents/parse-body';
import { loadSchemas, type SchemaRegistry } from './documents/schema-registry';
import { validateDocument } from './documents/validate';
import type { LogoOptions } from './logo/fetch-logo';
import { LogoCache } from './logo/logo-cache';
import { computeTotals, type Totals } from './money/totals';
import type { PdfRenderer } from './pdf/renderer';
import { loadCatalogues, type Catalogues } from './render/catalogues';
import { loadFonts } from './render/fonts';
import { printBudgetProblems } from './render/print-budget';
import { loadHtmlRenderer, type HtmlRenderer, type RenderedHtml } from './render/html';
import { negotiateLocale, type Locale } from './render/locale';
import { buildView, labelFor } from './render/view-model';
import { buildUbl, PDF_PLACEHOLDER, type UblRoot } from './ubl/build-ubl';
import type { XsdValidator } from './ubl/xsd-validator';

export class StartupError extends Error {
  constructor(readonly problems: string[]) {
    super(`Start-up failed:\n  - ${problems.join('\n  - ')}`);
    this.name = 'StartupError';
  }
}

export interface Assets {
  schemas: SchemaRegistry;
  catalogues: Catalogues;
  html: HtmlRenderer;
}

/** Loads every data file under `root`; throws one StartupError listing every problem of every loader. */
export function loadAssets(root: string, limits: Limits): Assets {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (err) {
      const list = (err as { problems?: string[] }).problems;
      problems.push(...(list ?? [(err as Error).message]));
      return undefined;
    }
  };
  const schemas = attempt(() => loadSchemas(path.join(root, 'schemas'), limits));
  const catalogues = attempt(() => loadCatalogues(path.join(root, 'locales')));
  const fonts = attempt(() => loadFonts(path.join(root, 'themes', 'fonts.json'), (name) => require.resolve(name, { paths: [root] })));
  const themes = themeIds(path.join(root, 'schemas', 'common.json'));
  const html =
    fonts &&
    attempt(() => loadHtmlRenderer({ templatesDir: path.join(root, 'templates'), themesDir: path.join(root, 'themes'), themes, fonts }));
  if (problems.length > 0 || !schemas || !catalogues || !html) throw new StartupError(problems);
  return { schemas, catalogues, html };
}

/** The theme ids the schema offers (each needs a themes/<id>.css), read even when other schema files are broken. */
function themeIds(commonSchemaFile: string): string[] {
  try {
    const common = JSON.parse(fs.readFileSync(commonSchemaFile, 'utf8')) as {
      definitions?: { document?: { properties?: { theme?: { enum?: string[] } } } };
    };
    return common.definitions?.document?.properties?.theme?.enum ?? ['classic'];
  } catch {
    return ['classic'];
  }
}

/** The PDF Creator entry (decisions §7: "this service"). */
export const CREATOR = 'docgen-service';

export interface PreparedDocument {
  doc: DocumentRequest;
  locale: Locale;
  totals: Totals;
}

export interface RenderedDocument {
  pdf: Uint8Array;
  filename: string;
  html: RenderedHtml;
}

export type LogoLogger = (reason: string) => void;

export interface RenderedUbl {
  xml: string;
  root: UblRoot;
  filename: string;
}

/** Raised when our own UBL fails the XSD: a defect, answered with a 500; the errors go to the log. */
export class UblSchemaError extends Error {
  constructor(readonly xsdErrors: string[]) {
    super(`generated UBL is not valid against the UBL 2.1 XSD: ${xsdErrors.slice(0, 5).join(' | ')}`);
    this.name = 'UblSchemaError';
  }
}

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
  ) {
    this.logos = new LogoCache(config.logoCache);
  }

  /** Swaps in freshly loaded data files (live reload in development); requests in flight keep the old ones. */
  replaceAssets(assets: Assets): void {
    this.assets = assets;
  }

  /** Parses a raw body by its Content-Type (415 / 400 on failure). */
  parse(contentType: string | undefined, raw: Buffer): unknown {
    return parseBody(bodyKind(contentType), raw, this.config.limits.maxItems);
  }

  /** The locale for an Accept-Language header (never fails; en-US when nothing matches). */
  locale(acceptLanguage: string | undefined): Locale {
    return negotiateLocale(acceptLanguage, this.assets.catalogues.defaultTags);
  }

  /** Validates and computes totals; throws 400 with every problem, also when the document would print too long. */
  prepare(body: unknown, locale: Locale): PreparedDocument {
    const doc = validateDocument(this.assets.schemas, body);
    const tooLong = printBudgetProblems(doc, this.config.limits.maxPrintedLines);
    if (tooLong.length > 0) throw errors.validation(tooLong);
    return { doc, locale, totals: computeTotals(doc) };
  }

  async renderHtml(prepared: PreparedDocument, onLogoFailure?: LogoLogger): Promise<RenderedHtml> {
    const { doc, locale, totals } = prepared;
    let logoDataUri: string | undefined;
    if (doc.logo) {
      const logoOpts: LogoOptions = {
        allowPrivate: this.config.logoAllowPrivate,
        allowedHosts: this.config.logoAllowedHosts,
        timeoutMs: this.config.logoTimeoutMs,
        maxBytes: this.config.logoMaxBytes,
      };
      const logo = await this.logos.get(doc.logo, logoOpts);
      if (logo.ok) logoDataUri = logo.dataUri;
      else onLogoFailure?.(logo.reason);
    }
    const view = buildView(doc, totals, {
      catalogues: this.assets.catalogues,
      locale,
      timeZone: this.config.timeZone,
      logoDataUri,
    });
    return this.assets.html.render(view, doc.theme);
  }

  /** `signal`: aborted when nobody waits for the document any more (the render is cancelled). */
  async renderPdf(prepared: PreparedDocument, onLogoFailure?: LogoLogger, signal?: AbortSignal): Promise<RenderedDocument> {
    const html = await this.renderHtml(prepared, onLogoFailure);
    const pdf = await this.pdf.render(html.parts, {
      signal,
      format: prepared.doc.page_size,
      metadata: { title: html.title, author: html.author, creator: CREATOR },
    });
    return { pdf, filename: pdfFilename(prepared.doc), html };
  }

  /**
   * The UBL e-invoice with the PDF of the same request inside. The XML is built first (so that a request UBL cannot
   * express fails with a 400 before any rendering), then the PDF is printed and put in, and the exact text that will be
   * sent is XSD-validated (well under a millisecond for a one-page invoice, as the schema is compiled once).
   */
  async renderUbl(prepared: PreparedDocument, onLogoFailure?: LogoLogger, signal?: AbortSignal): Promise<RenderedUbl> {
    if (!this.xsd) throw new Error('UBL output needs the XSD validator');
    const { doc, locale, totals } = prepared;
    const label = (key: 'discounts_title' | 'shipping_title'): string => labelFor(doc, this.assets.catalogues, locale.language, key);
    const filename = pdfFilename(doc);
    const ubl = buildUbl({
      doc,
      totals,
      localeTag: locale.tag,
      timeZone: this.config.timeZone,
      pdfFilename: filename,
      labels: { discount: label('discounts_title'), shipping: label('shipping_title') },
    });
    const rendered = await this.renderPdf(prepared, onLogoFailure, signal);
    const base64 = Buffer.from(rendered.pdf.buffer, rendered.pdf.byteOffset, rendered.pdf.byteLength).toString('base64');
    const xml = ubl.xml.replace(PDF_PLACEHOLDER, () => base64);
    const xsdErrors = await this.xsd.validate(xml, ubl.root);
    if (xsdErrors.length > 0) throw new UblSchemaError(xsdErrors);
    return { xml, root: ubl.root, filename: filename.replace(/\.pdf$/, '.xml') };
  }
}

/** `invoice-1.pdf`; characters unsafe in a file name become `_`. */
export function pdfFilename(doc: Pick<DocumentRequest, 'type' | 'number'>): string {
  const number = doc.number ? `-${doc.number.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80)}` : '';
  return `${doc.type}${number}.pdf`;
}
