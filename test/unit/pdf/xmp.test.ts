// The XMP packet of the PDF/A-3 invoice, parsed back by libxml2: PDF/A-3b identification, the Info mirrors, the fx:
// properties with the extension schema that the published Factur-X file declares, and text that XML must escape
// (markup characters, right-to-left and CJK titles, characters XML cannot carry).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { buildXmp, xmlSafeText, type XmpFields } from '../../../server/pdf/xmp';
import { STANDARDS_DIR } from '../../helpers/schematron';
import { readXmp } from '../../helpers/pdfa-reader';

const fields: XmpFields = {
  title: 'Invoice INV-7',
  author: 'Northwind Traders Ltd',
  subject: 'Invoice INV-7 for Contoso GmbH',
  keywords: 'invoice, Factur-X',
  creator: 'docgen-service',
  producer: 'docgen-service (Chromium)',
  date: new Date('2026-11-02T10:00:00.789Z'),
  conformance: 'B',
  pdfua: false,
  facturX: { documentType: 'INVOICE', fileName: 'factur-x.xml', version: '1.0', conformanceLevel: 'EN 16931' },
};

describe('XMP packet (PDF/A-3, PDF/UA-1, Factur-X)', function () {
  it('declares PDF/A-3b and carries every given field, dates to the second in UTC', async function () {
    const xmp = buildXmp(fields);
    expect(xmp.startsWith('<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>')).to.equal(true);
    expect(xmp.endsWith('<?xpacket end="w"?>')).to.equal(true);
    const { props } = await readXmp(xmp);
    expect(props).to.deep.equal({
      'pdfaid:part': '3',
      'pdfaid:conformance': 'B',
      'dc:title': 'Invoice INV-7',
      'dc:creator': 'Northwind Traders Ltd',
      'dc:description': 'Invoice INV-7 for Contoso GmbH',
      'pdf:Producer': 'docgen-service (Chromium)',
      'pdf:Keywords': 'invoice, Factur-X',
      'xmp:CreatorTool': 'docgen-service',
      'xmp:CreateDate': '2026-11-02T10:00:00Z',
      'xmp:ModifyDate': '2026-11-02T10:00:00Z',
      'xmp:MetadataDate': '2026-11-02T10:00:00Z',
      'fx:DocumentType': 'INVOICE',
      'fx:DocumentFileName': 'factur-x.xml',
      'fx:Version': '1.0',
      'fx:ConformanceLevel': 'EN 16931',
    });
  });

  it('leaves out dc:creator, dc:description and pdf:Keywords when there is no author, subject or keywords', async function () {
    const { props } = await readXmp(buildXmp({ ...fields, author: undefined, subject: undefined, keywords: '' }));
    expect(props).to.not.have.any.keys('dc:creator', 'dc:description', 'pdf:Keywords');
    expect(props['dc:title']).to.equal('Invoice INV-7');
  });

  it('declares the fx: properties exactly as the published Factur-X extension schema does', async function () {
    const published = await readXmp(fs.readFileSync(path.join(STANDARDS_DIR, 'factur-x', 'Factur-X_extension_schema.xmp'), 'utf8'));
    expect(published.schemas).to.have.length(1);
    expect(published.schemas[0]!.properties).to.have.length(4);
    const ours = await readXmp(buildXmp(fields));
    expect(ours.schemas).to.deep.equal(published.schemas);
    // The published sample's fx: properties are in the same namespace: every one it sets, ours sets too.
    const fx = (read: typeof ours) => Object.keys(read.props).filter((k) => k.startsWith('fx:'));
    expect(fx(published)).to.have.length(4);
    expect(fx(ours)).to.have.members(fx(published));
  });

  it('declares PDF/A-3a and PDF/UA-1 with the pdfuaid: extension schema, and the language, for every PDF', async function () {
    const { facturX: _, ...plain } = fields;
    const read = await readXmp(buildXmp({ ...plain, conformance: 'A', pdfua: true, language: 'de-CH' }));
    expect(read.props['pdfaid:part']).to.equal('3');
    expect(read.props['pdfaid:conformance']).to.equal('A');
    expect(read.props['pdfuaid:part']).to.equal('1');
    expect(read.props['dc:language']).to.equal('de-CH');
    expect(Object.keys(read.props).filter((k) => k.startsWith('fx:'))).to.deep.equal([]);
    expect(read.schemas).to.deep.equal([
      {
        schema: 'PDF/UA identification schema',
        namespaceURI: 'http://www.aiim.org/pdfua/ns/id/',
        prefix: 'pdfuaid',
        properties: [
          {
            name: 'part',
            valueType: 'Integer',
            category: 'internal',
            description: 'Indicates, which part of ISO 14289 standard is followed',
          },
        ],
      },
    ]);
    // With Factur-X, both schemas are declared, the published one unchanged.
    const both = await readXmp(buildXmp({ ...fields, conformance: 'A', pdfua: true }));
    expect(both.schemas.map((x) => x.prefix)).to.deep.equal(['pdfuaid', 'fx']);
    // Without PDF/UA, neither the property nor its schema.
    const neither = await readXmp(buildXmp({ ...plain, conformance: 'B', pdfua: false }));
    expect(neither.props).to.not.have.any.keys('pdfuaid:part', 'dc:language');
    expect(neither.schemas).to.deep.equal([]);
  });

  it('escapes markup characters and keeps Arabic, Chinese and emoji text as it is', async function () {
    const title = `Invoice <INV-7> & "Q4" 'final' ]]> — فاتورة رقم ١٢ — 发票 第12号 🧾`;
    const author = 'Müller & Söhne <GmbH> — شركة النور — 北京贸易有限公司';
    const xmp = buildXmp({ ...fields, title, author, subject: '</dc:description>', keywords: 'a&b' });
    const { props } = await readXmp(xmp);
    expect(props['dc:title']).to.equal(title);
    expect(props['dc:creator']).to.equal(author);
    expect(props['dc:description']).to.equal('</dc:description>');
    expect(props['pdf:Keywords']).to.equal('a&b');
  });

  it('drops the characters XML 1.0 cannot carry (controls, lone surrogates) instead of writing a broken packet', async function () {
    const title = 'In\u0001voice\u0008 7\uFFFE\uD800 ok\ttab';
    expect(xmlSafeText(title)).to.equal('Invoice 7 ok\ttab');
    const { props } = await readXmp(buildXmp({ ...fields, title }));
    expect(props['dc:title']).to.equal('Invoice 7 ok\ttab');
  });
});
