// The XML vocabulary of CII (UN/CEFACT Cross Industry Invoice D16B) for cii.ts and cii-parties.ts: namespaces, element
// helpers that never write an empty element, and number and date formats. Owns how values are written, not which.
// Amounts and decimals are written by money/amount-text.ts, as for UBL.
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

export const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
} as const;

export type Node = XMLBuilder;

/** A `ram:` aggregate (always written: the caller decides whether it is needed). */
export function ram(parent: Node, name: string): Node {
  return parent.ele(NS.ram, `ram:${name}`);
}

/** A `ram:` leaf, left out when the text is absent or blank (no empty elements). */
export function text(parent: Node, name: string, value: string | undefined, attrs?: Record<string, string>): void {
  if (value === undefined || value.trim() === '') return;
  parent.ele(NS.ram, `ram:${name}`, attrs).txt(value);
}

/** Whether any of these texts would be written (so that their wrapper is not empty). */
export function any(...values: (string | undefined)[]): boolean {
  return values.some((v) => v !== undefined && v.trim() !== '');
}

export { amountText as money, decimalText as plain } from '../money/amount-text';

/** `ram:<name>/udt:DateTimeString format="102"` (CCYYMMDD) from an ISO date; `qdt:DateTimeString` where the XSD
 * types the element as a formatted date (BT-26, the preceding invoice's date). */
export function date(parent: Node, name: string, iso: string | undefined, ns: 'udt' | 'qdt' = 'udt'): void {
  if (iso === undefined) return;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new Error(`not an ISO date (YYYY-MM-DD): ${iso.length} characters`);
  ram(parent, name).ele(NS[ns], `${ns}:DateTimeString`, { format: '102' }).txt(`${m[1]}${m[2]}${m[3]}`);
}
