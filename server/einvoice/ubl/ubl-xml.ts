// The XML vocabulary of UBL 2.1 for the writers in this folder: namespaces and element helpers that never write an
// empty element (PEPPOL-EN16931-R008), amounts with their currency. Owns how values are written, not which.
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { amountText, decimalText } from '../../money/amount-text';
import type { Decimal } from '../../money/totals';
import type { Address, Identifier, Period } from '../model';

export const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

export type Node = XMLBuilder;

/** A `cbc:` leaf, left out when the text is absent or blank. Attributes that are undefined or empty are not written
 * (a received document's identifier without its scheme is read as an empty scheme). */
export function cbc(parent: Node, name: string, text: string | undefined, attrs?: Record<string, string | undefined>): void {
  if (text === undefined || text.trim() === '') return;
  const defined =
    attrs && Object.fromEntries(Object.entries(attrs).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  parent.ele(NS.cbc, `cbc:${name}`, defined).txt(text);
}

/** A `cac:` aggregate (always written: the caller decides whether it is needed). */
export function cac(parent: Node, name: string): Node {
  return parent.ele(NS.cac, `cac:${name}`);
}

/** Whether any of these texts would be written (so that their wrapper is not empty). */
export function any(...values: (string | undefined)[]): boolean {
  return values.some((v) => v !== undefined && v.trim() !== '');
}

/** An identifier with its scheme as `schemeID`. */
export function id(parent: Node, name: string, value: Identifier | undefined): void {
  if (value) cbc(parent, name, value.id, { schemeID: value.scheme });
}

/** An amount in `currency` with exactly `digits` decimals (money/ rounded it). */
export function money(parent: Node, name: string, value: Decimal | undefined, currency: string, digits: number): void {
  if (value !== undefined) parent.ele(NS.cbc, `cbc:${name}`, { currencyID: currency }).txt(amountText(value, digits));
}

/** A price, a rate or a quantity: as many decimals as it has. */
export function decimal(parent: Node, name: string, value: Decimal | undefined, attrs?: Record<string, string>): void {
  if (value === undefined) return;
  const given = attrs && Object.fromEntries(Object.entries(attrs).filter((e) => e[1] !== ''));
  parent.ele(NS.cbc, `cbc:${name}`, given).txt(decimalText(value));
}

/** cac:PostalAddress / cac:Address (BG-5, BG-8, BG-12, BG-15), in the UBL AddressType order; nothing when empty. */
export function address(parent: Node, name: 'PostalAddress' | 'Address', a: Address | undefined): void {
  if (!a || !any(a.street, a.additionalStreet, a.line3, a.city, a.postalCode, a.region, a.country)) return;
  const el = cac(parent, name);
  cbc(el, 'StreetName', a.street);
  cbc(el, 'AdditionalStreetName', a.additionalStreet);
  cbc(el, 'CityName', a.city);
  cbc(el, 'PostalZone', a.postalCode);
  cbc(el, 'CountrySubentity', a.region);
  if (any(a.line3)) cbc(cac(el, 'AddressLine'), 'Line', a.line3);
  if (any(a.country)) cbc(cac(el, 'Country'), 'IdentificationCode', a.country);
}

/** cac:InvoicePeriod (BG-14 with BT-8, BG-26). */
export function period(parent: Node, value: Period | undefined, descriptionCode?: string): void {
  if (!value && !descriptionCode) return;
  const el = cac(parent, 'InvoicePeriod');
  cbc(el, 'StartDate', value?.start);
  cbc(el, 'EndDate', value?.end);
  cbc(el, 'DescriptionCode', descriptionCode);
}
