// The XMP metadata packet of every PDF the service makes: the PDF/A-3 (pdfaid) and PDF/UA-1 (pdfuaid)
// identification, the Dublin Core, XMP basic and Adobe PDF properties that mirror the Info dictionary, the document
// language, for a Factur-X / ZUGFeRD invoice the fx: properties, and the PDF/A extension schemas that declare
// pdfuaid: and fx: (PDF/A only accepts properties outside its predefined schemas when the packet declares them).
// It only builds text: it must not read or write PDFs (server/pdf/archive.ts and pdfa3.ts put the packet in the file).
// The extension schema below is the one published with Factur-X (its Factur-X_extension_schema.xmp, installed with the
// standards); test/unit/pdf/xmp.test.ts checks that the two say the same.

/** The namespace of the Factur-X XMP properties (with its trailing '#', as the Factur-X specification writes it). */
export const FX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

/** The fx: properties the extension schema declares: name, value type, category and description, in its order. */
const FX_PROPERTIES: readonly { name: string; valueType: string; category: string; description: string }[] = [
  { name: 'DocumentFileName', valueType: 'Text', category: 'external', description: 'name of the embedded XML invoice file' },
  { name: 'DocumentType', valueType: 'Text', category: 'external', description: 'INVOICE' },
  { name: 'Version', valueType: 'Text', category: 'external', description: 'The actual version of the Factur-X XML schema' },
  {
    name: 'ConformanceLevel',
    valueType: 'Text',
    category: 'external',
    description: 'The conformance level of the embedded Factur-X data',
  },
];
const FX_SCHEMA_NAME = 'Factur-X PDFA Extension Schema';

/** The namespace of the PDF/UA identification (ISO 14289-1, 5). */
export const PDFUA_NAMESPACE = 'http://www.aiim.org/pdfua/ns/id/';
const PDFUA_PROPERTIES = [
  { name: 'part', valueType: 'Integer', category: 'internal', description: 'Indicates, which part of ISO 14289 standard is followed' },
];

interface ExtensionSchema {
  schema: string;
  namespaceURI: string;
  prefix: string;
  properties: readonly { name: string; valueType: string; category: string; description: string }[];
}
const PDFUA_SCHEMA: ExtensionSchema = {
  schema: 'PDF/UA identification schema',
  namespaceURI: PDFUA_NAMESPACE,
  prefix: 'pdfuaid',
  properties: PDFUA_PROPERTIES,
};
const FX_SCHEMA: ExtensionSchema = { schema: FX_SCHEMA_NAME, namespaceURI: FX_NAMESPACE, prefix: 'fx', properties: FX_PROPERTIES };

export interface XmpFields {
  title: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator: string;
  producer: string;
  /** Creation, modification and metadata date: the same instant as the Info dictionary's. */
  date: Date;
  /** The document's language (the catalog's /Lang), as dc:language. */
  language?: string;
  /** PDF/A-3 conformance: A (tagged, Unicode text, language) or B (visual appearance only). */
  conformance: 'A' | 'B';
  /** Declares PDF/UA-1 (pdfuaid:part 1). */
  pdfua: boolean;
  facturX?: { documentType: string; fileName: string; version: string; conformanceLevel: string };
}

/**
 * `text` without the characters XML 1.0 cannot carry (C0 controls other than tab and line breaks, lone surrogates,
 * U+FFFE/U+FFFF). The Info dictionary gets the same cleaned value, so that Info and XMP stay equal.
 */
export function xmlSafeText(text: string): string {
  return text.replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

function esc(text: string): string {
  return xmlSafeText(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An XMP date: ISO 8601 in UTC to the second (a PDF date has no finer unit, and both must be the same instant). */
function xmpDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

const alt = (text: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${esc(text)}</rdf:li></rdf:Alt>`;

function schemaEntry(x: ExtensionSchema): string {
  const props = x.properties
    .map(
      (p) =>
        `                <rdf:li rdf:parseType="Resource">
                  <pdfaProperty:name>${esc(p.name)}</pdfaProperty:name>
                  <pdfaProperty:valueType>${esc(p.valueType)}</pdfaProperty:valueType>
                  <pdfaProperty:category>${esc(p.category)}</pdfaProperty:category>
                  <pdfaProperty:description>${esc(p.description)}</pdfaProperty:description>
                </rdf:li>`,
    )
    .join('\n');
  return `          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>${esc(x.schema)}</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${esc(x.namespaceURI)}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>${x.prefix}</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>
${props}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>`;
}

/** The pdfaExtension:schemas block declaring `schemas` (made once per combination: it never changes). */
const extensionBlocks = new Map<string, string>();
function extensionSchemas(schemas: ExtensionSchema[]): string {
  const key = schemas.map((x) => x.prefix).join(' ');
  let block = extensionBlocks.get(key);
  if (block === undefined) {
    block = `    <rdf:Description rdf:about=""
        xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
        xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
        xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
${schemas.map(schemaEntry).join('\n')}
        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>`;
    extensionBlocks.set(key, block);
  }
  return block;
}

// A packet of a few KB: the padding lets a later editor rewrite it in place, as the XMP specification advises.
const PADDING = `${' '.repeat(99)}\n`.repeat(20);

/** The complete XMP packet (UTF-8 text, to be stored uncompressed as the catalog's /Metadata stream). */
export function buildXmp(f: XmpFields): string {
  const date = xmpDate(f.date);
  const optional = [
    f.pdfua ? `      <pdfuaid:part>1</pdfuaid:part>` : '',
    f.author ? `      <dc:creator><rdf:Seq><rdf:li>${esc(f.author)}</rdf:li></rdf:Seq></dc:creator>` : '',
    f.subject ? `      <dc:description>${alt(f.subject)}</dc:description>` : '',
    f.language ? `      <dc:language><rdf:Bag><rdf:li>${esc(f.language)}</rdf:li></rdf:Bag></dc:language>` : '',
    f.keywords ? `      <pdf:Keywords>${esc(f.keywords)}</pdf:Keywords>` : '',
  ].filter(Boolean);
  const fx = f.facturX
    ? `    <rdf:Description rdf:about="" xmlns:fx="${esc(FX_NAMESPACE)}">
      <fx:DocumentType>${esc(f.facturX.documentType)}</fx:DocumentType>
      <fx:DocumentFileName>${esc(f.facturX.fileName)}</fx:DocumentFileName>
      <fx:Version>${esc(f.facturX.version)}</fx:Version>
      <fx:ConformanceLevel>${esc(f.facturX.conformanceLevel)}</fx:ConformanceLevel>
    </rdf:Description>
`
    : '';
  const schemas = [...(f.pdfua ? [PDFUA_SCHEMA] : []), ...(f.facturX ? [FX_SCHEMA] : [])];
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about=""
        xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"${f.pdfua ? `\n        xmlns:pdfuaid="${PDFUA_NAMESPACE}"` : ''}
        xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
        xmlns:xmp="http://ns.adobe.com/xap/1.0/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>${f.conformance}</pdfaid:conformance>
      <dc:format>application/pdf</dc:format>
      <dc:title>${alt(f.title)}</dc:title>
${optional.join('\n')}${optional.length ? '\n' : ''}      <pdf:Producer>${esc(f.producer)}</pdf:Producer>
      <xmp:CreatorTool>${esc(f.creator)}</xmp:CreatorTool>
      <xmp:CreateDate>${date}</xmp:CreateDate>
      <xmp:ModifyDate>${date}</xmp:ModifyDate>
      <xmp:MetadataDate>${date}</xmp:MetadataDate>
    </rdf:Description>
${fx}${schemas.length ? `${extensionSchemas(schemas)}\n` : ''}  </rdf:RDF>
</x:xmpmeta>
${PADDING}<?xpacket end="w"?>`;
}
