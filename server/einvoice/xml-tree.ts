// A received XML document as a small tree of namespaced elements, read safely: no DTD is ever processed (a DOCTYPE
// is refused before the first element, so no entity is declared, expanded or fetched), the depth and the numbers of
// elements, attributes, namespaces, CDATA sections and comments are bounded, and the bytes are decoded by their BOM
// or XML declaration (UTF-8, UTF-16, ISO-8859-1, windows-1252).
// The readers (ubl/read.ts, cii/read.ts) walk it with `XmlPaths`. Must not know any e-invoice syntax; raises only the
// domain's malformed_xml and unsupported_media_type errors.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { DomainError, errors } from '../errors';

export interface XmlNode {
  /** Namespace URI ('' when none). */
  uri: string;
  /** Local name. */
  name: string;
  /** Attributes without a namespace by local name (`schemeID`, `currencyID`); namespaced ones as `{uri}local`;
   * namespace declarations are left out. */
  attrs: Record<string, string>;
  children: XmlNode[];
  /** The text directly inside the element (its children's text excluded), as sent. */
  text: string;
  /** Where the start tag is (1-based), for reports. */
  line: number;
}

export interface XmlLimits {
  /** The deepest element nesting (UBL and CII need about 12). */
  maxDepth: number;
  /** The most elements in the document. */
  maxElements: number;
  /** The most attributes on one element (an e-invoice's have at most a handful). */
  maxAttributes: number;
  /** The most namespace declarations in scope on one element (an e-invoice's root declares about ten; a serializer
   * that declares the namespace again on every element adds one a level, and there are at most 40 levels). Each is in scope on every element below
   * it: 50,000 on a root held the XSD and rule checks for 10 to 24 seconds. */
  maxNamespaces: number;
  /** The most CDATA sections (an e-invoice has none or one per text). SaxonJS, which runs the official rules, reads
   * them in time growing with the square of their number: 20,000 `<![CDATA[a]]>` in one element took it 1.1 s to
   * parse, once per rule set, and 100,000 held every received e-invoice's checks for 43 s. */
  maxCdata: number;
  /** The most comments and processing instructions together (Factur-X's annotated example has 337 comments): 20,000
   * comments in one element took the checks 3.3 s. */
  maxComments: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = {
  maxDepth: 40,
  maxElements: 2_000_000,
  maxAttributes: 1000,
  maxNamespaces: 200,
  maxCdata: 10_000,
  maxComments: 10_000,
};

const DECLARED = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;
const READABLE: Record<string, string> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
  'iso-8859-15': 'iso-8859-15',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'utf-16': 'utf-16le',
};

/** The text of an XML body: by its byte order mark, else by its declared encoding (UTF-8 when none). */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.min(200, bytes.byteLength - start)).toString('latin1');
  const declared = DECLARED.exec(head)?.[1]?.toLowerCase();
  const encoding = declared === undefined ? 'utf-8' : READABLE[declared];
  if (!encoding)
    throw errors.malformedXml(
      `its declared encoding ${declared!.slice(0, 30)} is not one the service reads (UTF-8, UTF-16, ISO-8859-1, windows-1252)`,
    );
  try {
    return new TextDecoder(encoding, { fatal: encoding === 'utf-8' }).decode(bytes.subarray(start));
  } catch {
    throw errors.malformedXml(`it is not valid ${encoding.toUpperCase()} text`);
  }
}

/** The document element of `xml`, with every element below it; throws malformed_xml for a DTD, a document that is
 * not well-formed, or one beyond `limits`. */
export function parseXml(xml: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlNode {
  const reader = treeReader(limits);
  reader.write(xml);
  return reader.close();
}

/** Characters parseXmlYielding reads between two turns of the event loop (a few milliseconds of work). */
const YIELD_EVERY = 16 * 1024;

/** parseXml, giving the event loop a turn every 16 K characters: a long document (1 MB of XML is 0.3-0.5 s of
 * parsing) never holds the loop. The same tree and the same refusals; a DTD is refused in the first slice. */
export async function parseXmlYielding(xml: string, limits: XmlLimits = DEFAULT_XML_LIMITS): Promise<XmlNode> {
  const reader = treeReader(limits);
  let at = 0;
  while (at < xml.length) {
    let end = Math.min(xml.length, at + YIELD_EVERY);
    // Never split a surrogate pair between two writes.
    if (end < xml.length && xml.charCodeAt(end - 1) >= 0xd800 && xml.charCodeAt(end - 1) <= 0xdbff) end++;
    reader.write(xml.slice(at, end));
    at = end;
    if (at < xml.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return reader.close();
}

/** CDATA sections (their text added as text), comments and processing instructions counted against their limits. */
function countMarkup(parser: SaxesParser, limits: XmlLimits, fail: (reason: string) => never, addText: (text: string) => void): void {
  let cdata = 0;
  let comments = 0;
  parser.on('cdata', (text) => {
    if (++cdata > limits.maxCdata) fail(`it has more than ${limits.maxCdata} CDATA sections`);
    addText(text);
  });
  const comment = (): void => {
    if (++comments > limits.maxComments) fail(`it has more than ${limits.maxComments} comments and processing instructions`);
  };
  parser.on('comment', comment);
  parser.on('processinginstruction', comment);
}

/** A parser building the tree from the slices it is written, throwing at the first problem. */
function treeReader(limits: XmlLimits): { write(text: string): void; close(): XmlNode } {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  let count = 0;
  // The declarations in scope at each open element (the document's, then each one's below it).
  const inScope: number[] = [];
  // Every handler throws at the first problem: the parse stops there (a DTD before the first element is built).
  const fail = (reason: string): never => {
    throw errors.malformedXml(reason);
  };
  parser.on('doctype', () => fail('it declares a DTD (<!DOCTYPE …>), which e-invoices never need and the service never processes'));
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++count > limits.maxElements) fail(`it has more than ${limits.maxElements} elements`);
    if (stack.length >= limits.maxDepth) fail(`its elements nest more than ${limits.maxDepth} levels deep`);
    const attrs: Record<string, string> = {};
    const all = Object.values(tag.attributes);
    if (all.length > limits.maxAttributes) fail(`an element has more than ${limits.maxAttributes} attributes`);
    let declared = inScope.at(-1) ?? 0;
    for (const a of all) {
      if (a.prefix === 'xmlns' || a.name === 'xmlns') {
        if (++declared > limits.maxNamespaces) fail(`it has more than ${limits.maxNamespaces} namespace declarations in scope`);
        continue;
      }
      attrs[a.uri ? `{${a.uri}}${a.local}` : a.local] = a.value;
    }
    const node: XmlNode = { uri: tag.uri, name: tag.local, attrs, children: [], text: '', line: parser.line };
    if (stack.length > 0) stack[stack.length - 1]!.children.push(node);
    else root = node;
    stack.push(node);
    inScope.push(declared);
  });
  const addText = (text: string): void => {
    if (stack.length > 0) stack[stack.length - 1]!.text += text;
  };
  parser.on('text', addText);
  countMarkup(parser, limits, fail, addText);
  parser.on('closetag', () => {
    stack.pop();
    inScope.pop();
  });
  parser.on('error', (err) => fail(`it is not well-formed XML (${err.message.replace(/\s+/g, ' ').slice(0, 160)})`));
  const guarded = (step: () => void): void => {
    try {
      step();
    } catch (err) {
      if (err instanceof DomainError) throw err;
      fail(`it is not well-formed XML (${(err as Error).message.replace(/\s+/g, ' ').slice(0, 160)})`);
    }
  };
  return {
    write: (text) => guarded(() => void parser.write(text)),
    close() {
      guarded(() => void parser.close());
      if (!root) throw errors.malformedXml('it has no element');
      return root;
    },
  };
}

/** Paths over an XmlNode tree with the prefixes of one syntax (`cac:Party/cbc:Name`); each path is compiled once.
 * A step is `prefix:local`; no wildcards, no predicates (readers filter the nodes they get). */
export class XmlPaths {
  private readonly compiled = new Map<string, { uri: string; name: string }[]>();

  constructor(private readonly prefixes: Record<string, string>) {}

  private steps(path: string): { uri: string; name: string }[] {
    let steps = this.compiled.get(path);
    if (!steps) {
      steps = path.split('/').map((step) => {
        const [prefix, name] = step.includes(':') ? step.split(':') : ['', step];
        const uri = this.prefixes[prefix!];
        if (uri === undefined) throw new Error(`unknown prefix in path ${path}`);
        return { uri, name: name! };
      });
      this.compiled.set(path, steps);
    }
    return steps;
  }

  /** Every element at `path` below `node`, in document order. */
  all(node: XmlNode | undefined, path: string): XmlNode[] {
    if (!node) return [];
    let level = [node];
    for (const step of this.steps(path)) {
      level = level.flatMap((n) => n.children.filter((c) => c.name === step.name && c.uri === step.uri));
    }
    return level;
  }

  /** The first element at `path`. */
  one(node: XmlNode | undefined, path: string): XmlNode | undefined {
    return this.all(node, path)[0];
  }

  /** The trimmed text of the first element at `path`; undefined when it is absent or empty. */
  text(node: XmlNode | undefined, path?: string): string | undefined {
    const target = path === undefined ? node : this.one(node, path);
    const value = target?.text.trim();
    return value ? value : undefined;
  }

  /** An attribute of the first element at `path` (`schemeID`). */
  attr(node: XmlNode | undefined, path: string, name: string): string | undefined {
    const value = this.one(node, path)?.attrs[name]?.trim();
    return value ? value : undefined;
  }
}
