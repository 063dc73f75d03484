// The payment code a request asks for (`payment_code`), read from what it already says: the account in
// e_invoice.payment_means (EPC: the name from account_name, else e_invoice.seller.name, else the first line of from;
// QR-bill: the creditor's and debtor's addresses from e_invoice.seller and e_invoice.buyer), the balance due from the
// totals, and for a link the first payment_methods entry. Returns the code's payload and the
// problems that refuse it, each naming its field. Knows no page and no HTTP.
import type { FieldProblem } from '../errors';
import type { DocumentRequest } from '../documents/model';
import type { Totals } from '../money/totals';
import { epcPayload, epcProblems } from './epc';
import { swissPayload, swissProblems, type SwissAddress, type SwissBill } from './swiss-qr';

/** A link's limit: what a version-13 code holds at error correction M, 0.45 mm a module at 30 mm (as EPC's limit). */
const LINK_MAX_BYTES = 331;

export interface PaymentCode {
  kind: 'epc' | 'link' | 'swiss_qr_bill';
  /** What the QR code holds. */
  payload: string;
  /** Who is paid (epc), or the payment method's name (link). */
  name: string;
  /** The amount it asks for, formatted by the caller (epc). */
  amount?: Totals['balance'];
  /** The QR-bill's data, which its payment part and receipt print (swiss_qr_bill). */
  bill?: SwissBill;
}

/** The documents whose amount is not owed by their reader to their sender: a payment code would ask for the money the
 * wrong way round. */
const NOTHING_OWED_TO_THE_SENDER: Partial<Record<DocumentRequest['type'], string>> = {
  credit_note: 'a credit note is money owed to its reader',
  purchase_order: "a purchase order is the buyer's order, paid once invoiced",
};

/** The request's payment code, or the problems that refuse it (none asked: neither). */
export function paymentCodeOf(doc: DocumentRequest, totals: Totals): { code?: PaymentCode; problems: FieldProblem[] } {
  if (!doc.payment_code) return { problems: [] };
  if (doc.type === 'packing_slip') {
    return { problems: [{ field: 'payment_code', message: 'payment_code is for documents with amounts: a packing slip prints none' }] };
  }
  const notOwed = NOTHING_OWED_TO_THE_SENDER[doc.type];
  if (notOwed) return { problems: [{ field: 'payment_code', message: `payment_code asks the reader to pay the sender: ${notOwed}` }] };
  if (doc.payment_code === 'link') return linkCodeOf(doc);
  const means = doc.e_invoice?.payment_means;
  if (!means?.iban) {
    return {
      problems: [
        {
          field: 'e_invoice.payment_means.iban',
          message: `e_invoice.payment_means.iban is required for payment_code ${doc.payment_code}: the account to pay`,
        },
      ],
    };
  }
  if (doc.payment_code === 'swiss_qr_bill') return swissBillOf(doc, means.iban, means.payment_id, totals);
  const transfer = {
    name: means.account_name ?? doc.e_invoice?.seller?.name ?? doc.from.split(/\r?\n/)[0]!.trim(),
    iban: means.iban,
    bic: means.bic,
    currency: totals.currency,
    amount: totals.balance,
    reference: means.payment_id,
  };
  const problems = epcProblems(transfer);
  if (problems.length > 0) return { problems };
  return { code: { kind: 'epc', payload: epcPayload(transfer), name: transfer.name, amount: totals.balance }, problems: [] };
}

/** A `link` code: the first payment_methods URL, an http or https address a phone can read at 30 mm. */
function linkCodeOf(doc: DocumentRequest): { code?: PaymentCode; problems: FieldProblem[] } {
  const method = doc.payment_methods[0];
  const refuse = (field: string, message: string) => ({ problems: [{ field, message }] });
  if (!method) return refuse('payment_methods', 'payment_code link prints the first payment_methods URL: payment_methods is empty');
  if (!/^https?:\/\//i.test(method.url))
    return refuse('payment_methods[0].url', 'payment_methods[0].url must be an http or https address for payment_code link');
  if (Buffer.byteLength(method.url, 'utf8') > LINK_MAX_BYTES) {
    return refuse(
      'payment_methods[0].url',
      `payment_methods[0].url is too long for a QR code a phone reads at 30 mm: at most ${LINK_MAX_BYTES} bytes for payment_code link`,
    );
  }
  return { code: { kind: 'link', payload: method.url, name: method.name }, problems: [] };
}

/** The QR-bill of a request: the creditor from e_invoice.seller, the debtor from e_invoice.buyer when it says
 * anything of an address, the balance due, the reference from payment_id and the document's number as the message. */
function swissBillOf(
  doc: DocumentRequest,
  iban: string,
  reference: string | undefined,
  totals: Totals,
): { code?: PaymentCode; problems: FieldProblem[] } {
  const address = (party: NonNullable<DocumentRequest['e_invoice']>['seller']): SwissAddress => ({
    name: party?.name,
    street: party?.street,
    postal_code: party?.postal_code,
    city: party?.city,
    country: party?.country,
  });
  const buyer = doc.e_invoice?.buyer;
  const bill: SwissBill = {
    iban,
    creditor: address(doc.e_invoice?.seller),
    debtor: buyer && (buyer.street || buyer.postal_code || buyer.city) ? address(buyer) : undefined,
    currency: totals.currency,
    amount: totals.balance,
    reference,
    message: doc.number || undefined,
  };
  const problems = swissProblems(bill);
  if (problems.length > 0) return { problems };
  return {
    code: { kind: 'swiss_qr_bill', payload: swissPayload(bill), name: bill.creditor.name!, amount: totals.balance, bill },
    problems: [],
  };
}
