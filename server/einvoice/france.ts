// France's e-invoicing reform (AFNOR XP Z12-012 v1.4 and the FNFE-MPE's rules BR-FR, "Flux 2"): the French mentions
// of an invoice made in a French profile (profiles.ts rows with `france`), added to the model from the request
// (frenchMentions), and what the French rules require that the request must then say, each a problem naming its field
// (frenchProblems), so that the official rules find nothing fatal in what is written. Also how a received invoice is
// known to be French (isFrenchBillingFramework). Where each mention sits in UBL and CII is the writers' (ubl/, cii/):
// every one is an EN 16931 term. No XML, no amounts (money/ computed them), no HTTP.
import type { DocumentRequest } from '../documents/model';
import type { FieldProblem } from '../errors';
import { Decimal } from '../money/decimal';
import type { EInvoice, Party } from './model';

/** BT-23 in France, the billing framework ("cadre de facturation", BR-FR-08): B goods, S services, M both; 1 an
 * invoice, 2 one already paid, 4 a final invoice after a down payment, 5 a sub-contractor's, 6 a co-contractor's,
 * 7 one whose VAT was already e-reported, 8 and 9 multi-vendor invoices, 3 services under special rules. */
export const BILLING_FRAMEWORKS: readonly string[] = 'B1 S1 M1 B2 S2 M2 S3 B4 S4 M4 S5 S6 B7 S7 B8 S8 M8 B9 S9 M9'.split(' ');

/** e_invoice.operation_category as its billing framework. */
const OPERATION_CATEGORY = { goods: 'B1', services: 'S1', mixed: 'M1' } as const;

/** A billing framework whose invoice is already paid (BR-FR-CO-09). */
const ALREADY_PAID = new Set(['B2', 'S2', 'M2']);

/** Whether BT-23 names a French billing framework: what tells a received invoice of the EN16931 profile issued under
 * the reform from any other (its BT-24 is the norm's own). */
export function isFrenchBillingFramework(bt23: string | undefined): boolean {
  return bt23 !== undefined && BILLING_FRAMEWORKS.includes(bt23.trim());
}

/** The VAT rates of France, mainland and overseas, current and past (BR-FR-16). */
const FRENCH_VAT_RATES = ['0', '10', '13', '20', '8.5', '19.6', '2.1', '5.5', '7', '20.6', '1.05', '0.9', '1.75', '9.2', '9.6'].map(
  (r) => new Decimal(r),
);

/** What an attached document may be described as (BT-123, BR-FR-17); the invoice's own readable rendering is LISIBLE,
 * one at most (BR-FR-18). */
const ATTACHMENT_CODES = [
  'RIB',
  'LISIBLE',
  'FEUILLE_DE_STYLE',
  'PJA',
  'BORDEREAU_SUIVI',
  'DOCUMENT_ANNEXE',
  'BON_LIVRAISON',
  'BON_COMMANDE',
  'BORDEREAU_SUIVI_VALIDATION',
  'ETAT_ACOMPTE',
  'FACTURE_PAIEMENT_DIRECT',
  'RECAPITULATIF_COTRAITANCE',
];
const READABLE = 'LISIBLE';

/** The legal notes every French invoice carries (BR-FR-05, Code de commerce L441-9 and L441-10), by subject code, with
 * the text written when the request sends none of that code: PMT the fixed recovery fee, PMD the late-payment
 * penalties, AAB the discount for early payment (or that there is none). */
export const FRENCH_LEGAL_NOTES: readonly { code: 'PMT' | 'PMD' | 'AAB'; text: string }[] = [
  { code: 'PMT', text: 'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 €.' },
  { code: 'PMD', text: "Pénalités de retard : trois fois le taux d'intérêt légal, exigibles dès le lendemain de l'échéance." },
  { code: 'AAB', text: 'Pas d’escompte pour paiement anticipé.' },
];

/** UNTDID 1001 codes: self-billed invoice and credit note, corrected invoice. */
const SELF_BILLED = { invoice: '389', credit_note: '261' } as const;
const CORRECTED = '384';
const SELF_BILLED_CODES = new Set(['389', '501', '500', '471', '473', '261', '502']);
const CREDIT_NOTE_CODES = new Set(['261', '381', '396', '502', '503']);

/** The French directory's electronic address scheme (BT-34-1 / BT-49-1): a SIREN, SIREN_SIRET or
 * SIREN_SIRET_routing-code, alphanumerics and - _ . (BR-FR-23), at most 125 characters (BR-FR-25). */
export const FRENCH_ADDRESS_SCHEME = '0225';
const ADDRESS_FORM = /^[A-Za-z0-9_.-]{1,125}$/;
const SIREN_SCHEME = '0002';
const SIRET_SCHEME = '0009';

type Structured = NonNullable<DocumentRequest['e_invoice']>;

/** The SIREN of a party: its legal registration identifier in scheme 0002. */
export function sirenOf(party: Party): string | undefined {
  return party.companyId?.scheme === SIREN_SCHEME ? party.companyId.id : undefined;
}

/** BT-3 of an invoice or credit note as the request states it: self-billed, corrected, or the plain codes. */
export function typeCodeOf(doc: DocumentRequest): string {
  const e = doc.e_invoice;
  const kind = doc.type === 'credit_note' ? 'credit_note' : 'invoice';
  if (e?.self_billed) return SELF_BILLED[kind];
  if (e?.corrective && kind === 'invoice') return CORRECTED;
  return kind === 'credit_note' ? '381' : '380';
}

/** A party with the French directory's address (its SIREN) when it has none. */
function withAddress(party: Party): Party {
  const siren = sirenOf(party);
  return party.endpoint || !siren ? party : { ...party, endpoint: { scheme: FRENCH_ADDRESS_SCHEME, id: siren } };
}

/** The French mentions of a French profile's invoice, from the request: the billing framework (BT-23), the parties'
 * directory addresses, the legal notes and the processing note (BG-1), the readable rendering's code (BT-123). */
export function frenchMentions(invoice: EInvoice, e: Structured): EInvoice {
  const given = new Set(invoice.notes.map((n) => n.subjectCode));
  const notes = [
    ...invoice.notes,
    ...FRENCH_LEGAL_NOTES.filter((n) => !given.has(n.code)).map((n) => ({ subjectCode: n.code, text: n.text })),
    ...(e.processing && !given.has('BAR') ? [{ subjectCode: 'BAR', text: e.processing }] : []),
  ];
  return {
    ...invoice,
    businessProcess: e.business_process ?? (e.operation_category ? OPERATION_CATEGORY[e.operation_category] : undefined),
    seller: withAddress(invoice.seller),
    buyer: withAddress(invoice.buyer),
    notes,
    documents: invoice.documents.map((d) => (d.pdf ? { ...d, description: READABLE } : d)),
  };
}

const ID_FORM = /^[A-Za-z0-9+_/-]{1,35}$/;
const year = (iso: string | undefined) => (iso === undefined ? undefined : Number(iso.slice(0, 4)));

function partyProblems(invoice: EInvoice, role: 'seller' | 'buyer', b2b: boolean, out: FieldProblem[]): void {
  const party = invoice[role];
  const field = `e_invoice.${role}`;
  const siren = sirenOf(party);
  if (party.companyId?.scheme === SIREN_SCHEME && !/^\d{9}$/.test(party.companyId.id)) {
    out.push({ field: `${field}.company_id`, message: `${field}.company_id is a SIREN (scheme 0002): 9 digits (BR-FR-32)` });
  }
  if (role === 'seller' && !siren) {
    out.push({ field: `${field}.siren`, message: `${field}.siren is required for a French invoice (the seller's SIREN, BT-30, BR-FR-10)` });
  }
  if (role === 'buyer' && b2b && !siren) {
    out.push({
      field: `${field}.siren`,
      message: `${field}.siren is required for a domestic B2B invoice (e_invoice.processing B2B: the buyer's SIREN, BT-47, BR-FR-11)`,
    });
  }
  if (!party.endpoint) {
    out.push({
      field: `${field}.endpoint`,
      message: `${field}.endpoint is required for a French invoice (the ${role}'s electronic address, ${role === 'seller' ? 'BT-34, BR-FR-13' : 'BT-49, BR-FR-12'}): send it, or a siren to use the directory's address`,
    });
  } else if (party.endpoint.scheme === FRENCH_ADDRESS_SCHEME && !ADDRESS_FORM.test(party.endpoint.id)) {
    out.push({
      field: `${field}.endpoint.id`,
      message: `${field}.endpoint.id in scheme 0225 has letters, digits and - _ . only, at most 125 (BR-FR-23, BR-FR-25)`,
    });
  }
  const schemes = (party.identifiers ?? []).map((i) => i.scheme);
  if (schemes.some((s) => !s)) {
    out.push({ field: `${field}.identifiers`, message: `${field}.identifiers each need a scheme in a French invoice (BR-FR-CO-10)` });
  } else if (new Set(schemes).size < schemes.length) {
    out.push({
      field: `${field}.identifiers`,
      message: `${field}.identifiers have one identifier per scheme in a French invoice (BR-FR-CO-10)`,
    });
  }
  for (const siret of (party.identifiers ?? []).filter((i) => i.scheme === SIRET_SCHEME)) {
    if (!/^\d{14}$/.test(siret.id) || (siren !== undefined && !siret.id.startsWith(siren))) {
      out.push({
        field: `${field}.siret`,
        message: `${field}.siret is 14 digits that start with the SIREN${siren ? ` ${siren}` : ''} (BR-FR-09)`,
      });
    }
  }
}

/** The endpoint a B2B invoice is routed by starts with its owner's SIREN: the buyer's, the seller's when self-billed
 * (BR-FR-21, BR-FR-22). */
function routingProblems(invoice: EInvoice, out: FieldProblem[]): void {
  const role = SELF_BILLED_CODES.has(invoice.typeCode) ? 'seller' : 'buyer';
  const party = invoice[role];
  const siren = sirenOf(party);
  if (siren && party.endpoint && !party.endpoint.id.startsWith(siren)) {
    out.push({
      field: `e_invoice.${role}.endpoint.id`,
      message: `e_invoice.${role}.endpoint.id starts with the ${role}'s SIREN ${siren} in a domestic B2B invoice (${role === 'buyer' ? 'BR-FR-21' : 'BR-FR-22'})`,
    });
  }
}

/** The invoice's own: its number and those it refers to (BR-FR-01, -02), its dates' years (BR-FR-03), its billing
 * framework (BR-FR-08, BR-FR-CO-09, -07), the invoices it credits or corrects (BR-FR-CO-05, -04), its currency
 * (BR-FR-CO-12, BR-FR-DEC-01) and its attachments (BR-FR-17, -18). */
function documentProblems(invoice: EInvoice, doc: DocumentRequest, out: FieldProblem[]): void {
  identifierProblems(invoice, out);
  frameworkProblems(invoice, out);
  referenceProblems(invoice, out);
  currencyProblems(invoice, out);
  attachmentProblems(invoice, doc, out);
}

function identifierProblems(invoice: EInvoice, out: FieldProblem[]): void {
  if (!ID_FORM.test(invoice.number)) {
    out.push({
      field: 'number',
      message: 'number of a French invoice has at most 35 letters, digits and + - _ / (no spaces, BR-FR-01, BR-FR-02)',
    });
  }
  for (const [i, p] of invoice.precedingInvoices.entries()) {
    if (!ID_FORM.test(p.number)) {
      out.push({
        field: `preceding_invoices[${i}].number`,
        message: `preceding_invoices[${i}].number has at most 35 letters, digits and + - _ / (BR-FR-01)`,
      });
    }
  }
  for (const [field, iso] of [
    ['date', invoice.issueDate],
    ['due_date', invoice.dueDate],
    ['tax_point_date', invoice.taxPointDate],
  ] as const) {
    const y = year(iso);
    if (y !== undefined && (y < 2000 || y > 2099))
      out.push({ field, message: `${field} of a French invoice is in the years 2000 to 2099 (BR-FR-03)` });
  }
}

function frameworkProblems(invoice: EInvoice, out: FieldProblem[]): void {
  const bt23 = invoice.businessProcess;
  if (bt23 === undefined) {
    out.push({
      field: 'e_invoice.operation_category',
      message:
        'e_invoice.operation_category is required for a French invoice: goods, services or mixed (the billing framework, BT-23, BR-FR-08), or business_process with its code',
    });
  } else if (!BILLING_FRAMEWORKS.includes(bt23)) {
    out.push({
      field: 'e_invoice.business_process',
      message: `e_invoice.business_process of a French invoice is a billing framework: ${BILLING_FRAMEWORKS.join(', ')} (BR-FR-08)`,
    });
  } else if (ALREADY_PAID.has(bt23) && !(invoice.totals.payable.isZero() && invoice.dueDate)) {
    out.push({
      field: 'amount_paid',
      message: `amount_paid of an invoice already paid (business_process ${bt23}) is its total, with a due_date the day it was paid (BR-FR-CO-09)`,
    });
  }
  if (invoice.dueDate && invoice.dueDate < invoice.issueDate && !(bt23 && ALREADY_PAID.has(bt23))) {
    out.push({ field: 'due_date', message: 'due_date of a French invoice is not before its date (BR-FR-CO-07)' });
  }
}

function referenceProblems(invoice: EInvoice, out: FieldProblem[]): void {
  const dated = invoice.precedingInvoices.filter((p) => p.date);
  if (CREDIT_NOTE_CODES.has(invoice.typeCode) && dated.length === 0) {
    out.push({
      field: 'preceding_invoices',
      message: 'preceding_invoices is required for a French credit note: the invoice it credits, with its number and date (BR-FR-CO-05)',
    });
  }
  if (invoice.typeCode === CORRECTED && (invoice.precedingInvoices.length !== 1 || dated.length !== 1)) {
    out.push({
      field: 'preceding_invoices',
      message: 'preceding_invoices of a corrective invoice is exactly one: the invoice it corrects, with its number and date (BR-FR-CO-04)',
    });
  }
}

function currencyProblems(invoice: EInvoice, out: FieldProblem[]): void {
  if (invoice.currency !== 'EUR' && invoice.taxCurrency?.code !== 'EUR') {
    out.push({
      field: 'e_invoice.tax_currency',
      message: `e_invoice.tax_currency is required for a French invoice in ${invoice.currency}: code EUR with the VAT total in euros (BR-FR-CO-12)`,
    });
  }
  if (invoice.minorUnits > 2) {
    out.push({
      field: 'currency',
      message: `currency ${invoice.currency} has ${invoice.minorUnits} decimals; a French invoice's amounts have at most 2 (BR-FR-DEC-01)`,
    });
  }
}

function attachmentProblems(invoice: EInvoice, doc: DocumentRequest, out: FieldProblem[]): void {
  const attachments = doc.e_invoice?.attachments ?? [];
  for (const [i, a] of attachments.entries()) {
    if (a.description !== undefined && !ATTACHMENT_CODES.includes(a.description)) {
      out.push({
        field: `e_invoice.attachments[${i}].description`,
        message: `e_invoice.attachments[${i}].description of a French invoice is one of ${ATTACHMENT_CODES.join(', ')} (BR-FR-17)`,
      });
    }
  }
  if (invoice.documents.filter((d) => d.description === READABLE).length > 1) {
    out.push({
      field: 'e_invoice.attachments',
      message:
        'e_invoice.attachments has a LISIBLE document, and the invoice attaches its own rendering as LISIBLE: one at most (BR-FR-18); send embed_pdf false, or another description',
    });
  }
}

function amountProblems(invoice: EInvoice, out: FieldProblem[]): void {
  for (const b of invoice.vatBreakdown) {
    const code = b.category.code;
    if (code === 'L' || code === 'M') {
      out.push({ field: 'e_invoice.tax_category', message: `e_invoice.tax_category ${code} is not a French VAT category (BR-FR-15)` });
    } else if (b.category.rate !== undefined && !FRENCH_VAT_RATES.some((r) => r.equals(b.category.rate!))) {
      out.push({
        field: 'tax',
        message: `tax rate ${b.category.rate.toString()} % is not a French VAT rate: ${FRENCH_VAT_RATES.join(', ')} (BR-FR-16)`,
      });
    }
  }
  for (const [i, l] of invoice.lines.entries()) {
    if (l.quantity.decimalPlaces() > 4) {
      out.push({
        field: `items[${i}].quantity`,
        message: `items[${i}].quantity of a French invoice has at most 4 decimals (BR-FR-DEC-02)`,
      });
    }
    if (l.price.decimalPlaces() > 6) {
      out.push({
        field: `items[${i}].unit_cost`,
        message: `items[${i}].unit_cost of a French invoice has at most 6 decimals (BR-FR-DEC-03)`,
      });
    }
  }
}

/** What the French rules require of an invoice of a French profile that it does not have, by the request's fields. */
export function frenchProblems(invoice: EInvoice, doc: DocumentRequest): FieldProblem[] {
  const out: FieldProblem[] = [];
  const b2b = doc.e_invoice?.processing === 'B2B';
  documentProblems(invoice, doc, out);
  partyProblems(invoice, 'seller', b2b, out);
  partyProblems(invoice, 'buyer', b2b, out);
  if (b2b) routingProblems(invoice, out);
  amountProblems(invoice, out);
  return out;
}

/** The request's French-only terms, refused in any other profile (they would mean nothing there). */
export function frenchOnly(e: Structured): FieldProblem[] {
  return (['operation_category', 'processing'] as const)
    .filter((k) => e[k] !== undefined)
    .map((k) => ({
      field: `e_invoice.${k}`,
      message: `e_invoice.${k} is a term of France's reform: send it with e_invoice.profile fr or extended_ctc_fr`,
    }));
}
