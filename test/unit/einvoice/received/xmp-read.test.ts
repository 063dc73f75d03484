// readXmp: a received PDF's XMP packet read into property values (as elements or as attributes of any
// rdf:Description, the first one winning; an rdf:Alt's x-default item, a Seq's or Bag's first) and the PDF/A extension
// schemas it declares; a packet that is not well-formed, declares a DTD or is too large is refused as malformed_xml.
import { expect } from 'chai';
import { DomainError } from '../../../../server/errors';
import { PDFAID, RDF, prop, readXmp } from '../../../../server/einvoice/received/xmp-read';

const FX = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
const DC = 'http://purl.org/dc/elements/1.1/';

const packet = (body: string): Uint8Array =>
  Buffer.from(
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="${RDF}">${body}</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`,
    'utf8',
  );

const EXTENSION = `
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
    xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
  <pdfaExtension:schemas><rdf:Bag>
    <rdf:li rdf:parseType="Resource">
      <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
      <pdfaSchema:namespaceURI>${FX}</pdfaSchema:namespaceURI>
      <pdfaSchema:prefix>fx</pdfaSchema:prefix>
      <pdfaSchema:property><rdf:Seq>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentFileName</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType></rdf:li>
        <rdf:li><rdf:Description pdfaProperty:name="ConformanceLevel" pdfaProperty:valueType="Text"/></rdf:li>
      </rdf:Seq></pdfaSchema:property>
    </rdf:li>
    <rdf:li><rdf:Description pdfaSchema:namespaceURI="urn:other#" pdfaSchema:prefix="o"/></rdf:li>
  </rdf:Bag></pdfaExtension:schemas>
</rdf:Description>`;

describe('readXmp (received PDF XMP packets)', function () {
  it('reads simple properties written as elements and as attributes, across several rdf:Description', function () {
    const xmp = readXmp(
      packet(`
<rdf:Description rdf:about="" xmlns:pdfaid="${PDFAID}"><pdfaid:part>3</pdfaid:part><pdfaid:conformance> B </pdfaid:conformance></rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="${FX}" fx:DocumentFileName="factur-x.xml" fx:ConformanceLevel="EN 16931"/>`),
    );
    expect(prop(xmp, PDFAID, 'part')).to.equal('3');
    expect(prop(xmp, PDFAID, 'conformance'), 'trimmed').to.equal('B');
    expect(prop(xmp, FX, 'DocumentFileName')).to.equal('factur-x.xml');
    expect(prop(xmp, FX, 'ConformanceLevel')).to.equal('EN 16931');
    expect(prop(xmp, FX, 'DocumentType')).to.equal(undefined);
    expect(
      [...xmp.props.keys()].some((k) => k.startsWith(`{${RDF}}`)),
      'rdf:about is no property',
    ).to.equal(false);
  });

  it("takes an rdf:Alt's x-default item (else its first), and a Seq's or Bag's first item", function () {
    const xmp = readXmp(
      packet(`
<rdf:Description rdf:about="" xmlns:dc="${DC}">
  <dc:title><rdf:Alt><rdf:li xml:lang="de">Rechnung</rdf:li><rdf:li xml:lang="x-default">Invoice</rdf:li></rdf:Alt></dc:title>
  <dc:description><rdf:Alt><rdf:li xml:lang="fr">Facture</rdf:li><rdf:li xml:lang="de">Rechnung</rdf:li></rdf:Alt></dc:description>
  <dc:creator><rdf:Seq><rdf:li>Ada</rdf:li><rdf:li>Grace</rdf:li></rdf:Seq></dc:creator>
  <dc:subject><rdf:Bag><rdf:li>first</rdf:li><rdf:li>second</rdf:li></rdf:Bag></dc:subject>
  <dc:rights><rdf:Alt/></dc:rights>
</rdf:Description>`),
    );
    expect(prop(xmp, DC, 'title')).to.equal('Invoice');
    expect(prop(xmp, DC, 'description')).to.equal('Facture');
    expect(prop(xmp, DC, 'creator')).to.equal('Ada');
    expect(prop(xmp, DC, 'subject')).to.equal('first');
    expect(prop(xmp, DC, 'rights'), 'an empty Alt has no value').to.equal(undefined);
  });

  it('keeps the first value of a property given twice (a later Description cannot override it)', function () {
    const xmp = readXmp(
      packet(`
<rdf:Description rdf:about="" xmlns:pdfaid="${PDFAID}"><pdfaid:part>3</pdfaid:part></rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaid="${PDFAID}" pdfaid:part="1"/>`),
    );
    expect(prop(xmp, PDFAID, 'part')).to.equal('3');
  });

  it('reads the PDF/A extension schemas with their properties, written as resources or as Descriptions', function () {
    const { schemas } = readXmp(packet(EXTENSION));
    expect(schemas).to.deep.equal([
      {
        namespaceURI: FX,
        prefix: 'fx',
        properties: [
          { name: 'DocumentFileName', valueType: 'Text' },
          { name: 'ConformanceLevel', valueType: 'Text' },
        ],
      },
      { namespaceURI: 'urn:other#', prefix: 'o', properties: [] },
    ]);
  });

  it('reads a packet without schemas as none, and a property element holding markup as no value', function () {
    const xmp = readXmp(packet(`<rdf:Description rdf:about="" xmlns:dc="${DC}"><dc:format><b>x</b></dc:format></rdf:Description>`));
    expect(xmp.schemas).to.deep.equal([]);
    expect(prop(xmp, DC, 'format')).to.equal(undefined);
  });

  it('refuses a packet that is not well-formed, declares a DTD (entity expansion) or has too many elements', function () {
    const refused = (bytes: Uint8Array): string => {
      try {
        readXmp(bytes);
      } catch (err) {
        expect(err).to.be.instanceOf(DomainError);
        return (err as DomainError).code;
      }
      throw new Error('not refused');
    };
    expect(refused(Buffer.from('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>'))).to.equal('malformed_xml');
    const bomb = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><x>&b;</x>`;
    expect(refused(Buffer.from(bomb))).to.equal('malformed_xml');
    const many = Array.from({ length: 20_001 }, () => '<i/>').join('');
    expect(refused(packet(`<rdf:Description rdf:about="">${many}</rdf:Description>`))).to.equal('malformed_xml');
  });
});
