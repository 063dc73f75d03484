// The parts of the EN 16931 model that are read from the request as they are: payment instructions (BG-16 … BG-19),
// the payee (BG-10), the tax representative (BG-11), delivery (BG-13), notes (BG-1), supporting documents (BG-24)
// and the document references (BT-11 … BT-19). No dates (map-dates.ts), no amounts (money/), no syntax.
import type { DocumentRequest } from '../documents/model';
import type { Address, Delivery, EInvoice, Payee, PaymentInstructions, SupportingDocument, TaxRepresentative } from './model';

type Structured = NonNullable<DocumentRequest['e_invoice']>;
type AddressIn = Partial<Record<'street' | 'additional_street' | 'address_line_3' | 'city' | 'postal_code' | 'region' | 'country', string>>;

/** BG-5 … BG-15 from the request's structured address fields. */
export function addressOf(a: AddressIn): Address {
  return {
    street: a.street,
    additionalStreet: a.additional_street,
    line3: a.address_line_3,
    city: a.city,
    postalCode: a.postal_code,
    region: a.region,
    country: a.country,
  };
}

const hasAny = (a: Address) => Object.values(a).some((v) => v !== undefined);

/** One payment instruction (UBL-SR-47: one payment means code): the structured one, with a receipt's payment method
 * text as its name and each payment URL as a note; URLs alone are 68 (UNCL4461: online payment service). A card
 * payment is 48, a direct debit 59, when the request names no code. */
export function paymentOf(doc: DocumentRequest): PaymentInstructions | undefined {
  const means = doc.e_invoice?.payment_means;
  const methodText = means?.text ?? (doc.type === 'receipt' ? doc.payment_terms : undefined);
  if (!means && !methodText && doc.payment_methods.length === 0) return undefined;
  const defaultCode = means?.card ? '48' : means?.direct_debit ? '59' : means?.iban ? '30' : doc.payment_methods.length > 0 ? '68' : 'ZZZ';
  const debit = means?.direct_debit;
  return {
    code: means?.code ?? defaultCode,
    text: methodText ?? (doc.payment_methods.length === 1 && !means ? doc.payment_methods[0]!.name : undefined),
    paymentId: means?.payment_id,
    iban: means?.iban,
    accountId: means?.iban ? undefined : means?.account_id,
    additionalAccounts: means?.additional_accounts?.map((a) => ({
      iban: a.iban,
      accountId: a.iban ? undefined : a.account_id,
      accountName: a.account_name,
      bic: a.bic,
    })),
    accountName: means?.account_name,
    bic: means?.bic,
    card: means?.card ? { number: means.card.number, holder: means.card.holder } : undefined,
    directDebit: debit
      ? { mandateReference: debit.mandate_reference, creditorId: debit.creditor_id, debitedAccount: debit.debited_account }
      : undefined,
    notes: doc.payment_methods.map((m) => `${m.name}: ${m.url}`),
  };
}

export function payeeOf(e: Structured): Payee | undefined {
  const p = e.payee;
  if (!p) return undefined;
  return {
    name: p.name,
    id: p.id ? { id: p.id, scheme: p.id_scheme } : undefined,
    companyId: p.company_id ? { id: p.company_id, scheme: p.company_id_scheme } : undefined,
  };
}

export function taxRepresentativeOf(e: Structured): TaxRepresentative | undefined {
  const t = e.tax_representative;
  return t ? { name: t.name, vatId: t.vat_id, address: addressOf(t) } : undefined;
}

/** BG-13 from e_invoice.delivery and the date of supply (BT-72, a top-level field the PDF prints too). */
export function deliveryOf(e: Structured, date: string | undefined): Delivery | undefined {
  const d = e.delivery;
  const address = d ? addressOf(d) : undefined;
  if (!d && !date) return undefined;
  return {
    name: d?.name,
    locationId: d?.location_id ? { id: d.location_id, scheme: d.location_id_scheme } : undefined,
    date,
    address: address && hasAny(address) ? address : undefined,
  };
}

/** BG-1: the document's notes and terms as one note, then e_invoice.notes; all in one note where the profile allows
 * one (`single`), each subject code kept as the norm's `#code#` prefix of its text (BR-CL-08 reads the first). */
export function notesOf(doc: DocumentRequest, single = false): EInvoice['notes'] {
  const text = [doc.notes, doc.terms].filter(Boolean).join('\n\n');
  const notes: EInvoice['notes'] = [
    ...(text ? [{ text }] : []),
    ...(doc.e_invoice?.notes ?? []).map((n) => ({ subjectCode: n.subject_code, text: n.text })),
  ];
  if (!single || notes.length <= 1) return notes;
  return [{ text: notes.map((n) => (n.subjectCode ? `#${n.subjectCode}#${n.text}` : n.text)).join('\n\n') }];
}

/** BG-24: the PDF rendering first (when one is attached), then the request's supporting documents. */
export function documentsOf(e: Structured, number: string, pdfFilename: string | undefined): SupportingDocument[] {
  const own: SupportingDocument[] = pdfFilename ? [{ id: number, description: 'PDF rendering', pdf: { filename: pdfFilename } }] : [];
  return [
    ...own,
    ...(e.attachments ?? []).map((a) => ({
      id: a.id,
      description: a.description,
      url: a.url,
      content:
        a.content !== undefined && a.mime_type && a.filename
          ? { base64: a.content.replace(/\s+/g, ''), mimeCode: a.mime_type, filename: a.filename }
          : undefined,
    })),
  ];
}

/** BT-11 … BT-19. */
export function referencesOf(
  e: Structured,
): Pick<
  EInvoice,
  | 'projectReference'
  | 'contractReference'
  | 'salesOrderReference'
  | 'receivingAdvice'
  | 'despatchAdvice'
  | 'tenderReference'
  | 'invoicedObject'
  | 'buyerAccountingReference'
> {
  return {
    projectReference: e.project_reference,
    contractReference: e.contract_reference,
    salesOrderReference: e.sales_order_reference,
    receivingAdvice: e.receiving_advice,
    despatchAdvice: e.despatch_advice,
    tenderReference: e.tender_reference,
    invoicedObject: e.invoiced_object ? { id: e.invoiced_object.id, scheme: e.invoiced_object.scheme } : undefined,
    buyerAccountingReference: e.buyer_accounting_reference,
  };
}
