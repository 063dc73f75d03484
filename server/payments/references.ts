// The payment references and accounts the printed payment codes carry, checked as their standards check them: an
// ISO 11649 structured creditor reference (`RF` + two check digits + up to 21 letters and digits, modulo 97), the
// Swiss QR reference (27 digits, the last a modulo 10 recursive check digit), a Swiss or Liechtenstein QR-IBAN (an
// IBAN whose institution identifier lies in 30000-31999), and whether an IBAN's country takes part in SEPA.
// Pure functions; no I/O, no request shape.
import { isIban } from '../documents/identifiers';

/** `text` (digits and upper-case letters) modulo 97, letters as 10-35 (ISO 7064 MOD 97-10, as IBANs and RF use it). */
export function mod97(text: string): number {
  let rest = 0;
  for (const c of text) {
    const value = c >= 'A' && c <= 'Z' ? String(c.charCodeAt(0) - 55) : c;
    for (const d of value) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
}

/** An ISO 11649 creditor reference, upper case and without spaces: `RF`, two check digits, 1-21 letters or digits. */
export function isCreditorReference(reference: string): boolean {
  if (!/^RF[0-9]{2}[A-Z0-9]{1,21}$/.test(reference)) return false;
  return mod97(reference.slice(4) + reference.slice(0, 4)) === 1;
}

/** The check digit of the modulo 10 recursive method (Swiss QR reference, formerly ESR) for `digits`. */
export function mod10Recursive(digits: string): number {
  const table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];
  let carry = 0;
  for (const d of digits) carry = table[(carry + Number(d)) % 10]!;
  return (10 - carry) % 10;
}

/** A Swiss QR reference: 27 digits, the last the modulo 10 recursive check digit of the 26 before. */
export function isQrReference(reference: string): boolean {
  return /^[0-9]{27}$/.test(reference) && mod10Recursive(reference.slice(0, 26)) === Number(reference[26]);
}

/** A valid CH or LI IBAN whose institution identifier (QR-IID, positions 5-9) is 30000-31999: a QR-IBAN. */
export function isQrIban(iban: string): boolean {
  if (!/^(CH|LI)[0-9]{2}[0-9]{5}[A-Z0-9]{12}$/.test(iban) || !isIban(iban)) return false;
  const iid = Number(iban.slice(4, 9));
  return iid >= 30000 && iid <= 31999;
}

/** The countries and territories of the SEPA scheme (EPC409-09, the EEA with Switzerland, the United Kingdom, Monaco,
 * San Marino, Andorra, Vatican City, and the French and Norwegian territories that use their own ISO code). */
const SEPA = new Set(
  (
    'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO CH GB MC SM AD VA ' +
    'GI GF GP MQ YT RE PM BL MF AX'
  ).split(' '),
);

/** True when `iban` (valid) belongs to a SEPA country, so that a SEPA credit transfer can reach it. */
export function isSepaIban(iban: string): boolean {
  return isIban(iban) && SEPA.has(iban.slice(0, 2));
}

/** A reference or account as written for people: upper case, without spaces. */
export function compact(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}
