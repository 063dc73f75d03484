// FX-LEVEL: the conformance level a Factur-X / ZUGFeRD PDF declares in its XMP (fx:ConformanceLevel) against the
// guideline the embedded XML itself names (BT-24, CII's GuidelineSpecifiedDocumentContextParameter/ID). Separate from
// the PDF reader because it needs the XML, which the caller parses: a pure function of two strings.
// The Factur-X 1.0 guidelines come from profiles.ts (the table the service writes with); the older ZUGFeRD 2.0 and
// 1.0 ones and every XRechnung version are listed here.
import { PROFILES } from '../profiles';
import { fatal, warning, type Check } from './pdf-check';

const WRITTEN: [string, string][] = Object.values(PROFILES).flatMap((row) => (row.facturX ? [[row.specification, row.facturX.level]] : []));

const OLDER: [string, string][] = [
  ['urn:zugferd.de:2p0:minimum', 'MINIMUM'],
  ['urn:zugferd.de:2p0:basicwl', 'BASIC WL'],
  ['urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic', 'BASIC'],
  ['urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended', 'EXTENDED'],
  ['urn:ferd:CrossIndustryDocument:invoice:1p0:basic', 'BASIC'],
  ['urn:ferd:CrossIndustryDocument:invoice:1p0:comfort', 'COMFORT'],
  ['urn:ferd:CrossIndustryDocument:invoice:1p0:extended', 'EXTENDED'],
];
const LEVELS = new Map<string, string>([...WRITTEN, ...OLDER]);

/** Every XRechnung version: 1.x/2.0 (xoev-de) and 2.1 on (xeinkauf.de). */
const XRECHNUNG = /^urn:cen\.eu:en16931:2017#compliant#urn:(xeinkauf\.de:kosit|xoev-de:kosit:standard):xrechnung_\d+(\.\d+)*$/;

/** The conformance level a guideline id (BT-24) means, when it is one of Factur-X / ZUGFeRD. */
export function levelOfGuideline(guideline: string): string | undefined {
  const id = guideline.trim();
  return LEVELS.get(id) ?? (XRECHNUNG.test(id) ? 'XRECHNUNG' : undefined);
}

/**
 * FX-LEVEL for `declared` (readFacturXPdf's declared.conformanceLevel) and the XML's guideline id: undefined when they
 * agree or nothing is declared (FX-XMP reports a missing level); fatal when they differ; a warning when the guideline
 * is not one of a Factur-X / ZUGFeRD level (it cannot be compared).
 */
export function checkConformanceLevel(declared: string | undefined, guideline: string): Check | undefined {
  if (declared === undefined) return undefined;
  const level = levelOfGuideline(guideline);
  if (level === undefined) {
    const id = guideline.trim().slice(0, 120);
    return warning(
      'FX-LEVEL',
      `the XML's guideline ${id} is not one of a Factur-X / ZUGFeRD level: fx:ConformanceLevel ${declared} not compared`,
    );
  }
  if (level === declared) return undefined;
  return fatal('FX-LEVEL', `fx:ConformanceLevel is ${declared}, but the embedded XML is made to ${level} (${guideline.trim()})`, 'XMP');
}
