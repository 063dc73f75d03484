// A request and its totals as the EN 16931 model (model.ts), once, for every syntax (ubl/, cii/): dates read in
// the request's locale (map-dates.ts), parties from free text and structured data (parties.ts), the VAT of every line
// and adjustment (vat-categories.ts), the lines (map-lines.ts), payment, payee, delivery, notes, documents and
// references (map-parts.ts), and the profile's own requirements (profiles.ts). Every problem is reported at once, as
// one validation_failed naming each field. Writes no syntax: the syntax it is told only checks that the profile is made in it
// (profiles.ts). Computes no amount (money/ did).
import { isEInvoiceType, type DocumentRequest } from '../documents/model';
import { DomainError, errors, type FieldProblem } from '../errors';
import type { Totals } from '../money/totals';
import { readDates, type InvoiceDates } from './map-dates';
import { linesOf } from './map-lines';
import { deliveryOf, documentsOf, notesOf, payeeOf, paymentOf, referencesOf, taxRepresentativeOf } from './map-parts';
import type { EInvoice, Profile } from './model';
import { normProblems } from './norm-checks';
import { frenchMentions, frenchOnly, frenchProblems, typeCodeOf } from './france';
import { modelParty, partyConflicts } from './parties';
import { PROFILES, profileProblems } from './profiles';
import { invoiceVat, type AdjustmentLabels, type InvoiceVat } from './vat-categories';

export interface MapInput {
  doc: DocumentRequest;
  totals: Totals;
  syntax: 'ubl' | 'cii';
  /** The profile when the request names none (/ubl: peppol; /cii and /factur-x: en16931). */
  defaultProfile: Profile;
  /** BCP 47 tag of the request, for reading numeric dates (en-US month first). */
  localeTag: string;
  timeZone: string;
  /** Localized labels, used as the adjustments' reasons like the PDF's lines. */
  labels: AdjustmentLabels;
  /** The PDF rendering to attach (UBL), by file name. */
  attachment?: string;
  now?: Date;
}

/** e_invoice.vat_on as BT-8 (UNTDID 2005): VAT on debits is due at the invoice date (3), on receipts at payment (432). */
const VAT_ON = { debits: '3', receipts: '432' } as const;

/** Runs `step`, keeping its validation problems with the others (every problem is reported at once). */
function collector(problems: FieldProblem[]) {
  return <T>(step: () => T): T | undefined => {
    try {
      return step();
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'validation_failed' || !err.facts.details) throw err;
      problems.push(...err.facts.details);
      return undefined;
    }
  };
}

/** The request's number, dates, parties and VAT, read once; every problem among them is thrown at once. */
function readRequest(input: MapInput): { when: InvoiceDates; seller: EInvoice['seller']; buyer: EInvoice['buyer']; vat: InvoiceVat } {
  const { doc, totals } = input;
  const problems: FieldProblem[] = [];
  if (!doc.number) problems.push({ field: 'number', message: 'number is required for an e-invoice (the invoice number, BT-1)' });
  const when = readDates(doc, input.localeTag, input.timeZone, problems, input.now);
  const e = doc.e_invoice ?? {};
  if (doc.tax_point_date !== undefined && e.vat_point_date_code !== undefined) {
    problems.push({
      field: 'e_invoice.vat_point_date_code',
      message: 'e_invoice.vat_point_date_code and tax_point_date cannot both be given (BR-CO-3): send one',
    });
  }
  if (e.vat_on !== undefined && (e.vat_point_date_code !== undefined || doc.tax_point_date !== undefined)) {
    problems.push({
      field: 'e_invoice.vat_on',
      message: `e_invoice.vat_on and ${e.vat_point_date_code !== undefined ? 'e_invoice.vat_point_date_code' : 'tax_point_date'} both say when VAT is due (BT-7, BT-8): send one`,
    });
  }
  if (e.corrective && doc.type !== 'invoice') {
    problems.push({ field: 'e_invoice.corrective', message: `e_invoice.corrective is for an invoice (type code 384), not a ${doc.type}` });
  }
  problems.push(...partyConflicts(e.seller, 'seller'), ...partyConflicts(e.buyer, 'buyer'));
  const seller = modelParty(doc.from, e.seller);
  const buyer = modelParty(doc.to, e.buyer);
  const vat = collector(problems)(() => invoiceVat(doc, totals, Boolean(seller.vatId || buyer.vatId), input.labels));
  if (problems.length > 0 || !vat) throw errors.validation(problems);
  return { when, seller, buyer, vat };
}

/** The buyer reference (BT-10) when the request sends none: the document number, or nothing. */
function buyerReferenceStandIn(doc: DocumentRequest, profile: Profile): string | undefined {
  // Peppol wants a buyer reference or an order reference (PEPPOL-EN16931-R003). A client that sends e_invoice data
  // asks for a conformant document; without either reference, the document number stands in as the buyer reference.
  // Not for XRechnung, whose buyer reference is the buyer's routing id (Leitweg-ID): only the client knows it.
  return doc.e_invoice && profile !== 'xrechnung' && !(doc.purchase_order && doc.type === 'invoice') ? doc.number : undefined;
}

/** The payment terms (BT-20): an invoice's own, else what an amount due without a due date means, when one is. */
function paymentTermsOf(doc: DocumentRequest, profile: Profile, when: InvoiceDates, totals: Totals): string | undefined {
  // EN 16931 wants a due date or payment terms when an amount is due (BR-CO-25); for a client that sends e_invoice data
  // and neither, the terms say what an invoice without a due date means.
  const terms = doc.type === 'invoice' ? doc.payment_terms : undefined;
  // Not for MINIMUM, which has no place for terms (nor the rule).
  const dueWithoutTerms =
    doc.e_invoice && !PROFILES[profile].keyFigures && !terms && !when.due && totals.balance.isPositive() && !totals.balance.isZero();
  return terms ?? (dueWithoutTerms ? 'Payment due on receipt' : undefined);
}

/** The invoices this one follows (BG-3): a receipt's or credit note's purchase_order first, then the listed ones. */
function precedingInvoicesOf(doc: DocumentRequest, when: InvoiceDates): EInvoice['precedingInvoices'] {
  const preceding = doc.purchase_order && doc.type !== 'invoice' ? [{ number: doc.purchase_order }] : [];
  return [...preceding, ...doc.preceding_invoices.map((p, i) => ({ number: p.number, date: when.preceding[i] }))];
}

/** The document totals (BG-22) from money/'s; zero allowances, charges, prepaid amount and rounding are left out. */
function documentTotals(totals: Totals): EInvoice['totals'] {
  const nonZero = (v: Totals['subtotal']) => (v.isZero() ? undefined : v);
  return {
    lineNet: totals.subtotal,
    // BT-107 / BT-108: the discount and the shipping with e_invoice.allowances and .charges (BR-CO-11, BR-CO-12).
    allowances: nonZero(totals.discount.amount.add(totals.allowances)),
    charges: nonZero(totals.shipping.amount.add(totals.charges)),
    taxExclusive: totals.taxExclusive,
    tax: totals.tax.amount,
    taxInclusive: totals.total,
    prepaid: nonZero(totals.amountPaid),
    rounding: nonZero(totals.rounding),
    payable: totals.balance,
  };
}

/** What the norm, then the profile, asks that `invoice` lacks; a field the profile asks again (XRechnung's IBAN,
 * BR-DE-23) is not repeated. */
function unmetRequirements(invoice: EInvoice, doc: DocumentRequest, syntax: MapInput['syntax']): FieldProblem[] {
  const e = doc.e_invoice ?? {};
  return [
    ...normProblems(invoice, !e.payment_means?.account_id || Boolean(e.payment_means.iban)),
    ...profileProblems(invoice, syntax),
    ...(PROFILES[invoice.profile].france ? frenchProblems(invoice, doc) : frenchOnly(e)),
  ].filter((p, i, all) => all.findIndex((q) => q.field === p.field) === i);
}

/** The request as an EN 16931 invoice in its profile; every problem is thrown at once as one validation error. */
export function toEInvoice(sent: MapInput): EInvoice {
  // EN 16931 states net prices and amounts: with prices that include tax, the totals' net form (money/inclusive.ts).
  const input: MapInput = { ...sent, totals: sent.totals.net ?? sent.totals };
  const { doc, totals } = input;
  if (!isEInvoiceType(doc.type)) throw errors.eInvoiceType(doc.type);
  const { when, seller, buyer, vat } = readRequest(input);
  const e = doc.e_invoice ?? {};
  const profile = e.profile ?? input.defaultProfile;
  const made: EInvoice = {
    profile,
    businessProcess: e.business_process ?? PROFILES[profile].businessProcess,
    typeCode: typeCodeOf(doc),
    number: doc.number!,
    issueDate: when.issue,
    dueDate: when.due,
    taxPointDate: when.taxPoint,
    taxPointDateCode: e.vat_point_date_code ?? (e.vat_on ? VAT_ON[e.vat_on] : undefined),
    currency: totals.currency,
    taxCurrency: totals.taxCurrency,
    buyerReference: e.buyer_reference ?? buyerReferenceStandIn(doc, profile),
    orderReference: doc.purchase_order && doc.type === 'invoice' ? doc.purchase_order : undefined,
    ...referencesOf(e),
    precedingInvoices: precedingInvoicesOf(doc, when),
    notes: notesOf(doc, PROFILES[profile].singleNote),
    paymentTerms: paymentTermsOf(doc, profile, when, totals),
    period: when.period,
    seller,
    buyer,
    payee: payeeOf(e),
    taxRepresentative: taxRepresentativeOf(e),
    delivery: deliveryOf(e, when.delivery),
    payment: paymentOf(doc),
    allowancesCharges: vat.adjustments,
    vatBreakdown: vat.breakdown,
    totals: documentTotals(totals),
    lines: linesOf(doc, totals, vat.lines, when.lines),
    documents: documentsOf(e, doc.number!, input.attachment),
    minorUnits: totals.minorUnits,
  };
  const invoice = PROFILES[profile].france ? frenchMentions(made, e) : made;
  const unmet = unmetRequirements(invoice, doc, input.syntax);
  if (unmet.length > 0) throw errors.validation(unmet);
  return invoice;
}
