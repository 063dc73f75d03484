// A request and its totals as the EN 16931 model (model.ts), once, for every syntax (ubl.ts, cii.ts): dates read in
// the request's locale, parties from free text and structured data, the VAT of every line and adjustment
// (vat-categories.ts), payment instructions, references, and the profile's own requirements (profiles.ts). Every
// problem is reported at once, as one 400 naming each field. Knows no syntax; computes no amount (money/ did).
import { parseDocumentDate, todayIso } from '../documents/dates';
import { isEInvoiceType, type DocumentRequest } from '../documents/model';
import { DomainError, errors, type FieldProblem } from '../errors';
import type { Totals } from '../money/totals';
import type { EInvoice, Party, PaymentInstructions, Profile } from './model';
import { partyFrom } from './parties';
import { profileProblems } from './profiles';
import { invoiceVat, type AdjustmentLabels } from './vat-categories';

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

function dates(doc: DocumentRequest, localeTag: string, timeZone: string, now?: Date): { issue: string; due?: string } {
  const problems: FieldProblem[] = [];
  const read = (field: 'date' | 'due_date'): string | undefined => {
    const value = doc[field];
    if (value === undefined) return undefined;
    const iso = parseDocumentDate(value, localeTag);
    if (!iso) {
      problems.push({
        field,
        message: `${field} must be a date such as 2015-02-09 or Feb 9, 2015 (numeric dates are read ${localeTag === 'en-US' ? 'month first' : 'day first'} for ${localeTag})`,
      });
    }
    return iso;
  };
  const issue = read('date') ?? todayIso(timeZone, now);
  const due = read('due_date');
  if (problems.length) throw errors.validation(problems);
  return { issue, due };
}

function party(freeText: string, structured: Parameters<typeof partyFrom>[1]): Party {
  const p = partyFrom(freeText, structured);
  const contact = p.contactName || p.phone || p.email ? { name: p.contactName, phone: p.phone, email: p.email } : undefined;
  return {
    name: p.name,
    endpoint: p.endpoint,
    address: {
      street: p.street,
      additionalStreet: p.additionalStreet,
      line3: p.addressLine,
      city: p.city,
      postalCode: p.postalZone,
      region: p.region,
      country: p.country,
    },
    vatId: p.vatId,
    companyId: p.companyId,
    contact,
  };
}

/** One payment instruction (UBL-SR-47: one payment means code): the structured one, with a receipt's payment method
 * text as its name and each payment URL as a note; URLs alone are 68 (UNCL4461: online payment service). */
function payment(doc: DocumentRequest): PaymentInstructions | undefined {
  const means = doc.e_invoice?.payment_means;
  const methodText = doc.type === 'receipt' ? doc.payment_terms : undefined;
  if (!means && !methodText && doc.payment_methods.length === 0) return undefined;
  return {
    code: means?.code ?? (means?.iban ? '30' : doc.payment_methods.length > 0 ? '68' : 'ZZZ'),
    text: methodText ?? (doc.payment_methods.length === 1 && !means ? doc.payment_methods[0]!.name : undefined),
    paymentId: means?.payment_id,
    iban: means?.iban,
    accountName: means?.account_name,
    bic: means?.bic,
    notes: doc.payment_methods.map((m) => `${m.name}: ${m.url}`),
  };
}

export function toEInvoice(input: MapInput): EInvoice {
  const { doc, totals } = input;
  if (!isEInvoiceType(doc.type)) throw errors.eInvoiceType(doc.type);
  // Every problem with the request is reported at once (the number, the dates, the tax, the profile), not the first.
  const problems: FieldProblem[] = [];
  const collect = <T>(step: () => T): T | undefined => {
    try {
      return step();
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'validation_failed' || !err.facts.details) throw err;
      problems.push(...err.facts.details);
      return undefined;
    }
  };
  if (!doc.number) problems.push({ field: 'number', message: 'number is required for an e-invoice (the invoice number, BT-1)' });
  const when = collect(() => dates(doc, input.localeTag, input.timeZone, input.now));
  const seller = party(doc.from, doc.e_invoice?.seller);
  const buyer = party(doc.to, doc.e_invoice?.buyer);
  const vat = collect(() => invoiceVat(doc, totals, Boolean(seller.vatId || buyer.vatId), input.labels));
  if (problems.length > 0 || !when || !vat) throw errors.validation(problems);

  const e = doc.e_invoice;
  const profile = e?.profile ?? input.defaultProfile;
  const isInvoice = doc.type === 'invoice';
  // Peppol wants a buyer reference or an order reference (PEPPOL-EN16931-R003). A client that sends e_invoice data
  // asks for a conformant document; without either reference, the document number stands in as the buyer reference.
  // Not for XRechnung, whose buyer reference is the buyer's routing id (Leitweg-ID): only the client knows it.
  const standIn = e && profile !== 'xrechnung' && !(doc.purchase_order && isInvoice) ? doc.number : undefined;
  const buyerReference = e?.buyer_reference ?? standIn;
  const pay = payment(doc);
  // EN 16931 wants a due date or payment terms when an amount is due (BR-CO-25); for a client that sends e_invoice data
  // and neither, the terms say what an invoice without a due date means.
  const terms = isInvoice ? doc.payment_terms : undefined;
  const dueWithoutTerms = e && !terms && !when.due && totals.balance.isPositive() && !totals.balance.isZero();
  const nonZero = (v: Totals['subtotal']) => (v.isZero() ? undefined : v);

  const invoice: EInvoice = {
    profile,
    typeCode: doc.type === 'credit_note' ? '381' : '380',
    number: doc.number!,
    issueDate: when.issue,
    dueDate: when.due,
    currency: totals.currency,
    buyerReference,
    orderReference: doc.purchase_order && isInvoice ? doc.purchase_order : undefined,
    precedingInvoice: doc.purchase_order && !isInvoice ? doc.purchase_order : undefined,
    // Peppol allows one document note: notes and terms share it.
    notes: [[doc.notes, doc.terms].filter(Boolean).join('\n\n')].filter(Boolean),
    paymentTerms: terms ?? (dueWithoutTerms ? 'Payment due on receipt' : undefined),
    seller,
    buyer,
    payment: pay,
    allowancesCharges: vat.adjustments,
    vatBreakdown: vat.breakdown,
    totals: {
      lineNet: totals.subtotal,
      allowances: nonZero(totals.discount.amount),
      charges: nonZero(totals.shipping.amount),
      taxExclusive: totals.taxExclusive,
      tax: totals.tax.amount,
      taxInclusive: totals.total,
      prepaid: nonZero(totals.amountPaid),
      payable: totals.balance,
    },
    lines: doc.items.map((item, i) => {
      const t = totals.lines[i]!;
      // EN 16931 forbids a negative price (BR-27): a credit line is a negative quantity at a positive price.
      const negativePrice = t.unitCost.isNegative();
      return {
        id: String(i + 1),
        quantity: negativePrice ? t.quantity.neg() : t.quantity,
        unitCode: 'C62',
        net: t.amount,
        price: negativePrice ? t.unitCost.neg() : t.unitCost,
        name: item.name ?? item.description ?? `Line ${i + 1}`,
        description: item.description,
        vat: vat.lines[i]!,
      };
    }),
    attachment: input.attachment
      ? { id: doc.number!, description: 'PDF rendering', filename: input.attachment, mimeCode: 'application/pdf' }
      : undefined,
    minorUnits: totals.minorUnits,
  };
  const unmet = profileProblems(invoice, input.syntax);
  if (unmet.length > 0) throw errors.validation(unmet);
  return invoice;
}
