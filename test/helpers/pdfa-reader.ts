// Reading a PDF/A-3 file in the tests from the outside, independently of the code that wrote it: the objects as
// `qpdf --json` reports them (stream data decoded by qpdf) and the XMP packet parsed by libxml2 (XPath over the RDF).
// Shared by test/unit/pdf/ and test/e2e/pdfa3.test.ts; it checks nothing itself.
import { execFileSync } from 'node:child_process';

export const XMP_NS = {
  x: 'adobe:ns:meta/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
  pdfuaid: 'http://www.aiim.org/pdfua/ns/id/',
  dc: 'http://purl.org/dc/elements/1.1/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  fx: 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#',
  pdfaExtension: 'http://www.aiim.org/pdfa/ns/extension/',
  pdfaSchema: 'http://www.aiim.org/pdfa/ns/schema#',
  pdfaProperty: 'http://www.aiim.org/pdfa/ns/property#',
};

const PROPS = [
  'pdfaid:part',
  'pdfaid:conformance',
  'pdfuaid:part',
  'dc:title',
  'dc:language',
  'dc:creator',
  'dc:description',
  'pdf:Producer',
  'pdf:Keywords',
  'xmp:CreatorTool',
  'xmp:CreateDate',
  'xmp:ModifyDate',
  'xmp:MetadataDate',
  'fx:DocumentType',
  'fx:DocumentFileName',
  'fx:Version',
  'fx:ConformanceLevel',
] as const;

export interface ExtensionSchema {
  schema: string;
  namespaceURI: string;
  prefix: string;
  properties: { name: string; valueType: string; category: string; description: string }[];
}

export interface XmpRead {
  /** Property values (the x-default entry of an rdf:Alt, the first entry of an rdf:Seq); absent when not there. */
  props: Partial<Record<(typeof PROPS)[number], string>>;
  schemas: ExtensionSchema[];
}

/** Parses an XMP packet (or a bare rdf:RDF document); throws when it is not well-formed XML. */
export async function readXmp(xml: string): Promise<XmpRead> {
  // libxml2-wasm is an ES module with top-level await: it cannot be require()d, only imported.
  const { XmlDocument } = await import('libxml2-wasm');
  const doc = XmlDocument.fromString(xml);
  try {
    const props: XmpRead['props'] = {};
    for (const q of PROPS) {
      const node = doc.get(`//rdf:Description/${q} | //rdf:Description/@${q}`, XMP_NS);
      if (!node) continue;
      const item = doc.get(`//rdf:Description/${q}/*/rdf:li[@xml:lang='x-default' or not(@xml:lang)][1]`, XMP_NS);
      props[q] = (item ?? node).content;
    }
    const text = (base: string, q: string) => doc.get(`${base}/${q}`, XMP_NS)?.content ?? '';
    const schemas = doc.find('//pdfaExtension:schemas/rdf:Bag/rdf:li', XMP_NS).map((_, i) => {
      const base = `(//pdfaExtension:schemas/rdf:Bag/rdf:li)[${i + 1}]`;
      const properties = doc.find(`${base}/pdfaSchema:property/rdf:Seq/rdf:li`, XMP_NS).map((__, j) => {
        const p = `(${base}/pdfaSchema:property/rdf:Seq/rdf:li)[${j + 1}]`;
        return {
          name: text(p, 'pdfaProperty:name'),
          valueType: text(p, 'pdfaProperty:valueType'),
          category: text(p, 'pdfaProperty:category'),
          description: text(p, 'pdfaProperty:description'),
        };
      });
      return {
        schema: text(base, 'pdfaSchema:schema'),
        namespaceURI: text(base, 'pdfaSchema:namespaceURI'),
        prefix: text(base, 'pdfaSchema:prefix'),
        properties,
      };
    });
    return { props, schemas };
  } finally {
    doc.dispose();
  }
}

/** A PDF object as qpdf's JSON (version 2) writes it: names '/N', text strings 'u:…', byte strings 'b:hex', refs 'n 0 R'. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Dict = Record<string, Json>;

export interface QpdfFile {
  version: string;
  trailer: Dict;
  /** Every object: its value, or its stream dictionary as written in the file and its decoded data. */
  objects: Map<string, { value?: Json; dict?: Dict; data?: Buffer }>;
  /** The object a reference ('12 0 R') points at, or the value itself when it is direct. */
  resolve(value: Json | undefined): Json | undefined;
  dict(value: Json | undefined): Dict;
  /** A stream's data, decoded by qpdf. */
  data(ref: Json | undefined): Buffer;
}

export function qpdfJson(file: string): QpdfFile {
  // Two readings: the objects as they are in the file (stream dictionaries with their /Filter), and the stream
  // data decoded (qpdf drops /Filter from the dictionaries of the streams it decodes).
  const read = (...args: string[]) => {
    const out = execFileSync('qpdf', ['--json=2', '--json-key=qpdf', ...args, file], { maxBuffer: 256 * 1024 * 1024 });
    return (JSON.parse(out.toString('utf8')) as { qpdf: [{ pdfversion: string }, Record<string, Json>] }).qpdf;
  };
  const [head, body] = read('--json-stream-data=none');
  const [, decoded] = read('--json-stream-data=inline', '--decode-level=generalized');
  const objects: QpdfFile['objects'] = new Map();
  let trailer: Dict = {};
  for (const [key, raw] of Object.entries(body)) {
    const o = raw as { value?: Json; stream?: { dict: Dict } };
    if (key === 'trailer') trailer = o.value as Dict;
    else if (o.stream) {
      const inline = (decoded[key] as { stream?: { data?: string } } | undefined)?.stream?.data;
      const data = inline === undefined ? undefined : Buffer.from(inline, 'base64');
      objects.set(key.replace(/^obj:/, ''), { dict: o.stream.dict, data });
    } else objects.set(key.replace(/^obj:/, ''), { value: o.value ?? null });
  }
  const resolve = (value: Json | undefined): Json | undefined => {
    if (typeof value !== 'string' || !/^\d+ \d+ R$/.test(value)) return value;
    const o = objects.get(value);
    return o?.dict ?? o?.value;
  };
  const dict = (value: Json | undefined): Dict => {
    const d = resolve(value);
    if (!d || typeof d !== 'object' || Array.isArray(d)) throw new Error(`not a dictionary: ${JSON.stringify(value)}`);
    return d;
  };
  const data = (ref: Json | undefined): Buffer => {
    const d = typeof ref === 'string' ? objects.get(ref)?.data : undefined;
    if (!d) throw new Error(`no stream data at ${JSON.stringify(ref)}`);
    return d;
  };
  return { version: head.pdfversion, trailer, objects, resolve, dict, data };
}

/** The text of a qpdf JSON string ('u:…'), or the bytes of a byte string ('b:…') as hex. */
export function str(value: Json | undefined): string {
  if (typeof value !== 'string' || !/^[ub]:/.test(value)) throw new Error(`not a string: ${JSON.stringify(value)}`);
  return value.slice(2);
}
