// The Swiss QR code's payload (Swiss Implementation Guidelines for the QR-bill, version 2.3: QR type SPC, version
// 0200, coding type 1), the data of the QR-bill's payment part, and every check the guidelines make, as problems
// naming the request's fields: the account (a CH or LI IBAN; a QR-IBAN takes a QR reference and only it), the
// reference (QRR, SCOR with an ISO 11649 creditor reference, or NON), structured addresses (type S) of the creditor
// and the debtor, CHF or EUR, the amount, field lengths and the character set. Knows no page and no HTTP.
import type { FieldProblem } from '../errors';
import type { Decimal } from '../money/decimal';
import { isIban } from '../documents/identifiers';
import { compact, isCreditorReference, isQrIban, isQrReference } from './references';

/** An address as the request gives it (`e_invoice.seller` / `e_invoice.buyer`), written as type S. */
export interface SwissAddress {
  name?: string;
  street?: string;
  postal_code?: string;
  city?: string;
  country?: string;
}

export interface SwissBill {
  iban: string;
  creditor: SwissAddress;
  debtor?: SwissAddress;
  currency: string;
  amount: Decimal;
  /** A QR reference (27 digits), a creditor reference (RF…), or nothing. */
  reference?: string;
  /** The unstructured message (the document's number, say). */
  message?: string;
}

export const SWISS_FIELDS = {
  iban: 'e_invoice.payment_means.iban',
  creditor: 'e_invoice.seller',
  debtor: 'e_invoice.buyer',
  currency: 'currency',
  amount: 'balance_due',
  reference: 'e_invoice.payment_means.payment_id',
  message: 'number',
} as const;

/** The characters the guidelines allow (2.3: Basic Latin, Latin-1 Supplement, Latin Extended-A, Ș ș Ț ț and €). */
const ALLOWED = /^[\x20-\x7E\xA0-\xFF\u0100-\u017F\u0218-\u021B\u20AC]*$/u;
const MAX_PAYLOAD = 997;

export type SwissReferenceType = 'QRR' | 'SCOR' | 'NON';

/** The reference type a bill's account and reference make (QR-IBAN: QRR; else RF: SCOR; else NON). */
export function referenceType(bill: Pick<SwissBill, 'iban' | 'reference'>): SwissReferenceType {
  if (isQrIban(compact(bill.iban))) return 'QRR';
  return bill.reference && /^RF/i.test(compact(bill.reference)) ? 'SCOR' : 'NON';
}

/** Every way `bill` breaks the guidelines; empty when the payload can be made. */
export function swissProblems(bill: SwissBill): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const iban = compact(bill.iban);
  const qrIban = isQrIban(iban);
  if (!/^(CH|LI)/.test(iban) || !isIban(iban))
    problem(
      SWISS_FIELDS.iban,
      `${SWISS_FIELDS.iban} must be a Swiss or Liechtenstein IBAN (CH or LI) with right check digits for a QR-bill`,
    );
  const reference = compact(bill.reference ?? '');
  if (qrIban) {
    if (!isQrReference(reference))
      problem(
        SWISS_FIELDS.reference,
        `${SWISS_FIELDS.reference} must be a QR reference (27 digits, the last a modulo 10 recursive check digit) with a QR-IBAN`,
      );
  } else if (isQrReference(reference) || /^[0-9]{27}$/.test(reference)) {
    problem(SWISS_FIELDS.reference, `${SWISS_FIELDS.reference} is a QR reference, which needs a QR-IBAN in ${SWISS_FIELDS.iban}`);
  } else if (/^RF/.test(reference) && !isCreditorReference(reference)) {
    problem(
      SWISS_FIELDS.reference,
      `${SWISS_FIELDS.reference} starts with RF but is not a valid ISO 11649 creditor reference (check digits)`,
    );
  }
  if (bill.currency !== 'CHF' && bill.currency !== 'EUR')
    problem(SWISS_FIELDS.currency, `currency must be CHF or EUR for a QR-bill, not ${bill.currency}`);
  if (bill.amount.lte(0)) problem(SWISS_FIELDS.amount, 'the balance due must be above 0.00 for a QR-bill: there is nothing to pay');
  else if (bill.amount.gt('999999999.99')) problem(SWISS_FIELDS.amount, 'the balance due must be at most 999999999.99 for a QR-bill');
  addressProblems(bill.creditor, SWISS_FIELDS.creditor, true, problem);
  if (bill.debtor) addressProblems(bill.debtor, SWISS_FIELDS.debtor, false, problem);
  const message = bill.message ?? '';
  if ([...message].length > 140 || !ALLOWED.test(message) || /[\r\n]/.test(message))
    problem(SWISS_FIELDS.message, `${SWISS_FIELDS.message} must be one line of at most 140 characters of the QR-bill's character set`);
  if (problems.length === 0 && [...swissPayload(bill)].length > MAX_PAYLOAD)
    problem(SWISS_FIELDS.creditor, `the QR-bill's data would exceed ${MAX_PAYLOAD} characters`);
  return problems;
}

/** The checks of one structured address: name, post code, town and country are required for the creditor, and for a
 * debtor that is given at all; lengths 70 / 70 / 16 / 35; the character set. */
function addressProblems(a: SwissAddress, prefix: string, required: boolean, problem: (field: string, message: string) => void): void {
  const given = [a.name, a.street, a.postal_code, a.city, a.country].some((v) => v && v.trim() !== '');
  if (!required && !given) return;
  const limits: [keyof SwissAddress, number][] = [
    ['name', 70],
    ['street', 70],
    ['postal_code', 16],
    ['city', 35],
  ];
  for (const [key, max] of limits) {
    const value = a[key]?.trim() ?? '';
    const field = `${prefix}.${key}`;
    if (value === '' && key !== 'street') problem(field, `${field} is required for a QR-bill (a structured address)`);
    else if ([...value].length > max || !ALLOWED.test(value) || /[\r\n]/.test(value))
      problem(field, `${field} must be one line of at most ${max} characters of the QR-bill's character set`);
  }
  if (!a.country || !/^[A-Z]{2}$/.test(a.country))
    problem(`${prefix}.country`, `${prefix}.country is required for a QR-bill (ISO 3166-1 alpha-2)`);
}

const line = (value: string | undefined) => (value ?? '').trim();

/** The seven lines of a structured address (empty lines for none). */
function addressLines(a: SwissAddress | undefined): string[] {
  if (!a) return ['', '', '', '', '', '', ''];
  return ['S', line(a.name), line(a.street), '', line(a.postal_code), line(a.city), line(a.country)];
}

/** The payload of a bill `swissProblems` found nothing wrong with: the 31 lines of the data structure, CR LF apart. */
export function swissPayload(bill: SwissBill): string {
  const type = referenceType(bill);
  return [
    'SPC',
    '0200',
    '1',
    compact(bill.iban),
    ...addressLines(bill.creditor),
    ...addressLines(undefined), // the ultimate creditor: reserved, left empty
    bill.amount.toFixed(2),
    bill.currency,
    ...addressLines(bill.debtor),
    type,
    type === 'NON' ? '' : compact(bill.reference ?? ''),
    line(bill.message),
    'EPD',
  ].join('\r\n');
}
