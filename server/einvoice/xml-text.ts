// XML documents written as text: the tree xmlbuilder2 built (a W3C DOM, @oozcitak/dom) walked once and written as the
// W3C DOM serializer writes it, which escapes every "&", "<" and ">" of a text and every "&", "<", ">", '"' of an
// attribute, whatever follows. xmlbuilder2's own writer leaves "&name;" as it finds it, so a note "Price in &euro;"
// made an XML that no parser reads and "R&amp;D" reached the receiver as "R&D". Tabs and line breaks in an attribute
// (a file name made of the document number) become spaces, as a reader's attribute-value normalization would make
// them anyway.
// Why not the W3C serializer itself (the reference this writer is tested against, byte for byte): it copies its map of
// namespace prefixes at every element, and a 1,000-line CII (about 50,000 elements) held the event loop 80-210 ms in
// it; this walk keeps one map per declaring element (in these documents: the root) and writes the same text in a
// fraction of that. It writes what the e-invoice builders make: elements, attributes and text (a comment, CDATA or
// processing instruction in the tree is a bug, and an error here).
// Owns the serialization only; must not build or change the tree.
import type { CharacterData, Element, Node } from '@oozcitak/dom/lib/dom/interfaces';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const XMLNS = 'http://www.w3.org/2000/xmlns/';
const XML = 'http://www.w3.org/XML/1998/namespace';

/** The document `builder` belongs to, as UTF-8 XML text with its declaration. */
export function xmlText(builder: XMLBuilder): string {
  const doc: Node = builder.doc().node;
  let out = DECLARATION;
  const scope = new Map<string, string>([['xml', XML]]);
  for (let child = doc.firstChild; child; child = child.nextSibling) out = writeNode(child, scope, out);
  return out;
}

/** `out` with `node` written after it (strings joined as they come: V8 keeps them as ropes until read). */
function writeNode(node: Node, scope: Map<string, string>, out: string): string {
  if (node.nodeType === 3) return out + escapeText((node as CharacterData).data);
  if (node.nodeType !== 1) throw new Error(`xmlText writes elements, attributes and text, not a node of type ${node.nodeType}`);
  const element = node as Element;
  const prefix = element.prefix ?? '';
  const name = prefix ? `${prefix}:${element.localName}` : element.localName;
  const uri = element.namespaceURI ?? '';
  const list = element.attributes;
  let inScope = scope;
  let attributes = '';
  for (let i = 0; i < list.length; i++) {
    const attr = list.item(i)!;
    if (attr.namespaceURI === XMLNS) inScope = declared(inScope, scope, attr.prefix ? attr.localName : '', attr.value);
    attributes += ` ${attr.name}="${escapeAttribute(attr.value.replace(BREAKS, ' '))}"`;
  }
  out += `<${name}`;
  if ((inScope.get(prefix) ?? '') !== uri) {
    // The element's own namespace, not declared above it: declared here, before its attributes.
    out += prefix ? ` xmlns:${prefix}="${escapeAttribute(uri)}"` : ` xmlns="${escapeAttribute(uri)}"`;
    inScope = declared(inScope, scope, prefix, uri);
  }
  out += attributes;
  if (!element.firstChild) return `${out}/>`;
  out += '>';
  for (let child: Node | null = element.firstChild; child; child = child.nextSibling) out = writeNode(child, inScope, out);
  return `${out}</${name}>`;
}

/** The namespaces in scope with `prefix` bound to `uri`: a copy of the parent's at an element's first declaration. */
function declared(current: Map<string, string>, parent: Map<string, string>, prefix: string, uri: string): Map<string, string> {
  const scope = current === parent ? new Map(parent) : current;
  scope.set(prefix, uri);
  return scope;
}

const BREAKS = /[\t\n\r]+/g;
const TEXT = /[&<>]/g;
const ATTRIBUTE = /[&<>"]/g;
const HAS_TEXT = /[&<>]/;
const HAS_ATTRIBUTE = /[&<>"]/;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeText(text: string): string {
  return HAS_TEXT.test(text) ? text.replace(TEXT, (c) => ENTITY[c]!) : text;
}

function escapeAttribute(value: string): string {
  return HAS_ATTRIBUTE.test(value) ? value.replace(ATTRIBUTE, (c) => ENTITY[c]!) : value;
}
