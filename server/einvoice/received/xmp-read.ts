// A received PDF's XMP packet read into what the checks need: the simple property values of every rdf:Description
// (as elements or as attributes) and the PDF/A extension schemas it declares. The packet is parsed by xml-tree.ts
// (no DTD, bounded depth and element count). Reads only: which values are right is facturx-xmp.ts's.
import { DEFAULT_XML_LIMITS, decodeXml, parseXml, type XmlNode } from '../xml-tree';

export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
const EXTENSION = 'http://www.aiim.org/pdfa/ns/extension/';
const SCHEMA = 'http://www.aiim.org/pdfa/ns/schema#';
const PROPERTY = 'http://www.aiim.org/pdfa/ns/property#';

export interface ExtensionSchema {
  namespaceURI: string;
  prefix: string;
  properties: { name: string; valueType: string }[];
}

export interface XmpPacket {
  /** Values by `{namespace}local`: a simple property's text, an rdf:Alt's x-default (else first) item, an rdf:Seq's
   * or rdf:Bag's first item. */
  props: Map<string, string>;
  schemas: ExtensionSchema[];
}

/** An XMP packet is a few KB; a hostile one is stopped long before it costs anything. */
const XMP_LIMITS = { ...DEFAULT_XML_LIMITS, maxElements: 20_000 };

const key = (uri: string, local: string) => `{${uri}}${local}`;
const child = (node: XmlNode, uri: string, local: string) => node.children.find((c) => c.uri === uri && c.name === local);

/** Every element named `local` in `uri` below `root`, in document order (the tree is at most 40 deep). */
function descendants(root: XmlNode, uri: string, local: string): XmlNode[] {
  const out: XmlNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.uri === uri && node.name === local) out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** The value of a property element: its text, or the chosen item of the rdf:Alt / Seq / Bag it holds. */
function valueOf(element: XmlNode): string | undefined {
  const container = element.children.find((c) => c.uri === RDF && ['Alt', 'Seq', 'Bag'].includes(c.name));
  if (!container) return element.children.length === 0 ? element.text.trim() : undefined;
  const items = container.children.filter((c) => c.uri === RDF && c.name === 'li');
  const chosen = items.find((li) => li.attrs['{http://www.w3.org/XML/1998/namespace}lang'] === 'x-default') ?? items[0];
  return chosen?.text.trim();
}

/** The fields of a structure: the elements and namespaced attributes of an rdf:li with rdf:parseType="Resource", or
 * of the rdf:Description it holds. */
function fields(node: XmlNode): Map<string, string> {
  const holder = child(node, RDF, 'Description') ?? node;
  const out = new Map<string, string>();
  for (const [attr, value] of Object.entries(holder.attrs)) if (attr.startsWith('{') && !attr.startsWith(`{${RDF}}`)) out.set(attr, value);
  for (const c of holder.children) {
    const value = valueOf(c);
    if (value !== undefined) out.set(key(c.uri, c.name), value);
  }
  return out;
}

function schemasOf(root: XmlNode): ExtensionSchema[] {
  const out: ExtensionSchema[] = [];
  for (const schemas of descendants(root, EXTENSION, 'schemas')) {
    const bag = child(schemas, RDF, 'Bag');
    for (const li of bag?.children.filter((c) => c.uri === RDF && c.name === 'li') ?? []) {
      const f = fields(li);
      const holder = child(li, RDF, 'Description') ?? li;
      const seq = child(child(holder, SCHEMA, 'property') ?? holder, RDF, 'Seq');
      const properties = (seq?.children ?? [])
        .filter((c) => c.uri === RDF && c.name === 'li')
        .map((p) => fields(p))
        .map((p) => ({ name: p.get(key(PROPERTY, 'name')) ?? '', valueType: p.get(key(PROPERTY, 'valueType')) ?? '' }));
      out.push({ namespaceURI: f.get(key(SCHEMA, 'namespaceURI')) ?? '', prefix: f.get(key(SCHEMA, 'prefix')) ?? '', properties });
    }
  }
  return out;
}

/** The packet's properties and extension schemas; throws the domain's malformed_xml when it is not well-formed. */
export function readXmp(bytes: Uint8Array): XmpPacket {
  const root = parseXml(decodeXml(bytes), XMP_LIMITS);
  const props = new Map<string, string>();
  for (const description of descendants(root, RDF, 'Description')) {
    for (const [prop, value] of fields(description)) if (!props.has(prop)) props.set(prop, value);
  }
  return { props, schemas: schemasOf(root) };
}

export const prop = (packet: XmpPacket, uri: string, local: string): string | undefined => packet.props.get(key(uri, local));
