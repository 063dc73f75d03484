// The PDF/A-3 packaging of a Factur-X / ZUGFeRD invoice: the service's invoice PDF (tagged, fonts embedded, already
// a PDF/A-3a and PDF/UA-1 by server/pdf/archive.ts) rewritten as PDF 1.7 with an XMP packet (server/pdf/xmp.ts)
// that adds the fx: properties to what the input declared (its conformance level and PDF/UA; B and no PDF/UA for an
// input that declared nothing), an Info dictionary equal to it, an sRGB OutputIntent, a trailer /ID and the invoice
// XML as an associated file (/AF, /AFRelationship, /Names /EmbeddedFiles). The page content, fonts and structure
// tree are kept as they are; the input's own XMP and OutputIntent are replaced, not left behind.
// A pure function: no HTTP, no invoice knowledge beyond what it is given; it does not build or check the XML, and it
// does not make content conform that Chromium did not (colour spaces, transparency: see docs/pdf.md).
// The PDF structure is handled by @cantoo/pdf-lib (a maintained fork of pdf-lib). Its own convertToPDFA() is not
// used: it takes over the XMP and rewrites it from the Info dictionary on every save, while this module must decide
// the exact packet (fx: properties, the extension schema) and prove it from the file.
import { createHash } from 'node:crypto';
import {
  EncryptedPDFError,
  PDFArray,
  PDFRawStream,
  getDefaultSRGBProfile,
  PDFDict,
  PDFDocument,
  PDFHeader,
  PDFHexString,
  PDFName,
  PDFString,
  type PDFContext,
  PDFRef,
} from '@cantoo/pdf-lib';
import { SRGB_CONDITION } from './archive';
import { pdfDateText } from './metadata';
import { buildXmp, xmlSafeText } from './xmp';

export interface PdfA3Input {
  /** Chromium's PDF (with its incremental Info update). */
  pdf: Uint8Array;
  attachment: {
    name: 'factur-x.xml' | 'xrechnung.xml';
    xml: string;
    description?: string;
    relationship: 'Alternative' | 'Data' | 'Source';
  };
  /** The fx: XMP properties, e.g. { documentType: 'INVOICE', version: '1.0', conformanceLevel: 'EN 16931' }. */
  facturX: { documentType: 'INVOICE'; version: string; conformanceLevel: string };
  info: { title: string; author?: string; subject?: string; creator: string; producer: string; keywords?: string };
  /** Creation and modification date of the document and the attachment (tests pass a fixed one); now by default. */
  now?: Date;
}

/** The input cannot be made into a PDF/A-3 (unreadable, encrypted, or already carrying attachments). */
export class PdfA3Error extends Error {}

/** A PDF date for the Info dictionary and /Params: UTC to the second, the same instant as the XMP dates. */
function pdfDate(date: Date): PDFString {
  return PDFString.of(pdfDateText(date));
}

/** A text string: always UTF-16BE in hex (any title, parentheses included, is written without escaping rules). */
const text = (value: string) => PDFHexString.fromText(value);

async function load(pdf: Uint8Array): Promise<PDFDocument> {
  try {
    // updateMetadata: false, or the library writes its own Producer and a ModDate of its clock into the Info.
    return await PDFDocument.load(pdf, { updateMetadata: false });
  } catch (err) {
    if (err instanceof EncryptedPDFError) throw new PdfA3Error('the PDF is encrypted: PDF/A forbids encryption');
    throw new PdfA3Error(`the PDF cannot be read: ${(err as Error).message}`);
  }
}

/**
 * Removes the Info dictionaries the rewrite would otherwise carry as unreferenced objects: Chromium's own and the
 * one server/pdf/metadata.ts appended (an incremental update keeps the older one in the file). An Info dictionary is
 * the only untyped dictionary with a /Producer or /CreationDate in a Chromium PDF.
 */
function dropOldInfo(context: PDFContext): void {
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.has(PDFName.of('Type'))) continue;
    if (obj.has(PDFName.of('Producer')) || obj.has(PDFName.of('CreationDate'))) context.delete(ref);
  }
}

function infoDict(context: PDFContext, info: PdfA3Input['info'], date: Date): PDFDict {
  const dict = context.obj({});
  dict.set(PDFName.of('Title'), text(info.title));
  if (info.author) dict.set(PDFName.of('Author'), text(info.author));
  if (info.subject) dict.set(PDFName.of('Subject'), text(info.subject));
  if (info.keywords) dict.set(PDFName.of('Keywords'), text(info.keywords));
  dict.set(PDFName.of('Creator'), text(info.creator));
  dict.set(PDFName.of('Producer'), text(info.producer));
  dict.set(PDFName.of('CreationDate'), pdfDate(date));
  dict.set(PDFName.of('ModDate'), pdfDate(date));
  return dict;
}

/** The embedded file stream and its file specification; returns the file specification's reference. */
function embedXml(context: PDFContext, attachment: PdfA3Input['attachment'], date: Date): PDFRef {
  const bytes = Buffer.from(attachment.xml, 'utf8');
  const stream = context.flateStream(bytes, {
    Type: 'EmbeddedFile',
    Subtype: 'text/xml', // a name: written /text#2Fxml
    Params: {
      Size: bytes.length,
      // The MD5 of the file's bytes as a 16-byte string (ISO 32000-1, table 46).
      CheckSum: PDFHexString.fromBytes(createHash('md5').update(bytes).digest()),
      CreationDate: pdfDate(date),
      ModDate: pdfDate(date),
    },
  });
  const fileRef = context.register(stream);
  const spec = context.obj({
    Type: 'Filespec',
    F: PDFString.of(attachment.name), // the two allowed names are plain ASCII without parentheses
    UF: text(attachment.name),
    EF: { F: fileRef, UF: fileRef },
    AFRelationship: attachment.relationship,
  });
  if (attachment.description) spec.set(PDFName.of('Desc'), text(attachment.description));
  return context.register(spec);
}

/** The OutputIntent with the sRGB profile that Chromium's DeviceRGB colours are to be read with. */
function outputIntent(context: PDFContext): PDFDict {
  const icc = context.register(context.flateStream(getDefaultSRGBProfile(), { N: 3 }));
  return context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of(SRGB_CONDITION),
    Info: PDFString.of(SRGB_CONDITION),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: icc,
  });
}

/**
 * What the input's XMP declared (archive.ts writes PDF/A-3 level A and PDF/UA-1 for the service's own PDFs), and the
 * input's XMP stream and OutputIntent profiles removed from the file: this rewrite writes its own.
 */
function takeDeclared(context: PDFContext, catalog: PDFDict): { conformance: 'A' | 'B'; pdfua: boolean } {
  const ref = catalog.get(PDFName.of('Metadata'));
  const old = ref instanceof PDFRef ? context.lookup(ref) : undefined;
  const text = old instanceof PDFRawStream ? Buffer.from(old.contents).toString('utf8') : '';
  if (ref instanceof PDFRef) context.delete(ref);
  const intents = catalog.lookupMaybe(PDFName.of('OutputIntents'), PDFArray);
  for (const intent of intents?.asArray() ?? []) {
    const profile = (context.lookup(intent) as PDFDict | undefined)?.get(PDFName.of('DestOutputProfile'));
    if (profile instanceof PDFRef) context.delete(profile);
    if (intent instanceof PDFRef) context.delete(intent);
  }
  const tagged = catalog.has(PDFName.of('StructTreeRoot'));
  return {
    conformance: tagged && /<pdfaid:conformance>A</.test(text) ? 'A' : 'B',
    pdfua: tagged && /<pdfuaid:part>1</.test(text),
  };
}

/** The Info values without what XML cannot carry: the Info dictionary and the XMP get the same text. */
function xmlSafeInfo(info: PdfA3Input['info']): PdfA3Input['info'] {
  const opt = (value?: string) => (value === undefined ? undefined : xmlSafeText(value));
  return {
    title: xmlSafeText(info.title),
    author: opt(info.author),
    subject: opt(info.subject),
    keywords: opt(info.keywords),
    creator: xmlSafeText(info.creator),
    producer: xmlSafeText(info.producer),
  };
}

/** Chromium's invoice PDF made into a PDF/A-3b with the invoice XML attached. */
export async function toPdfA3(input: PdfA3Input): Promise<Uint8Array> {
  // PDF dates have no unit below the second: the same instant goes into the Info, the XMP and /Params.
  const date = new Date(Math.floor((input.now ?? new Date()).getTime() / 1000) * 1000);
  const info = xmlSafeInfo(input.info);

  const doc = await load(input.pdf);
  const { context, catalog } = doc;
  const names = catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  if (catalog.has(PDFName.of('AF')) || names?.has(PDFName.of('EmbeddedFiles'))) {
    // Every embedded file of a PDF/A-3 needs an /AFRelationship and a place in /AF: files of unknown origin are
    // refused rather than dropped or passed through.
    throw new PdfA3Error('the PDF already has embedded files');
  }

  dropOldInfo(context);
  context.trailerInfo.Info = context.register(infoDict(context, info, date));

  const declared = takeDeclared(context, catalog);
  const lang = catalog.get(PDFName.of('Lang'));
  const xmp = buildXmp({
    ...info,
    date,
    ...declared,
    language: lang instanceof PDFString || lang instanceof PDFHexString ? lang.decodeText() : undefined,
    facturX: { ...input.facturX, fileName: input.attachment.name },
  });
  // Uncompressed, so that any reader (and PDF/A's rule for the metadata stream) can read the packet as it is.
  const metadata = context.stream(Buffer.from(xmp, 'utf8'), { Type: 'Metadata', Subtype: 'XML' });
  catalog.set(PDFName.of('Metadata'), context.register(metadata));
  catalog.set(PDFName.of('OutputIntents'), context.obj([outputIntent(context)]));

  const spec = embedXml(context, input.attachment, date);
  const tree = context.obj({ Names: [text(input.attachment.name), spec] });
  if (names) names.set(PDFName.of('EmbeddedFiles'), tree);
  else catalog.set(PDFName.of('Names'), context.obj({ EmbeddedFiles: tree }));
  catalog.set(PDFName.of('AF'), context.obj([spec]));

  // The file identifier PDF/A requires: both halves the same at creation, from the content and the instant.
  const id = createHash('md5').update(input.pdf).update(input.attachment.xml).update(date.toISOString()).digest();
  context.trailerInfo.ID = context.obj([PDFHexString.fromBytes(id), PDFHexString.fromBytes(id)]);
  // PDF/A-3 is based on ISO 32000-1 (PDF 1.7); Chromium writes 1.4.
  context.header = PDFHeader.forVersion(1, 7);

  // A full rewrite with a classic cross-reference table (no object streams): the output is one revision with the
  // new header, and the trailer keys (/ID, /Info) stay visible to simple readers.
  return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}
