// How the CII reader (read.ts and its siblings) takes values out of a received rsm:CrossIndustryInvoice: the CII
// prefixes over the XmlNode tree, decimals exactly as sent, CCYYMMDD dates as ISO dates, identifiers with their
// scheme. Every helper takes an absent node and returns undefined (never throws): a document that passed its XSD may
// still lack any optional part. Knows no business term; the siblings decide which value is which term.
import { Decimal } from '../../money/decimal';
import type { Identifier, Period } from '../model';
import { XmlPaths, type XmlNode } from '../xml-tree';
import { NS } from './cii-xml';

export type { XmlNode };

export const X = new XmlPaths({ rsm: NS.rsm, ram: NS.ram, udt: NS.udt, qdt: NS.qdt });

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** The decimal at `path` (or the node's own) exactly as sent; undefined when absent or not an XSD decimal. */
export function decimal(node: XmlNode | undefined, path?: string): Decimal | undefined {
  const value = X.text(node, path);
  return value !== undefined && DECIMAL.test(value) ? new Decimal(value) : undefined;
}

/** A required amount: 0 when the document lacks it (MINIMUM has no line total, BT-106). */
export function amount(node: XmlNode | undefined, path?: string): Decimal {
  return decimal(node, path) ?? new Decimal(0);
}

/** `ram:<name>/udt:DateTimeString format="102"` (also `qdt:DateTimeString` and `udt:DateString`) as an ISO date;
 * undefined when absent or in another format. */
export function date(node: XmlNode | undefined, path: string): string | undefined {
  const holder = X.one(node, path);
  const el = holder?.children.find((c) => c.name === 'DateTimeString' || c.name === 'DateString');
  const format = el?.attrs.format;
  if (!el || (format !== undefined && format.trim() !== '102')) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(el.text.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** BG-14, BG-26: ram:BillingSpecifiedPeriod, when it has a start or an end. */
export function period(node: XmlNode | undefined): Period | undefined {
  const el = X.one(node, 'ram:BillingSpecifiedPeriod');
  const start = date(el, 'ram:StartDateTime');
  const end = date(el, 'ram:EndDateTime');
  return start || end ? defined({ start, end }) : undefined;
}

/** The identifier an element holds, with its `schemeID`; undefined when it has no text. */
export function identifier(el: XmlNode | undefined): Identifier | undefined {
  const id = X.text(el);
  if (id === undefined) return undefined;
  const scheme = el!.attrs.schemeID?.trim();
  return scheme ? { id, scheme } : { id };
}

/** Whether any of these values is there. */
export function any(...values: unknown[]): boolean {
  return values.some((v) => v !== undefined);
}

/** `value` without its undefined properties (so that a read model holds only what the document carries). */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
