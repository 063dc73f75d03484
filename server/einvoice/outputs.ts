// The three e-invoice outputs of one prepared request, each from the one model (map.ts): UBL with the PDF inside,
// CII alone, and Factur-X (the PDF as a PDF/A-3 with its CII attached). The model is made first, so that a request
// an e-invoice cannot express fails with validation_failed before anything is printed; the exact XML sent is XSD-validated
// (schemas compiled once, in a worker). Printing is the caller's (pipeline.ts): this module knows no renderer.
import { inTurn } from '../cpu-turns';
import type { DocumentRequest } from '../documents/model';
import { toPdfA3OffThread } from '../pdf/pdfa3-thread';
import { EInvoiceSchemaError } from './schema-error';
import type { XsdValidator } from './xsd-validator';
import { ciiTree } from './cii/build';
import type { MapInput } from './map';
import type { EInvoice } from './model';
import { PROFILES, type ProfileRow } from './profiles';
import { PDF_PLACEHOLDER, ublTree, type UblRoot } from './ubl/build';
import { xmlText } from './xml-text';

/** `invoice` as UBL text: its tree built, then written, each at a turn of the event loop of its own (cpu-turns.ts:
 * together 60-100 ms for 1,000 lines). */
export async function writeUbl(invoice: EInvoice): Promise<{ root: UblRoot; xml: string }> {
  const { root, tree } = await inTurn(() => ublTree(invoice));
  return { root, xml: await inTurn(() => xmlText(tree)) };
}

/** `invoice` as CII text, as writeUbl writes UBL. */
export async function writeCii(invoice: EInvoice): Promise<string> {
  const tree = await inTurn(() => ciiTree(invoice));
  return inTurn(() => xmlText(tree));
}

/** The e-invoice outputs, each a row: the syntax it is written in, the profile made when the request names none, and
 * whether it carries the request's PDF inside the XML (UBL, unless `e_invoice.embed_pdf` is false). */
export const E_INVOICE_OUTPUTS = {
  ubl: { syntax: 'ubl', defaultProfile: 'peppol', carriesPdf: true },
  cii: { syntax: 'cii', defaultProfile: 'en16931', carriesPdf: false },
  'factur-x': { syntax: 'cii', defaultProfile: 'en16931', carriesPdf: false },
} as const satisfies Record<string, { syntax: MapInput['syntax']; defaultProfile: MapInput['defaultProfile']; carriesPdf: boolean }>;

export type EInvoiceOutput = keyof typeof E_INVOICE_OUTPUTS;

/** Whether `output` of `doc` carries its PDF inside the XML. */
export const embedsPdf = (doc: DocumentRequest, output: EInvoiceOutput): boolean =>
  E_INVOICE_OUTPUTS[output].carriesPdf && doc.e_invoice?.embed_pdf !== false;

/** What making an e-invoice needs from the pipeline. */
export interface EInvoiceContext {
  xsd: XsdValidator;
  /** The request mapped into the model as `output` makes it (pipeline.ts eInvoiceModel: the one mapping). */
  map: (output: EInvoiceOutput) => EInvoice;
  /** Prints the request's PDF (with its Info dictionary), and says what that dictionary holds (for a PDF/A's XMP). */
  print: () => Promise<{ pdf: Uint8Array; info: PdfInfo }>;
  /** Signs a finished PDF when the service signs PDFs (the identity otherwise): the last change to its bytes. */
  sign: (pdf: Uint8Array) => Promise<Uint8Array>;
  doc: DocumentRequest;
  /** The PDF's file name (`Invoice-1.pdf`). */
  filename: string;
}

export interface PdfInfo {
  title: string;
  author?: string;
  creator: string;
  producer: string;
}

export interface RenderedXml {
  xml: string;
  root: UblRoot | 'CrossIndustryInvoice';
  filename: string;
}

const xmlName = (pdfName: string) => pdfName.replace(/\.pdf$/, '.xml');

export async function checked(xsd: XsdValidator, xml: string, root: Parameters<XsdValidator['validate']>[1]): Promise<void> {
  const xsdErrors = await xsd.validate(xml, root);
  if (xsdErrors.length > 0) throw new EInvoiceSchemaError(root, xsdErrors);
}

/** UBL 2.1 with the PDF of the same request inside (profile peppol unless the request names another); without it,
 * and without printing, when the request says `e_invoice.embed_pdf: false`. */
export async function makeUbl(ctx: EInvoiceContext): Promise<RenderedXml> {
  const embed = embedsPdf(ctx.doc, 'ubl');
  const ubl = await writeUbl(await inTurn(() => ctx.map('ubl')));
  let xml = ubl.xml;
  if (embed) {
    const pdf = await ctx.sign((await ctx.print()).pdf);
    const base64 = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('base64');
    xml = xml.replace(PDF_PLACEHOLDER, () => base64);
  }
  await checked(ctx.xsd, xml, ubl.root);
  return { xml, root: ubl.root, filename: xmlName(ctx.filename) };
}

/** The Factur-X row of a CII profile (every profile made in CII has one; profileProblems refused the others). */
export function facturXRow(invoice: EInvoice): NonNullable<ProfileRow['facturX']> {
  const row = PROFILES[invoice.profile].facturX;
  if (!row) throw new Error(`the ${invoice.profile} profile has no CII form`);
  return row;
}

/** UN/CEFACT CII D16B in the request's profile (en16931 unless it names another), checked against that profile's XSD
 * (XRechnung's against D16B itself); no PDF is printed. */
export async function makeCii(ctx: EInvoiceContext): Promise<RenderedXml> {
  const invoice = await inTurn(() => ctx.map('cii'));
  const xml = await writeCii(invoice);
  await checked(ctx.xsd, xml, facturXRow(invoice).xsd);
  return { xml, root: 'CrossIndustryInvoice', filename: xmlName(ctx.filename) };
}

/** Factur-X / ZUGFeRD: the PDF as a PDF/A-3a (and PDF/UA-1) carrying its CII, signed when the service signs; named,
 * checked and declared (the XMP's conformance level) as the profile's row says: `factur-x.xml` for MINIMUM …
 * EXTENDED, ZUGFeRD's `xrechnung.xml` for XRECHNUNG. */
export async function makeFacturX(ctx: EInvoiceContext): Promise<{ pdf: Uint8Array; filename: string }> {
  const invoice = await inTurn(() => ctx.map('factur-x'));
  const xml = await writeCii(invoice);
  await checked(ctx.xsd, xml, facturXRow(invoice).xsd);
  return { pdf: await ctx.sign(await packageFacturX(invoice, xml, await ctx.print())), filename: ctx.filename };
}

/** The printed PDF of `invoice` made a Factur-X: its CII `xml` (already checked) attached as the profile's row says. */
export function packageFacturX(invoice: EInvoice, xml: string, printed: { pdf: Uint8Array; info: PdfInfo }): Promise<Uint8Array> {
  const fx = facturXRow(invoice);
  // pdf-lib rewrites the whole file: in a worker thread, never on the event loop.
  return toPdfA3OffThread({
    pdf: printed.pdf,
    attachment: {
      name: fx.attachment,
      xml,
      description: fx.attachment === 'xrechnung.xml' ? 'XRechnung invoice' : 'Factur-X invoice',
      relationship: 'Alternative',
    },
    facturX: { documentType: 'INVOICE', version: '1.0', conformanceLevel: fx.level },
    info: printed.info,
  });
}
