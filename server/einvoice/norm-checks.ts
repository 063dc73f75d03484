// The EN 16931 rules a request can break in fields the schemas accept one by one, checked on the model before
// anything is written, each a problem naming the request's field (never a document the receiver rejects): a delivery
// address without its country (BR-57), a credit transfer without the account (BR-61), the seller's own terms sent for
// the buyer (BT-32, BT-33 have no buyer counterpart). The profiles' own rules are in
// profiles.ts; rules between fields of one object are in the schemas. No XML, no amounts.
import type { FieldProblem } from '../errors';
import type { EInvoice } from './model';

/** UNTDID 4461 codes of a credit transfer (BR-61): 30 credit transfer, 58 SEPA, 42 payment to bank account. */
const CREDIT_TRANSFER = new Set(['30', '58']);

export function normProblems(invoice: EInvoice, sepaAccountIsIban = true): FieldProblem[] {
  const out: FieldProblem[] = [];
  const address = invoice.delivery?.address;
  if (address && !address.country) {
    out.push({
      field: 'e_invoice.delivery.country',
      message: 'e_invoice.delivery.country is required with a delivery address (the country of where the goods go, BR-57)',
    });
  }
  const buyer = invoice.buyer;
  if ((buyer.identifiers?.length ?? 0) > 1) {
    out.push({
      field: 'e_invoice.buyer.identifiers',
      message: 'e_invoice.buyer.identifiers holds one identifier: the buyer has one (BT-46)',
    });
  }
  for (const [field, value, term] of [
    ['legal_info', buyer.legalInfo, 'BT-33'],
    ['tax_registration_id', buyer.taxRegistrationId, 'BT-32'],
  ] as const) {
    if (value !== undefined) {
      out.push({
        field: `e_invoice.buyer.${field}`,
        message: `e_invoice.buyer.${field} is a seller's term (${term}); EN 16931 has no place for it on the buyer`,
      });
    }
  }
  const pay = invoice.payment;
  if (pay && CREDIT_TRANSFER.has(pay.code) && !pay.iban && !pay.accountId) {
    out.push({
      field: 'e_invoice.payment_means.iban',
      message: `e_invoice.payment_means.iban is required for a credit transfer (code ${pay.code}: the account to pay to, BR-61)`,
    });
  }
  if (pay?.code === '58' && !sepaAccountIsIban) {
    out.push({
      field: 'e_invoice.payment_means.account_id',
      message: 'e_invoice.payment_means.account_id cannot take a SEPA credit transfer (code 58): send the account as iban',
    });
  }
  return out;
}
