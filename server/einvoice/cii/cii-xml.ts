// The XML vocabulary of CII (UN/CEFACT Cross Industry Invoice D16B) for the writers in this folder: namespaces,
// element helpers that never write an empty element, identifiers with their scheme, dates and periods. Owns how
// values are written, not which. Amounts and decimals are written by money/amount-text.ts, as for UBL.
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { Decimal } from '../../money/totals';
import type { Identifier, Period } from '../model';

export const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
} as const;

export type Node = XMLBuilder;

/** Amounts of the document's currency, with its number of decimals. */
export type Amount = (value: Decimal) => string;

/** A `ram:` aggregate (always written: the caller decides whether it is needed). */
export function ram(parent: Node, name: string): Node {
  return parent.ele(NS.ram, `ram:${name}`);
}

/** A `ram:` leaf, left out when the text is absent or blank (no empty elements); undefined or empty attributes are
 * left out (a received document's identifier without its scheme is read as an empty scheme). */
export function text(parent: Node, name: string, value: string | undefined, attrs?: Record<string, string | undefined>): void {
  if (value === undefined || value.trim() === '') return;
  const defined =
    attrs && Object.fromEntries(Object.entries(attrs).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  parent.ele(NS.ram, `ram:${name}`, defined).txt(value);
}

/** Whether any of these texts would be written (so that their wrapper is not empty). */
export function any(...values: (string | undefined)[]): boolean {
  return values.some((v) => v !== undefined && v.trim() !== '');
}

/** An identifier with its scheme as `schemeID`. */
export function id(parent: Node, name: string, value: Identifier | undefined): void {
  if (value) text(parent, name, value.id, { schemeID: value.scheme });
}

/** `ram:<wrapper>/ram:<name>`, only when the value is there (a reference document's ID, an account's ID …). */
export function wrapped(parent: Node, wrapper: string, name: string, value: string | undefined): void {
  if (any(value)) text(ram(parent, wrapper), name, value);
}

export { amountText as money, decimalText as plain } from '../../money/amount-text';

function yyyymmdd(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new Error(`not an ISO date (YYYY-MM-DD): ${iso.length} characters`);
  return `${m[1]}${m[2]}${m[3]}`;
}

/** `ram:<name>/udt:DateTimeString format="102"` (CCYYMMDD) from an ISO date; `qdt:` where the XSD types the element as
 * a formatted date (BT-26, the preceding invoice's date); `udt:DateString` for the VAT point date (BT-7). */
export function date(parent: Node, name: string, iso: string | undefined, ns: 'udt' | 'qdt' = 'udt', element = 'DateTimeString'): void {
  if (iso === undefined) return;
  ram(parent, name).ele(NS[ns], `${ns}:${element}`, { format: '102' }).txt(yyyymmdd(iso));
}

/** `ram:BillingSpecifiedPeriod` (BG-14, BG-26): start and end, as far as given. */
export function period(parent: Node, value: Period | undefined): void {
  if (!value || !any(value.start, value.end)) return;
  const el = ram(parent, 'BillingSpecifiedPeriod');
  date(el, 'StartDateTime', value.start);
  date(el, 'EndDateTime', value.end);
}

/** `ram:ChargeIndicator/udt:Indicator`. */
export function indicator(parent: Node, charge: boolean): void {
  ram(parent, 'ChargeIndicator')
    .ele(NS.udt, 'udt:Indicator')
    .txt(charge ? 'true' : 'false');
}
