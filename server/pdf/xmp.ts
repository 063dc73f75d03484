// The XMP metadata packet of a PDF/A-3b Factur-X / ZUGFeRD invoice: the pdfaid identification, the Dublin Core,
// XMP basic and Adobe PDF properties that mirror the Info dictionary, the fx: properties, and the PDF/A extension
// schema that declares the fx: properties (PDF/A only accepts custom properties a packet declares itself).
// It only builds text: it must not read or write PDFs (server/pdf/pdfa3.ts puts the packet into the file).
// The extension schema below is the one published with Factur-X (shared/standards/factur-x/
// Factur-X_extension_schema.xmp); test/unit/pdf/xmp.test.ts checks that the two say the same.

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

export interface XmpFields {
  title: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator: string;
  producer: string;
  /** Creation, modification and metadata date: the same instant as the Info dictionary's. */
  date: Date;
  facturX: { documentType: string; fileName: string; version: string; conformanceLevel: string };
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

function extensionSchema(): string {
  const props = FX_PROPERTIES.map(
    (p) =>
      `                <rdf:li rdf:parseType="Resource">
                  <pdfaProperty:name>${esc(p.name)}</pdfaProperty:name>
                  <pdfaProperty:valueType>${esc(p.valueType)}</pdfaProperty:valueType>
                  <pdfaProperty:category>${esc(p.category)}</pdfaProperty:category>
                  <pdfaProperty:description>${esc(p.description)}</pdfaProperty:description>
                </rdf:li>`,
  ).join('\n');
  return `    <rdf:Description rdf:about=""
        xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
        xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
        xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>${esc(FX_SCHEMA_NAME)}</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${esc(FX_NAMESPACE)}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>fx</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>
${props}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>`;
}

/** The complete XMP packet (UTF-8 text, to be stored uncompressed as the catalog's /Metadata stream). */
export function buildXmp(f: XmpFields): string {
  const date = xmpDate(f.date);
  const optional = [
    f.author ? `      <dc:creator><rdf:Seq><rdf:li>${esc(f.author)}</rdf:li></rdf:Seq></dc:creator>` : '',
    f.subject ? `      <dc:description>${alt(f.subject)}</dc:description>` : '',
    f.keywords ? `      <pdf:Keywords>${esc(f.keywords)}</pdf:Keywords>` : '',
  ].filter(Boolean);
  // A packet of a few KB: the padding lets a later editor rewrite it in place, as the XMP specification advises.
  const padding = `${' '.repeat(99)}\n`.repeat(20);
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about=""
        xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"
        xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
        xmlns:xmp="http://ns.adobe.com/xap/1.0/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
      <dc:format>application/pdf</dc:format>
      <dc:title>${alt(f.title)}</dc:title>
${optional.join('\n')}${optional.length ? '\n' : ''}      <pdf:Producer>${esc(f.producer)}</pdf:Producer>
      <xmp:CreatorTool>${esc(f.creator)}</xmp:CreatorTool>
      <xmp:CreateDate>${date}</xmp:CreateDate>
      <xmp:ModifyDate>${date}</xmp:ModifyDate>
      <xmp:MetadataDate>${date}</xmp:MetadataDate>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:fx="${esc(FX_NAMESPACE)}">
      <fx:DocumentType>${esc(f.facturX.documentType)}</fx:DocumentType>
      <fx:DocumentFileName>${esc(f.facturX.fileName)}</fx:DocumentFileName>
      <fx:Version>${esc(f.facturX.version)}</fx:Version>
      <fx:ConformanceLevel>${esc(f.facturX.conformanceLevel)}</fx:ConformanceLevel>
    </rdf:Description>
${extensionSchema()}
  </rdf:RDF>
</x:xmpmeta>
${padding}<?xpacket end="w"?>`;
}
