// Values read back from an XML document by a small path, for the syntax tests: `rsm:A/ram:B/ram:C` (child steps by
// qualified name, from the root's children), a step may hold one condition on a child's text (`ram:B[ram:TypeCode=916]`)
// and the path may end in an attribute (`/@schemeID`). Every match's text, in document order. The W3C DOM of
// @oozcitak/dom parses; nothing here knows a syntax.
import { DOMParser } from '@oozcitak/dom';
import type { Element } from '@oozcitak/dom/lib/dom/interfaces';

export type Doc = Element;

export function parse(xml: string): Doc {
  return new DOMParser().parseFromString(xml, 'application/xml').documentElement!;
}

const children = (el: Element, name: string): Element[] =>
  Array.from(el.childNodes).filter((n): n is Element => n?.nodeType === 1 && (n as Element).tagName === name);

function step(nodes: Element[], s: string): Element[] {
  const m = /^([\w:]+)(?:\[([\w:]+)=([^\]]*)\])?$/.exec(s);
  if (!m) throw new Error(`not a path step: ${s}`);
  const [, name, condName, condValue] = m;
  return nodes
    .flatMap((n) => children(n, name!))
    .filter((n) => !condName || children(n, condName).some((c) => c.textContent === condValue));
}

/** The texts (or attribute values) at `path` below the root element. */
export function at(doc: Doc | string, path: string): string[] {
  const root = typeof doc === 'string' ? parse(doc) : doc;
  const parts = path.split('/');
  const attr = parts.at(-1)!.startsWith('@') ? parts.pop()!.slice(1) : undefined;
  const nodes = parts.reduce((acc, s) => step(acc, s), [root]);
  return attr ? nodes.map((n) => n.getAttribute(attr)).filter((v): v is string => v !== null) : nodes.map((n) => n.textContent ?? '');
}

/** The one text at `path` (undefined when none; an error when several). */
export function one(doc: Doc | string, path: string): string | undefined {
  const values = at(doc, path);
  if (values.length > 1) throw new Error(`${values.length} values at ${path}`);
  return values[0];
}
