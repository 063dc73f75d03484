// The UBL 2.1 vocabulary of the readers in this folder (read.ts and its siblings): the paths over a received
// document's tree (xml-tree.ts) with the cac:/cbc: prefixes, and the values every part reads the same way: decimals
// exactly as sent, identifiers with their scheme, addresses, periods and VAT categories. Never throws on a missing
// part: an absent element is undefined. Knows no business rule (what a term means is read.ts's and its siblings').
import { Decimal } from '../../money/totals';
import type { Address, Identifier, Period, VatCategory, VatCategoryCode } from '../model';
import { XmlPaths, type XmlNode } from '../xml-tree';
import { NS } from './ubl-xml';

export type { XmlNode };

/** Paths over a UBL document (`cac:Party/cbc:Name`). */
export const U = new XmlPaths({ cac: NS.cac, cbc: NS.cbc });

/** A decimal (amount, quantity, price, rate) exactly as sent; undefined when absent or not a number. */
export function decimal(node: XmlNode | undefined, path?: string): Decimal | undefined {
  const text = U.text(node, path);
  if (text === undefined || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) return undefined;
  return new Decimal(text);
}

/** A required amount: 0 when a document that passed its XSD still lacks it (the rules say so, not the reader). */
export function amount(node: XmlNode | undefined, path: string): Decimal {
  return decimal(node, path) ?? new Decimal(0);
}

/** An identifier with its `schemeID` (UBL's IdentifierType); undefined when the element is absent or empty. */
export function identifier(node: XmlNode | undefined, path: string): Identifier | undefined {
  const el = U.one(node, path);
  const id = U.text(el);
  if (id === undefined) return undefined;
  const scheme = attr(el, 'schemeID');
  return scheme === undefined ? { id } : { id, scheme };
}

/** An attribute of `node` itself, trimmed; undefined when absent or empty. */
export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const value = node?.attrs[name]?.trim();
  return value ? value : undefined;
}

/** An object without the keys whose value is undefined (so that a read model compares like a built one). */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** cac:PostalAddress / cac:Address (BG-5, BG-8, BG-12, BG-15); undefined when absent. Several address lines (UBL
 * allows them, BT-162 is one) are kept as one, line by line. */
export function address(node: XmlNode | undefined, path: string): Address | undefined {
  const a = U.one(node, path);
  if (!a) return undefined;
  const lines = U.all(a, 'cac:AddressLine/cbc:Line')
    .map((l) => U.text(l))
    .filter((l): l is string => l !== undefined);
  return defined({
    street: U.text(a, 'cbc:StreetName'),
    additionalStreet: U.text(a, 'cbc:AdditionalStreetName'),
    line3: lines.length > 0 ? lines.join('\n') : undefined,
    city: U.text(a, 'cbc:CityName'),
    postalCode: U.text(a, 'cbc:PostalZone'),
    region: U.text(a, 'cbc:CountrySubentity'),
    country: U.text(a, 'cac:Country/cbc:IdentificationCode'),
  });
}

/** cac:InvoicePeriod (BG-14, BG-26): undefined when it has neither date. */
export function period(node: XmlNode | undefined): Period | undefined {
  const p = U.one(node, 'cac:InvoicePeriod');
  const start = U.text(p, 'cbc:StartDate');
  const end = U.text(p, 'cbc:EndDate');
  return start === undefined && end === undefined ? undefined : defined({ start, end });
}

/** cac:TaxCategory / cac:ClassifiedTaxCategory: the UNCL5305 code as sent ('' when absent) and its rate. */
export function category(node: XmlNode | undefined): VatCategory {
  return defined({ code: (U.text(node, 'cbc:ID') ?? '') as VatCategoryCode, rate: decimal(node, 'cbc:Percent') });
}

/** xs:boolean: true for "true" and "1". */
export function indicator(node: XmlNode | undefined, path: string): boolean {
  const text = U.text(node, path);
  return text === 'true' || text === '1';
}
