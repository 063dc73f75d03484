// The XMP checks of a received Factur-X / ZUGFeRD PDF, and what the packet declares:
// - PDFA3-XMP: the catalog has a /Metadata stream, /Type /Metadata /Subtype /XML, not filtered (ISO 19005-3 6.6.2.1),
//   that is a well-formed XMP packet;
// - PDFA3-XMP-PDFAID: pdfaid:part 3 and a pdfaid:conformance A, B or U (6.6.4);
// - FX-XMP: the fx: properties (DocumentFileName naming the attachment, DocumentType INVOICE, Version, a
//   ConformanceLevel of the specification) in the namespace the attachment's name calls for (Factur-X 1.0 and
//   ZUGFeRD 2.1+, ZUGFeRD 2.0, ZUGFeRD 1.0), and a PDF/A extension schema declaring them (6.6.2.3).
// Other custom properties, the Info dictionary's equivalence with the XMP and the packet header's attributes are not
// checked. Reads a parsed PDF only; no decision on what is done with a failing file.
import type { PDFContext, PDFDict } from '@cantoo/pdf-lib';
import { DomainError } from '../../errors';
import { fatal, warning, type Check } from './pdf-check';
import { decodeBounded } from './pdf-bounds';
import { name, nameAt, streamAt, where } from './pdf-objects';
import type { InvoiceName } from './pdf-attachment';
import { FX_NAMESPACE } from '../../pdf/xmp';
import { PDFAID, prop, readXmp, type XmpPacket } from './xmp-read';

export interface Declared {
  conformanceLevel?: string;
  documentType?: string;
  version?: string;
}

const FACTUR_X = FX_NAMESPACE; // the namespace the service's own Factur-X files declare
const ZUGFERD_2 = 'urn:zugferd:pdfa:CrossIndustryDocument:invoice:2p0#';
const ZUGFERD_1 = 'urn:ferd:pdfa:CrossIndustryDocument:invoice:1p0#';

/** The namespace of each attachment name's specification, and the conformance levels it defines. */
const SPECS: Record<InvoiceName, { ns: string; spec: string; levels: string[] }> = {
  'factur-x.xml': { ns: FACTUR_X, spec: 'Factur-X', levels: ['MINIMUM', 'BASIC WL', 'BASIC', 'EN 16931', 'EXTENDED', 'XRECHNUNG'] },
  'xrechnung.xml': { ns: FACTUR_X, spec: 'ZUGFeRD 2.1+ (XRechnung)', levels: ['XRECHNUNG'] },
  'zugferd-invoice.xml': { ns: ZUGFERD_2, spec: 'ZUGFeRD 2.0', levels: ['MINIMUM', 'BASIC WL', 'BASIC', 'EN 16931', 'EXTENDED'] },
  'ZUGFeRD-invoice.xml': { ns: ZUGFERD_1, spec: 'ZUGFeRD 1.0', levels: ['BASIC', 'COMFORT', 'EXTENDED'] },
};
const FX_PROPERTIES = ['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel'];

/** The largest XMP packet read (a real one is a few KB). */
const MAX_XMP_BYTES = 1024 * 1024;

/** The catalog's XMP packet, or the PDFA3-XMP failure that stopped it being read. */
function metadata(context: PDFContext, catalog: PDFDict, out: Check[]): XmpPacket | undefined {
  const raw = catalog.get(name('Metadata'));
  const stream = streamAt(context, catalog, 'Metadata');
  if (!stream) {
    out.push(fatal('PDFA3-XMP', 'the catalog has no /Metadata stream (PDF/A-3 requires an XMP packet)', 'catalog'));
    return undefined;
  }
  const at = where(raw);
  if (nameAt(context, stream.dict, 'Type') !== 'Metadata' || nameAt(context, stream.dict, 'Subtype') !== 'XML') {
    out.push(fatal('PDFA3-XMP', 'the metadata stream is not /Type /Metadata /Subtype /XML', at));
  }
  if (stream.dict.has(name('Filter'))) out.push(fatal('PDFA3-XMP', 'the metadata stream is filtered (PDF/A-3 forbids /Filter on it)', at));
  const { bytes, why } = decodeBounded(stream, MAX_XMP_BYTES);
  if (!bytes) {
    out.push(fatal('PDFA3-XMP', `the metadata stream cannot be read: ${why}`, at));
    return undefined;
  }
  try {
    return readXmp(bytes);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    out.push(fatal('PDFA3-XMP', `the metadata stream is not a well-formed XMP packet: ${err.message}`, at));
    return undefined;
  }
}

function pdfaid(xmp: XmpPacket, out: Check[]): void {
  const part = prop(xmp, PDFAID, 'part');
  const conformance = prop(xmp, PDFAID, 'conformance');
  if (part !== '3') out.push(fatal('PDFA3-XMP-PDFAID', `the XMP declares pdfaid:part ${part ?? '(none)'}, not 3`, 'XMP'));
  if (!conformance || !['A', 'B', 'U'].includes(conformance)) {
    out.push(fatal('PDFA3-XMP-PDFAID', `the XMP declares pdfaid:conformance ${conformance ?? '(none)'}, not A, B or U`, 'XMP'));
  }
}

/** The namespace the fx: properties are in: the one the attachment calls for, else another known one (a warning). */
function fxNamespace(xmp: XmpPacket, attachment: InvoiceName, out: Check[]): string {
  const expected = SPECS[attachment].ns;
  if (FX_PROPERTIES.some((p) => prop(xmp, expected, p) !== undefined)) return expected;
  const other = [FACTUR_X, ZUGFERD_2, ZUGFERD_1].find((ns) => FX_PROPERTIES.some((p) => prop(xmp, ns, p) !== undefined));
  if (!other) return expected;
  out.push(warning('FX-XMP', `the fx: properties are in ${other}, not in ${expected} as ${attachment} calls for`, 'XMP'));
  return other;
}

function fxProperties(xmp: XmpPacket, ns: string, attachment: InvoiceName, fileName: string, out: Check[]): Declared {
  const declared: Declared = {
    conformanceLevel: prop(xmp, ns, 'ConformanceLevel'),
    documentType: prop(xmp, ns, 'DocumentType'),
    version: prop(xmp, ns, 'Version'),
  };
  const named = prop(xmp, ns, 'DocumentFileName');
  const spec = SPECS[attachment];
  if (named !== fileName)
    out.push(fatal('FX-XMP', `fx:DocumentFileName is ${named ?? '(none)'}, not the attachment's name ${fileName}`, 'XMP'));
  if (declared.documentType !== 'INVOICE')
    out.push(fatal('FX-XMP', `fx:DocumentType is ${declared.documentType ?? '(none)'}, not INVOICE`, 'XMP'));
  if (!declared.version) out.push(fatal('FX-XMP', 'fx:Version is missing', 'XMP'));
  const level = declared.conformanceLevel;
  if (!level) out.push(fatal('FX-XMP', 'fx:ConformanceLevel is missing', 'XMP'));
  else if (!spec.levels.includes(level)) {
    const make = ns === FACTUR_X ? fatal : warning;
    out.push(make('FX-XMP', `fx:ConformanceLevel ${level} is not a level of ${spec.spec} (${spec.levels.join(', ')})`, 'XMP'));
  }
  return declared;
}

function fxSchema(xmp: XmpPacket, ns: string, out: Check[]): void {
  const schema = xmp.schemas.find((s) => s.namespaceURI === ns);
  if (!schema) {
    out.push(
      fatal(
        'FX-XMP',
        `no PDF/A extension schema declares the namespace ${ns} (PDF/A-3 requires custom XMP properties to be declared)`,
        'XMP',
      ),
    );
    return;
  }
  const missing = FX_PROPERTIES.filter((p) => !schema.properties.some((d) => d.name === p && d.valueType === 'Text'));
  if (missing.length) out.push(fatal('FX-XMP', `the extension schema of ${ns} does not declare ${missing.join(', ')} as Text`, 'XMP'));
}

/** The XMP checks, and the fx: values the packet declares (empty when it cannot be read). `attachment` is the name
 * the invoice was found by, `fileName` the name it has (the same but for case). */
export function xmpChecks(
  context: PDFContext,
  catalog: PDFDict,
  attachment: InvoiceName,
  fileName: string,
): { declared: Declared; checks: Check[] } {
  const checks: Check[] = [];
  const xmp = metadata(context, catalog, checks);
  if (!xmp) return { declared: {}, checks };
  pdfaid(xmp, checks);
  const ns = fxNamespace(xmp, attachment, checks);
  const declared = fxProperties(xmp, ns, attachment, fileName, checks);
  fxSchema(xmp, ns, checks);
  return { declared, checks };
}
