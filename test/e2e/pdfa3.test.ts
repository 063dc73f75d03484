// The PDF/A-3 packaging of a real invoice PDF: the service prints examples/invoice.json with Chromium, toPdfA3()
// attaches a CII document, and every PDF/A-3 requirement docs/pdf.md lists as checked is read back FROM THE FILE
// with qpdf (--check, --json), pdfinfo, pdfdetach, pdffonts and pdftotext, never from the objects the code built.
// No PDF/A validator runs here: what these checks cannot see is listed in docs/pdf.md.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { toPdfA3, type PdfA3Input } from '../../server/pdf/pdfa3';
import { pdfText } from '../helpers/pdf';
import { post, sharedService, tempDir } from '../helpers/service';
import { qpdfJson, readXmp, str, type Dict, type QpdfFile, type XmpRead } from '../helpers/pdfa-reader';

const NOW = new Date('2026-11-02T10:00:00Z');
// A small CII-looking document with non-ASCII text, so that "byte for byte" covers UTF-8.
const CII = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
    xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">
  <rsm:ExchangedDocumentContext>
    <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
  </rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>INV-2026-0042</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Northwind Traders Ltd</ram:Name></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Contoso GmbH, Hauptstraße 5 — 2 945,46 €</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`;

const INFO: PdfA3Input['info'] = {
  title: 'Invoice INV-2026-0042',
  author: 'Northwind Traders Ltd',
  subject: 'Invoice INV-2026-0042 to Contoso GmbH',
  keywords: 'invoice, Factur-X, EN 16931',
  creator: 'docgen-service',
  producer: 'docgen-service (Chromium Skia/PDF, @cantoo/pdf-lib)',
};

interface Packaged {
  file: string;
  pdf: QpdfFile;
  catalog: Dict;
  xmp: XmpRead;
}

async function packageAs(original: Uint8Array, name: string, over: Partial<PdfA3Input> = {}): Promise<Packaged> {
  const out = await toPdfA3({
    pdf: original,
    attachment: { name: 'factur-x.xml', xml: CII, description: 'Factur-X invoice', relationship: 'Alternative' },
    facturX: { documentType: 'INVOICE', version: '1.0', conformanceLevel: 'EN 16931' },
    info: INFO,
    now: NOW,
    ...over,
  });
  const file = path.join(tempDir('pdfa3'), name);
  fs.writeFileSync(file, out);
  const pdf = qpdfJson(file);
  const catalog = pdf.dict(pdf.trailer['/Root']);
  const xmp = await readXmp(pdf.data(catalog['/Metadata']).toString('utf8'));
  return { file, pdf, catalog, xmp };
}

const tool = (cmd: string, ...args: string[]) => execFileSync(cmd, args, { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
/** A PDF date (D:YYYYMMDDHHmmSSZ) as the instant it names. */
const pdfInstant = (d: string) => new Date(d.replace(/^D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')).getTime();

describe('PDF/A-3 packaging of a Chromium invoice (toPdfA3)', function () {
  this.timeout(120000);
  let original: Buffer;
  let originalFile: string;
  let fx: Packaged;

  before(async function () {
    const service = await sharedService();
    const body = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'examples', 'invoice.json'), 'utf8'));
    const res = await post(service, body);
    expect(res.status).to.equal(200);
    original = Buffer.from(await res.arrayBuffer());
    originalFile = path.join(tempDir('pdfa3'), 'chromium.pdf');
    fs.writeFileSync(originalFile, original);
    fx = await packageAs(original, 'factur-x.pdf');
  });

  it('is a PDF 1.7 that qpdf checks without error, with a trailer /ID of two equal 16-byte strings and no /Encrypt', function () {
    expect(fs.readFileSync(fx.file).subarray(0, 9).toString('latin1')).to.equal('%PDF-1.7\n');
    expect(fx.pdf.version).to.equal('1.7');
    expect(tool('qpdf', '--check', fx.file)).to.match(/No syntax or stream encoding errors found/);
    expect(fx.pdf.trailer).to.not.have.property('/Encrypt');
    const tail = fs.readFileSync(fx.file).subarray(-600).toString('latin1');
    const id = /\/ID\s*\[\s*<([0-9a-fA-F]{32})>\s*<([0-9a-fA-F]{32})>\s*\]/.exec(tail);
    expect(id, 'a trailer /ID of two 16-byte strings').to.not.equal(null);
    expect(id![1]).to.equal(id![2]);
    expect(fx.pdf.trailer['/ID']).to.deep.equal([`b:${id![1]!.toLowerCase()}`, `b:${id![1]!.toLowerCase()}`]);
  });

  it('has an uncompressed /Metadata XMP stream that declares PDF/A-3a and PDF/UA-1 (kept from the service’s PDF), the fx: properties and their extension schema', function () {
    const meta = fx.pdf.dict(fx.catalog['/Metadata']);
    expect(meta['/Type']).to.equal('/Metadata');
    expect(meta['/Subtype']).to.equal('/XML');
    expect(meta).to.not.have.property('/Filter');
    expect(fx.xmp.props).to.include({
      'pdfaid:part': '3',
      'pdfaid:conformance': 'A',
      'pdfuaid:part': '1',
      'dc:language': 'en-US',
      'fx:DocumentType': 'INVOICE',
      'fx:DocumentFileName': 'factur-x.xml',
      'fx:Version': '1.0',
      'fx:ConformanceLevel': 'EN 16931',
    });
    const fxSchema = fx.xmp.schemas.find((s) => s.prefix === 'fx');
    expect(fxSchema?.namespaceURI).to.equal('urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#');
    expect(fxSchema?.properties.map((p) => p.name)).to.have.members(['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel']);
    // Another reader (poppler) finds the same packet.
    expect(tool('pdfinfo', '-meta', fx.file)).to.contain('<pdfaid:part>3</pdfaid:part>');
  });

  it('has an Info dictionary equal to the XMP: title, author, subject, keywords, creator, producer and dates', function () {
    const info = fx.pdf.dict(fx.pdf.trailer['/Info']);
    const p = fx.xmp.props;
    expect(str(info['/Title'])).to.equal(INFO.title).and.to.equal(p['dc:title']);
    expect(str(info['/Author'])).to.equal(INFO.author).and.to.equal(p['dc:creator']);
    expect(str(info['/Subject'])).to.equal(INFO.subject).and.to.equal(p['dc:description']);
    expect(str(info['/Keywords'])).to.equal(INFO.keywords).and.to.equal(p['pdf:Keywords']);
    expect(str(info['/Creator'])).to.equal(INFO.creator).and.to.equal(p['xmp:CreatorTool']);
    expect(str(info['/Producer'])).to.equal(INFO.producer).and.to.equal(p['pdf:Producer']);
    expect(pdfInstant(str(info['/CreationDate'])))
      .to.equal(NOW.getTime())
      .and.to.equal(Date.parse(p['xmp:CreateDate']!));
    expect(pdfInstant(str(info['/ModDate'])))
      .to.equal(NOW.getTime())
      .and.to.equal(Date.parse(p['xmp:ModifyDate']!));
    expect(Date.parse(p['xmp:MetadataDate']!)).to.equal(NOW.getTime());
    // Chromium's Info and the incremental update's are not carried along as stale objects.
    const producers = [...fx.pdf.objects.values()].filter((o) => o.value && typeof o.value === 'object' && '/Producer' in o.value);
    expect(producers).to.have.length(1);
  });

  it('has a GTS_PDFA1 OutputIntent with an embedded sRGB ICC profile (/N 3)', function () {
    const intents = fx.pdf.resolve(fx.catalog['/OutputIntents']) as string[];
    expect(intents).to.have.length(1);
    const intent = fx.pdf.dict(intents[0]);
    expect(intent['/Type']).to.equal('/OutputIntent');
    expect(intent['/S']).to.equal('/GTS_PDFA1');
    expect(str(intent['/OutputConditionIdentifier'])).to.match(/sRGB/);
    expect(fx.pdf.dict(intent['/DestOutputProfile'])['/N']).to.equal(3);
    const icc = fx.pdf.data(intent['/DestOutputProfile']);
    // The ICC header: its declared size, the 'acsp' signature, a display ('mntr') profile of RGB data, version 2.
    expect(icc.readUInt32BE(0)).to.equal(icc.length);
    expect(icc.subarray(36, 40).toString('latin1')).to.equal('acsp');
    expect(icc.subarray(12, 16).toString('latin1')).to.equal('mntr');
    expect(icc.subarray(16, 20).toString('latin1')).to.equal('RGB ');
    expect(icc[8]).to.equal(2);
    expect(icc.toString('latin1')).to.contain('sRGB IEC61966-2.1');
  });

  it('lists one file spec in both /AF and /Names /EmbeddedFiles, with /F, /UF, /Desc and /AFRelationship /Alternative', function () {
    const af = fx.pdf.resolve(fx.catalog['/AF']) as string[];
    expect(af).to.have.length(1);
    const names = fx.pdf.dict(fx.pdf.dict(fx.catalog['/Names'])['/EmbeddedFiles'])['/Names'] as string[];
    expect(names).to.have.length(2);
    expect(str(names[0])).to.equal('factur-x.xml');
    expect(names[1]).to.equal(af[0]);
    const spec = fx.pdf.dict(af[0]);
    expect(spec['/Type']).to.equal('/Filespec');
    expect(str(spec['/F'])).to.equal('factur-x.xml');
    expect(str(spec['/UF'])).to.equal('factur-x.xml');
    expect(str(spec['/Desc'])).to.equal('Factur-X invoice');
    expect(spec['/AFRelationship']).to.equal('/Alternative');
    const ef = fx.pdf.dict(spec['/EF']);
    expect(ef['/F']).to.be.a('string');
    expect(ef['/UF']).to.equal(ef['/F']);
    expect(tool('pdfdetach', '-list', fx.file)).to.match(/^1 embedded files\n1: factur-x\.xml\n$/);
  });

  it('embeds the XML as text/xml with /Params size, MD5 checksum and dates; pdfdetach extracts it byte for byte', function () {
    const spec = fx.pdf.dict((fx.pdf.resolve(fx.catalog['/AF']) as string[])[0]);
    const streamRef = fx.pdf.dict(spec['/EF'])['/F'];
    const stream = fx.pdf.dict(streamRef);
    const bytes = Buffer.from(CII, 'utf8');
    expect(stream['/Type']).to.equal('/EmbeddedFile');
    expect(stream['/Subtype']).to.equal('/text/xml');
    const params = fx.pdf.dict(stream['/Params']);
    expect(params['/Size']).to.equal(bytes.length);
    expect(params['/CheckSum']).to.equal(`b:${createHash('md5').update(bytes).digest('hex')}`);
    expect(pdfInstant(str(params['/CreationDate']))).to.equal(NOW.getTime());
    expect(pdfInstant(str(params['/ModDate']))).to.equal(NOW.getTime());
    expect(fx.pdf.data(streamRef).equals(bytes)).to.equal(true);
    const out = tempDir('pdfa3-detach');
    tool('pdfdetach', '-saveall', '-o', out, fx.file);
    expect(fs.readdirSync(out)).to.deep.equal(['factur-x.xml']);
    expect(fs.readFileSync(path.join(out, 'factur-x.xml')).equals(bytes)).to.equal(true);
  });

  it("keeps Chromium's tags, language, embedded fonts and page text", function () {
    const before = qpdfJson(originalFile);
    const beforeCatalog = before.dict(before.trailer['/Root']);
    expect(fx.catalog['/StructTreeRoot'], 'the structure tree').to.equal(beforeCatalog['/StructTreeRoot']).and.to.be.a('string');
    expect(fx.pdf.dict(fx.catalog['/StructTreeRoot'])['/Type']).to.equal('/StructTreeRoot');
    const elements = (pdf: QpdfFile) =>
      [...pdf.objects.values()].filter((o) => (o.value as Dict | null)?.['/Type'] === '/StructElem').length;
    expect(elements(fx.pdf)).to.be.greaterThan(10).and.to.equal(elements(before));
    expect(fx.pdf.dict(fx.catalog['/MarkInfo'])['/Marked']).to.equal(true);
    expect(fx.catalog['/Lang']).to.equal(beforeCatalog['/Lang']).and.to.match(/^u:en/);
    // Every font embedded: pdffonts' emb column, and a FontFile in every font descriptor.
    const fonts = tool('pdffonts', fx.file).trim().split('\n').slice(2);
    expect(fonts.length).to.be.greaterThan(0);
    for (const line of fonts) expect(line.split(/\s+/).at(-5), line).to.equal('yes');
    const descriptors = [...fx.pdf.objects.values()].filter((o) => (o.value as Dict | null)?.['/Type'] === '/FontDescriptor');
    expect(descriptors.length).to.equal(fonts.length);
    for (const d of descriptors) expect(Object.keys(d.value as Dict)).to.include.oneOf(['/FontFile', '/FontFile2', '/FontFile3']);
    expect(pdfText(fs.readFileSync(fx.file)))
      .to.equal(pdfText(original))
      .and.to.contain('INV-2026-0042');
  });

  it('XRechnung: xrechnung.xml with fx:ConformanceLevel XRECHNUNG and the relationship given', async function () {
    const x = await packageAs(original, 'xrechnung.pdf', {
      attachment: { name: 'xrechnung.xml', xml: CII, relationship: 'Data' },
      facturX: { documentType: 'INVOICE', version: '1.0', conformanceLevel: 'XRECHNUNG' },
    });
    expect(x.xmp.props).to.include({ 'fx:DocumentFileName': 'xrechnung.xml', 'fx:ConformanceLevel': 'XRECHNUNG' });
    const af = x.pdf.resolve(x.catalog['/AF']) as string[];
    const spec = x.pdf.dict(af[0]);
    expect(str(spec['/UF'])).to.equal('xrechnung.xml');
    expect(spec['/AFRelationship']).to.equal('/Data');
    expect(spec).to.not.have.property('/Desc');
    expect(tool('pdfdetach', '-list', x.file)).to.contain('1: xrechnung.xml');
  });
});
