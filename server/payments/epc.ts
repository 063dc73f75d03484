// The EPC QR code's payload (EPC069-12 "Quick Response Code: Guidelines to Enable Data Capture for the Initiation of
// a SEPA Credit Transfer", version 002, character set 1 = UTF-8, identification SCT), known as GiroCode: the lines a
// banking app reads to prefill a transfer, and every check the guidelines make, as problems naming the request's
// fields. Takes the account, the amount due and the reference; knows no page, no QR matrix and no HTTP.
import type { FieldProblem } from '../errors';
import type { Decimal } from '../money/decimal';
import { compact, isCreditorReference, isSepaIban } from './references';

/** What the EPC code says: the creditor's account and name, the amount due in euros, and the reference. */
export interface EpcTransfer {
  name: string;
  iban: string;
  bic?: string;
  currency: string;
  amount: Decimal;
  /** A structured creditor reference (RF…) when it is one, else remittance text. */
  reference?: string;
}

/** Where each value comes from in the request, for the problems. */
export const EPC_FIELDS = {
  name: 'e_invoice.payment_means.account_name',
  iban: 'e_invoice.payment_means.iban',
  bic: 'e_invoice.payment_means.bic',
  currency: 'currency',
  amount: 'balance_due',
  reference: 'e_invoice.payment_means.payment_id',
} as const;

/** The payload's limit in bytes (UTF-8), and each field's in characters. */
export const EPC_MAX_BYTES = 331;
const MAX = { name: 70, reference: 35, text: 140 };

/** One line a banking app shows as it is: no line break or other control character, and no invisible character that
 * changes what is shown (zero-width spaces and joiners, bidirectional marks, embeddings and overrides: U+202E would
 * show "Northwind Traders" as "Northwind srederT"). */
const noBreaks = (value: string) => !/[\p{Cc}\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u.test(value);

/** Every way `t` breaks the guidelines; empty when the payload can be made. */
export function epcProblems(t: EpcTransfer): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (key: keyof typeof EPC_FIELDS, message: string) => problems.push({ field: EPC_FIELDS[key], message });
  const name = t.name.trim();
  if (name === '') problem('name', `${EPC_FIELDS.name} is required for an EPC QR code: the name of the account's holder`);
  else if ([...name].length > MAX.name || !noBreaks(name))
    problem('name', `${EPC_FIELDS.name} must be one line of at most ${MAX.name} characters for an EPC QR code`);
  const iban = compact(t.iban);
  if (!isSepaIban(iban))
    problem('iban', `${EPC_FIELDS.iban} must be the IBAN of a SEPA country, with right check digits, for an EPC QR code`);
  if (t.bic !== undefined && !/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(compact(t.bic)))
    problem('bic', `${EPC_FIELDS.bic} must be a BIC of 8 or 11 characters`);
  if (t.currency !== 'EUR')
    problem('currency', `currency must be EUR for an EPC QR code (a SEPA credit transfer is in euros), not ${t.currency}`);
  if (t.amount.lte(0)) problem('amount', `the balance due must be above 0.00 for an EPC QR code: there is nothing to pay`);
  else if (t.amount.gt('999999999.99')) problem('amount', `the balance due must be at most 999999999.99 for an EPC QR code`);
  const reference = t.reference?.trim();
  if (reference !== undefined && reference !== '') {
    const structured = /^RF/i.test(compact(reference));
    if (structured && !isCreditorReference(compact(reference)))
      problem('reference', `${EPC_FIELDS.reference} starts with RF but is not a valid ISO 11649 creditor reference (check digits)`);
    else if (!structured && ([...reference].length > MAX.text || !noBreaks(reference)))
      problem('reference', `${EPC_FIELDS.reference} must be one line of at most ${MAX.text} characters for an EPC QR code`);
  }
  if (problems.length === 0 && Buffer.byteLength(epcPayload(t), 'utf8') > EPC_MAX_BYTES)
    problem('name', `the EPC QR code's data would exceed ${EPC_MAX_BYTES} bytes: shorten ${EPC_FIELDS.name} or ${EPC_FIELDS.reference}`);
  return problems;
}

/** The payload of a transfer `epcProblems` found nothing wrong with: twelve lines at most, trailing empty ones left out. */
export function epcPayload(t: EpcTransfer): string {
  const reference = t.reference?.trim() ?? '';
  const structured = isCreditorReference(compact(reference));
  const lines = [
    'BCD',
    '002',
    '1',
    'SCT',
    t.bic ? compact(t.bic) : '',
    t.name.trim(),
    compact(t.iban),
    `EUR${t.amount.toFixed(2)}`,
    '', // purpose
    structured ? compact(reference) : '',
    structured ? '' : reference,
    '', // information to the payer
  ];
  while (lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}
