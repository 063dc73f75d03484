// The e-invoice specifications a document can be made to (`e_invoice.profile`): their identifiers per syntax and
// what each requires beyond the norm, checked on the model before anything is written, so that a missing field is a
// refusal naming every field to send (by its request name), never a document the receiver rejects. The same rows say
// how a received document of each specification is recognised and which official rule sets check it (`received`,
// `facturX.rules`: received/check.ts reads them). No XML here.
import type { FieldProblem } from '../errors';
import { Decimal } from '../money/decimal';
import type { EInvoice, Party, Profile, VatCategory } from './model';
import { carriageProblems } from './profile-terms';
import type { RuleSetId } from './rules/rule-sets';
import type { XsdRoot } from './xsd-validator';

/** The Factur-X / ZUGFeRD conformance levels (the XMP's fx:ConformanceLevel). */
export type FacturXLevel = 'MINIMUM' | 'BASIC WL' | 'BASIC' | 'EN 16931' | 'EXTENDED' | 'XRECHNUNG';

/** What one specification is: a row of the one table every output reads (no branch on a profile name elsewhere). */
export interface ProfileRow {
  /** BT-24 (UBL CustomizationID, CII GuidelineSpecifiedDocumentContextParameter). */
  specification: string;
  /** BT-23 business process (UBL ProfileID, CII BusinessProcessSpecifiedDocumentContextParameter), when stated. */
  businessProcess?: string;
  /** The syntaxes it is made in. */
  syntaxes: readonly ('ubl' | 'cii')[];
  /** Factur-X: the conformance level (the XMP's), the name of the XML inside the PDF, and the XSD the CII is checked
   * against, on /factur-x and /cii alike (XRechnung's CII against D16B itself). */
  facturX?: {
    level: FacturXLevel;
    attachment: 'factur-x.xml' | 'xrechnung.xml';
    xsd: Exclude<XsdRoot, 'Invoice' | 'CreditNote'>;
    /** The profile's own schematron, for a received CII of the profile (none for XRechnung: its CII is XRechnung's). */
    rules?: RuleSetId;
  };
  /** A received document (POST /validate) of this specification: the other BT-24 values that name it (the ZUGFeRD
   * 2.0 identifiers the Factur-X profiles accept, XRechnung's extension), and the official rule sets its UBL or CII
   * is checked with after its XSD. */
  received: {
    identifiers?: readonly string[];
    ubl?: readonly RuleSetId[];
    cii?: readonly RuleSetId[];
    /** A Factur-X profile's own identifier: its CII is checked against the profile's XSD and rules (`facturX`) even
     * when it comes as plain XML; other specifications get them only when their CII came out of a Factur-X PDF. */
    facturXSchemas?: boolean;
    /** An extension that replaces EN 16931 rules with its own (XRechnung's: BR-DEX-04 … BR-DEX-09): under its
     * identifier, the EN 16931 rule set's findings of these rules are left to the extension's. */
    overridden?: { identifier: string; ubl: readonly string[]; cii: readonly string[] };
  };
  /** Whether the invoice lines are written (MINIMUM and BASIC WL carry the document level only). */
  lines: boolean;
  /** Peppol BIS allows one invoice note (PEPPOL-EN16931-R002): the notes are written as one, each with its subject
   * code as the norm's `#code#` prefix. */
  singleNote?: boolean;
  /** MINIMUM: the document's key figures only, by definition: no VAT breakdown (BG-23) nor line total (BT-106), the
   * seller's country as its only address and none for the buyer (the PDF beside it says the rest). Optional terms
   * the profile cannot carry are refused (profile-terms.ts), never left out. */
  keyFigures: boolean;
  /** Its CII carries sub-lines (Line.subLines) as line items with a ParentLineID (Factur-X EXTENDED, EXTENDED-CTC-FR);
   * every other CII has no place for them. */
  subLines?: boolean;
  /** Every VAT breakdown (BG-23) states its rate, 0 for "not subject to VAT" (XRechnung BR-DE-14; EN 16931 forbids
   * an O rate on lines and adjustments only, BR-O-05 … BR-O-07). */
  breakdownRates?: boolean;
  /** France's reform (XP Z12-012): the French mentions are written (france.ts) and the French rules (BR-FR) apply. */
  france?: boolean;
  /** Whether it is a full EN 16931 invoice (MINIMUM and BASIC WL are not: they are not valid invoices in the EU's
   * sense, and the norm's rules do not apply to them). */
  en16931: boolean;
}

const PEPPOL_BILLING = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const XRECHNUNG_EXTENSION =
  'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0';

/** Every specification, by its `e_invoice.profile` name. */
export const PROFILES: Record<Profile, ProfileRow> = {
  peppol: {
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    businessProcess: PEPPOL_BILLING,
    syntaxes: ['ubl'],
    lines: true,
    singleNote: true,
    keyFigures: false,
    en16931: true,
    received: { ubl: ['en16931-ubl', 'peppol-ubl'] },
  },
  en16931: {
    specification: 'urn:cen.eu:en16931:2017',
    syntaxes: ['ubl', 'cii'],
    facturX: { level: 'EN 16931', attachment: 'factur-x.xml', xsd: 'FacturX-EN16931', rules: 'facturx-en16931' },
    lines: true,
    keyFigures: false,
    en16931: true,
    received: { ubl: ['en16931-ubl'], cii: ['en16931-cii'] },
  },
  xrechnung: {
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    businessProcess: PEPPOL_BILLING,
    syntaxes: ['ubl', 'cii'],
    facturX: { level: 'XRECHNUNG', attachment: 'xrechnung.xml', xsd: 'CrossIndustryInvoice' },
    breakdownRates: true,
    lines: true,
    keyFigures: false,
    en16931: true,
    received: {
      identifiers: [XRECHNUNG_EXTENSION],
      ubl: ['en16931-ubl', 'xrechnung-ubl'],
      cii: ['en16931-cii', 'xrechnung-cii'],
      // KoSIT's rules for the extension: BR-DEX-04, -05, -06 (more identifier schemes: BR-CL-10, -11, -21), BR-DEX-07,
      // -08 (BR-CL-25, -26) and in UBL BR-DEX-09 (third-party payments in the amount due: BR-CO-16).
      overridden: {
        identifier: XRECHNUNG_EXTENSION,
        ubl: ['BR-CL-10', 'BR-CL-11', 'BR-CL-21', 'BR-CL-25', 'BR-CL-26', 'BR-CO-16'],
        cii: ['BR-CL-10', 'BR-CL-11', 'BR-CL-21', 'BR-CL-25', 'BR-CL-26'],
      },
    },
  },
  minimum: {
    specification: 'urn:factur-x.eu:1p0:minimum',
    syntaxes: ['cii'],
    facturX: { level: 'MINIMUM', attachment: 'factur-x.xml', xsd: 'FacturX-MINIMUM', rules: 'facturx-minimum' },
    lines: false,
    keyFigures: true,
    en16931: false,
    received: { identifiers: ['urn:zugferd.de:2p0:minimum'], cii: [], facturXSchemas: true },
  },
  basic_wl: {
    specification: 'urn:factur-x.eu:1p0:basicwl',
    syntaxes: ['cii'],
    facturX: { level: 'BASIC WL', attachment: 'factur-x.xml', xsd: 'FacturX-BASICWL', rules: 'facturx-basicwl' },
    lines: false,
    keyFigures: false,
    en16931: false,
    received: { identifiers: ['urn:zugferd.de:2p0:basicwl'], cii: [], facturXSchemas: true },
  },
  basic: {
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
    syntaxes: ['cii'],
    facturX: { level: 'BASIC', attachment: 'factur-x.xml', xsd: 'FacturX-BASIC', rules: 'facturx-basic' },
    lines: true,
    keyFigures: false,
    en16931: true,
    received: {
      identifiers: ['urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic'],
      cii: ['en16931-cii'],
      facturXSchemas: true,
    },
  },
  extended: {
    specification: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
    syntaxes: ['cii'],
    // EXTENDED's own schematron stops SaxonJS (rules/rule-sets.ts): its XSD and FNFE-MPE's EXTENDED-CTC-FR CII rules
    // check it, the EN 16931 rules as the same publisher adapted them to an EXTENDED profile (sub-lines whose GROUP and
    // INFORMATION items the sums leave out, several VAT lines per category); the plain EN 16931 rules count every
    // line item, sub-lines too (BR-CO-10).
    facturX: { level: 'EXTENDED', attachment: 'factur-x.xml', xsd: 'FacturX-EXTENDED', rules: 'facturx-extended' },
    subLines: true,
    lines: true,
    keyFigures: false,
    en16931: true,
    received: {
      identifiers: ['urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended'],
      cii: ['extended-ctc-fr-cii'],
      facturXSchemas: true,
    },
  },
  fr: {
    // France's EN16931 profile: BT-24 is the norm's own; a received one is told from en16931 by its content (a French
    // billing framework in BT-23, a 0225 address, a BAR note: received/check.ts, recognise).
    specification: 'urn:cen.eu:en16931:2017',
    syntaxes: ['ubl', 'cii'],
    facturX: { level: 'EN 16931', attachment: 'factur-x.xml', xsd: 'FacturX-EN16931', rules: 'facturx-en16931' },
    lines: true,
    keyFigures: false,
    en16931: true,
    france: true,
    received: { ubl: ['en16931-ubl', 'br-fr-ubl'], cii: ['en16931-cii', 'br-fr-cii'] },
  },
  extended_ctc_fr: {
    specification: 'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr',
    syntaxes: ['ubl', 'cii'],
    // In a PDF: Factur-X's EXTENDED level, of which EXTENDED-CTC-FR is a subset (the FNFE's note, 1.4.0).
    facturX: { level: 'EXTENDED', attachment: 'factur-x.xml', xsd: 'FacturX-EXTENDED', rules: 'facturx-extended' },
    subLines: true,
    lines: true,
    keyFigures: false,
    en16931: true,
    france: true,
    received: { ubl: ['extended-ctc-fr-ubl', 'br-fr-ubl'], cii: ['extended-ctc-fr-cii', 'br-fr-cii'] },
  },
};

/** The VAT category a breakdown (BG-23) is written with: its own, with the rate 0 for O where the profile wants every
 * breakdown's rate (`breakdownRates`). */
export function breakdownCategory(invoice: EInvoice, category: VatCategory): VatCategory {
  return category.rate === undefined && PROFILES[invoice.profile].breakdownRates ? { ...category, rate: new Decimal(0) } : category;
}

/** The rule sets of a received document whose BT-24 names no specification of the table (another CIUS, an older
 * version, none at all): its syntax's EN 16931 rules, after its XSD. */
export const UNKNOWN_SPECIFICATION_RULES: { ubl: readonly RuleSetId[]; cii: readonly RuleSetId[] } = {
  ubl: ['en16931-ubl'],
  cii: ['en16931-cii'],
};

/** The profile whose specification `id` (a received BT-24, trimmed) names; undefined for any other. */
export function profileOfSpecification(id: string | undefined): Profile | undefined {
  if (id === undefined) return undefined;
  for (const [name, row] of Object.entries(PROFILES) as [Profile, ProfileRow][]) {
    if (row.specification === id || row.received.identifiers?.includes(id)) return name;
  }
  return undefined;
}

/** The profile a received document of `syntax` names by its BT-24, when the table has one for that syntax (Peppol BIS
 * in CII or a Factur-X profile in UBL is none); undefined for any other identifier. */
export function receivedProfile(id: string | undefined, syntax: 'ubl' | 'cii'): Profile | undefined {
  const profile = profileOfSpecification(id?.trim());
  return profile && PROFILES[profile].received[syntax] ? profile : undefined;
}

/** BT-24 of each profile. */
export const SPECIFICATION_ID: Record<Profile, string> = Object.fromEntries(
  Object.entries(PROFILES).map(([name, row]) => [name, row.specification]),
) as Record<Profile, string>;

/** The electronic address schemes Peppol delivers to (Peppol BIS Billing 3.0.19, rule PEPPOL-EN16931-CL008): the
 * CEF EAS list of the schema less e-mail and the other non-numeric schemes (EM, AN, AQ, AS, AU) and a few numeric ones. */
const PEPPOL_EAS = new Set(
  (
    '0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0147 0151 0154 0158 0170 0177 0183 0184 0188 0190 0191 ' +
    '0192 0193 0194 0195 0196 0198 0199 0200 0201 0202 0203 0204 0205 0208 0209 0210 0211 0212 0213 0215 0216 0217 0218 ' +
    '0221 0225 0230 0235 0240 9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 ' +
    '9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959'
  ).split(' '),
);

/** What XRechnung 3.0 requires of a party (BR-DE-2 … BR-DE-9, and the electronic addresses of 3.0). */
function xrechnungParty(party: Party, role: 'seller' | 'buyer', out: FieldProblem[]): void {
  const need = (ok: unknown, field: string, what: string) => {
    if (!ok) out.push({ field: `e_invoice.${role}.${field}`, message: `e_invoice.${role}.${field} is required by XRechnung (${what})` });
  };
  need(party.endpoint, 'endpoint', role === 'seller' ? "the seller's electronic address, BT-34" : "the buyer's electronic address, BT-49");
  need(party.address.city, 'city', role === 'seller' ? 'BR-DE-3' : 'BR-DE-8');
  need(party.address.postalCode, 'postal_code', role === 'seller' ? 'BR-DE-4' : 'BR-DE-9');
  if (role === 'seller') {
    need(party.contact?.name, 'contact_name', 'the seller contact, BR-DE-5');
    need(party.contact?.phone, 'phone', 'the seller contact, BR-DE-6');
    need(party.contact?.email, 'email', 'the seller contact, BR-DE-7');
  }
}

/** The problem of a profile asked of a syntax it is not made in (naming the profiles that are), if it is. */
function syntaxProblem(invoice: EInvoice, row: ProfileRow, syntax: 'ubl' | 'cii'): FieldProblem | undefined {
  if (row.syntaxes.includes(syntax)) return undefined;
  const made = row.syntaxes.join(' and ').toUpperCase();
  const instead = Object.entries(PROFILES)
    .filter(([, r]) => r.syntaxes.includes(syntax))
    .map(([n]) => n)
    .join(', ');
  return {
    field: 'e_invoice.profile',
    message: `e_invoice.profile ${invoice.profile} is made in ${made} only; for ${syntax.toUpperCase()} use ${instead}`,
  };
}

/** What a CII e-invoice requires: the parties' countries, and no term its profile has no place for. */
function ciiProblems(invoice: EInvoice, row: ProfileRow, out: FieldProblem[]): void {
  // CII is made for clients that ask for a conformant e-invoice (/cii, /factur-x: no legacy to keep): what EN 16931
  // requires and cannot be read from free text is asked for (UBL keeps the reference's free-text-only documents).
  for (const role of ['seller', 'buyer'] as const) {
    // MINIMUM has no place for the buyer's address (row.keyFigures).
    if (!invoice[role].address.country && !(role === 'buyer' && row.keyFigures)) {
      out.push({
        field: `e_invoice.${role}.country`,
        message: `e_invoice.${role}.country is required for a CII e-invoice (the ${role}'s country, ${role === 'seller' ? 'BR-09' : 'BR-11'}), or a VAT ID line in ${role === 'seller' ? 'from' : 'to'}`,
      });
    }
  }
  // A term the profile has no place for is refused, never left out (profile-terms.ts).
  out.push(...carriageProblems(invoice, row.facturX?.level ?? invoice.profile));
}

/** What Peppol requires: electronic addresses in a scheme it delivers to, and the type codes of its billing profile
 * (PEPPOL-EN16931-P0100, P0101: self-billing is a specification of its own; P0112: a corrected invoice, 384, between
 * German parties only). */
function peppolProblems(invoice: EInvoice, out: FieldProblem[]): void {
  if (invoice.typeCode === '389' || invoice.typeCode === '261') {
    out.push({
      field: 'e_invoice.self_billed',
      message:
        'e_invoice.self_billed is not in Peppol BIS Billing (self-billing is a Peppol specification of its own, PEPPOL-EN16931-P0100): use the profile en16931',
    });
  }
  if (invoice.typeCode === '384' && !(invoice.seller.address.country === 'DE' && invoice.buyer.address.country === 'DE')) {
    out.push({
      field: 'e_invoice.corrective',
      message:
        'e_invoice.corrective (type code 384) is allowed by Peppol BIS Billing between German parties only (PEPPOL-EN16931-P0112): use the profile en16931',
    });
  }
  for (const role of ['seller', 'buyer'] as const) {
    const scheme = invoice[role].endpoint?.scheme;
    if (scheme && !PEPPOL_EAS.has(scheme)) {
      out.push({
        field: `e_invoice.${role}.endpoint.scheme`,
        message: `e_invoice.${role}.endpoint.scheme ${scheme} is not a scheme Peppol delivers to (PEPPOL-EN16931-CL008); use one such as 0088, 0208 or 9930, or the profile en16931 or xrechnung`,
      });
    }
  }
}

/** What XRechnung requires: the buyer reference, the parties' details, payment instructions and the seller's VAT id. */
function xrechnungProblems(invoice: EInvoice, out: FieldProblem[]): void {
  if (!invoice.buyerReference) {
    out.push({
      field: 'e_invoice.buyer_reference',
      message: 'e_invoice.buyer_reference is required by XRechnung (the Leitweg-ID or the buyer reference, BR-DE-15)',
    });
  }
  xrechnungParty(invoice.seller, 'seller', out);
  xrechnungParty(invoice.buyer, 'buyer', out);
  if (!invoice.payment) {
    out.push({
      field: 'e_invoice.payment_means',
      message:
        'e_invoice.payment_means is required by XRechnung (payment instructions, BR-DE-1): send its code, and an IBAN for a credit transfer',
    });
  } else if (['30', '58'].includes(invoice.payment.code) && !invoice.payment.iban) {
    out.push({
      field: 'e_invoice.payment_means.iban',
      message: 'e_invoice.payment_means.iban is required by XRechnung for a credit transfer (codes 30 and 58, BR-DE-23)',
    });
  }
  if (!invoice.seller.vatId && invoice.vatBreakdown.some((b) => b.category.code !== 'O')) {
    out.push({
      field: 'e_invoice.seller.vat_id',
      message: "e_invoice.seller.vat_id is required by XRechnung for a document subject to VAT (the seller's VAT identifier, BR-DE-16)",
    });
  }
}

/** Every requirement of the invoice's profile it does not meet, named by the request's fields. */
export function profileProblems(invoice: EInvoice, syntax: 'ubl' | 'cii'): FieldProblem[] {
  const row = PROFILES[invoice.profile];
  const wrongSyntax = syntaxProblem(invoice, row, syntax);
  if (wrongSyntax) return [wrongSyntax];
  const out: FieldProblem[] = [];
  if (syntax === 'cii') ciiProblems(invoice, row, out);
  if (invoice.profile === 'peppol') peppolProblems(invoice, out);
  if (invoice.profile === 'xrechnung') xrechnungProblems(invoice, out);
  return out;
}
