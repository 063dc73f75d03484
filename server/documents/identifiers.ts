// Identifiers the e-invoice rules check beyond their shape, checked when a request is validated so that a typo is a
// validation_failed naming the field rather than a document its receiver rejects: an IBAN's ISO 13616 check digits (mod 97, what
// XRechnung DE-R-019 asks of a SEPA credit transfer's account) and a VAT identifier's country prefix (EN 16931
// BR-CO-09: an ISO 3166-1 code, or EL for Greece). No I/O.
import { isCountryCode } from './country';

/** An IBAN (upper case, no spaces) whose country is assigned and whose check digits are right (ISO 13616, mod 97). */
export function isIban(iban: string): boolean {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban) || !isCountryCode(iban.slice(0, 2))) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

/** A VAT identifier whose two-letter prefix is a country (EL: Greece's VAT prefix; XI: Northern Ireland's). */
export function hasVatPrefix(vatId: string): boolean {
  const prefix = vatId.slice(0, 2);
  return prefix === 'EL' || prefix === 'XI' || isCountryCode(prefix);
}
