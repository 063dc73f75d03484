// The PDF/A-3 packager on small PDFs made here (no Chromium): the Info dictionary of the last incremental update
// replaced by one equal to the XMP, non-Latin text the same in both, the older Info objects gone; inputs it must not
// turn into a PDF/A-3 (encrypted, carrying attachments already, not a PDF) refused with PdfA3Error.
// The whole file on a real Chromium invoice is checked in test/e2e/pdfa3.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { archivePdf } from '../../../server/pdf/archive';
import { PdfA3Error, toPdfA3, type PdfA3Input } from '../../../server/pdf/pdfa3';
import { pdfInfo } from '../../helpers/pdf';
import { smallPdf as writeSmallPdf } from '../../helpers/small-pdf';
import { qpdfJson, readXmp, str } from '../../helpers/pdfa-reader';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-pdfa3-unit-'));

/** A one-page PDF with an Info dictionary as Chromium writes one, rewritten by qpdf with `args`. */
const smallPdf = (args: string[] = []): Buffer =>
  writeSmallPdf({
    catalog: '/Lang (en-US)',
    info: '<< /Producer (Skia/PDF m156) /Creator (Chromium) /Title (old) /CreationDate (D:20200101000000Z) >>',
    qpdfArgs: ['--object-streams=disable', ...args],
  });

const NOW = new Date('2026-11-02T10:00:00.500Z');

function input(pdf: Uint8Array, info: Partial<PdfA3Input['info']> = {}): PdfA3Input {
  return {
    pdf,
    attachment: { name: 'factur-x.xml', xml: '<rsm:CrossIndustryInvoice/>', relationship: 'Alternative' },
    facturX: { documentType: 'INVOICE', version: '1.0', conformanceLevel: 'EN 16931' },
    info: { title: 'Invoice 7', creator: 'docgen-service', producer: 'docgen-service (test)', ...info },
    now: NOW,
  };
}

function write(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

describe('PDF/A-3 packager (small PDFs)', function () {
  it("replaces the last incremental update's Info with one equal to the XMP, in Arabic and Chinese too", async function () {
    // Chromium's PDF with server/pdf/archive.ts's incremental update: two Info dictionaries, the later one in force.
    const chromium = archivePdf(smallPdf(), { title: 'Invoice 7 (update)', author: 'x' }, 'docgen', new Date('2021-01-01T00:00:00Z'));
    const title = 'فاتورة رقم ٧ — 发票 第7号 (Q4) & <final>';
    const author = 'Müller & Söhne — 北京贸易有限公司';
    const out = await toPdfA3(input(chromium, { title, author, subject: 'شركة النور', keywords: '发票, invoice' }));
    const file = write(out, 'non-latin.pdf');
    const pdf = qpdfJson(file);
    const info = pdf.dict(pdf.trailer['/Info']);
    expect(str(info['/Title'])).to.equal(title);
    expect(str(info['/Author'])).to.equal(author);
    expect(str(info['/Subject'])).to.equal('شركة النور');
    expect(str(info['/Keywords'])).to.equal('发票, invoice');
    expect(str(info['/CreationDate'])).to.equal('D:20261102100000Z');
    expect(str(info['/ModDate'])).to.equal('D:20261102100000Z');
    expect(pdfInfo(out).Title).to.equal(title);

    const catalog = pdf.dict(pdf.trailer['/Root']);
    const { props } = await readXmp(pdf.data(catalog['/Metadata']).toString('utf8'));
    expect(props['dc:title']).to.equal(title);
    expect(props['dc:creator']).to.equal(author);
    expect(props['dc:description']).to.equal('شركة النور');
    expect(props['pdf:Keywords']).to.equal('发票, invoice');
    expect(props['xmp:CreateDate']).to.equal('2026-11-02T10:00:00Z');

    // Neither Chromium's Info nor the incremental update's is written again as an unreferenced object.
    const producers = [...pdf.objects.values()].filter((o) => o.value && typeof o.value === 'object' && '/Producer' in o.value);
    expect(producers).to.have.length(1);
    expect(catalog['/Lang']).to.equal('u:en-US');
    // The archive update's XMP and sRGB profile are replaced, not left behind: one of each in the file.
    const streams = [...pdf.objects.values()].filter((o) => o.dict);
    expect(streams.filter((o) => o.dict!['/Type'] === '/Metadata')).to.have.length(1);
    expect(streams.filter((o) => o.dict!['/N'] === 3)).to.have.length(1);
    // A small PDF has no structure tree: level B and no PDF/UA claim, whatever the input's XMP said.
    expect(props['pdfaid:conformance']).to.equal('B');
    expect(props).to.not.have.property('pdfuaid:part');
  });

  it('writes the same cleaned text into the Info and the XMP when the title has characters XML cannot carry', async function () {
    const out = await toPdfA3(input(smallPdf(), { title: 'Invoice\u0001 7\uFFFF' }));
    const pdf = qpdfJson(write(out, 'controls.pdf'));
    expect(str(pdf.dict(pdf.trailer['/Info'])['/Title'])).to.equal('Invoice 7');
    const { props } = await readXmp(pdf.data(pdf.dict(pdf.trailer['/Root'])['/Metadata']).toString('utf8'));
    expect(props['dc:title']).to.equal('Invoice 7');
  });

  it('refuses an encrypted PDF', async function () {
    const encrypted = smallPdf(['--encrypt', 'user', 'owner', '256', '--']);
    const err = await toPdfA3(input(encrypted)).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(PdfA3Error);
    expect((err as Error).message).to.match(/encrypt/);
  });

  it('refuses a PDF that has embedded files already (each would need an /AFRelationship)', async function () {
    const xml = path.join(dir, 'other.xml');
    fs.writeFileSync(xml, '<other/>');
    const withFile = smallPdf(['--add-attachment', xml, '--']);
    const err = await toPdfA3(input(withFile)).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(PdfA3Error);
    expect((err as Error).message).to.match(/embedded files/);
  });

  it('refuses bytes that are not a PDF', async function () {
    const err = await toPdfA3(input(new TextEncoder().encode('<html>not a pdf</html>'))).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(PdfA3Error);
  });
});
