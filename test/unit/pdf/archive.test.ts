// The PDF/A-3a + PDF/UA-1 finish as an incremental update after Chromium's output, on small PDFs made here (the
// whole file on real Chromium documents: test/e2e/archive.test.ts): the original bytes untouched, a file qpdf finds
// no error in, the Info dictionary and the XMP saying the same (non-Latin text as UTF-16), both standards identified,
// the language, the sRGB OutputIntent and a trailer /ID; a PDF it cannot update (no classic trailer) refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getDefaultSRGBProfile } from '@cantoo/pdf-lib';
import { expect } from 'chai';
import { archivePdf } from '../../../server/pdf/archive';
import { PdfStructureError } from '../../../server/pdf/pdf-file';
import { pdfInfo } from '../../helpers/pdf';
import { qpdfJson, readXmp, str } from '../../helpers/pdfa-reader';
import { smallPdf } from '../../helpers/small-pdf';

/** A one-page PDF, rewritten by qpdf with `args` (classic trailer, or cross-reference streams). */
const qpdfMade = (args: string[]): Buffer => smallPdf({ catalog: '/Lang (de-CH)', qpdfArgs: args });

describe('PDF/A-3a and PDF/UA-1 finish (incremental update)', function () {
  const now = new Date('2026-11-02T10:00:00.700Z');
  const original = qpdfMade(['--object-streams=disable']);
  const meta = { title: 'Rechnung 7 (Entwurf)', author: 'Müller & Söhne — 株式会社', creator: 'docgen' };
  const updated = archivePdf(original, meta, 'producer x', now);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-archive-')), 'updated.pdf');
  fs.writeFileSync(file, updated);

  it('appends to the original bytes, and qpdf finds no error in the result', function () {
    expect(updated.subarray(0, original.length).equals(original)).to.equal(true);
    expect(execFileSync('qpdf', ['--check', file]).toString()).to.match(/No syntax or stream encoding errors found/);
  });

  it('writes Info and XMP with the same values; the XMP identifies PDF/A-3a and PDF/UA-1 and the language', async function () {
    const info = pdfInfo(updated);
    expect(info.Title).to.equal(meta.title);
    expect(info.Author).to.equal(meta.author);
    expect(info.Creator).to.equal('docgen');
    expect(info.Producer).to.equal('producer x');
    const pdf = qpdfJson(file);
    const catalog = pdf.dict(pdf.trailer['/Root']);
    expect(catalog['/Pages']).to.be.a('string'); // the catalog kept what it had
    const stream = pdf.objects.get(catalog['/Metadata'] as string)!;
    expect(stream.dict!['/Filter'], 'the XMP stream is not compressed').to.equal(undefined);
    const { props } = await readXmp(stream.data!.toString('utf8'));
    expect(props).to.include({
      'pdfaid:part': '3',
      'pdfaid:conformance': 'A',
      'pdfuaid:part': '1',
      'dc:title': meta.title,
      'dc:creator': meta.author,
      'dc:language': 'de-CH',
      'pdf:Producer': 'producer x',
      'xmp:CreatorTool': 'docgen',
      'xmp:CreateDate': '2026-11-02T10:00:00Z',
    });
    const infoDict = pdf.dict(pdf.trailer['/Info']);
    expect(str(infoDict['/CreationDate'])).to.equal('D:20261102100000Z');
  });

  it('adds the sRGB OutputIntent with the whole ICC profile, and a trailer /ID of two equal 16-byte strings', function () {
    const pdf = qpdfJson(file);
    const catalog = pdf.dict(pdf.trailer['/Root']);
    const intents = pdf.resolve(catalog['/OutputIntents']) as unknown[];
    expect(intents).to.have.length(1);
    const intent = pdf.dict(intents[0] as string);
    expect(intent['/S']).to.equal('/GTS_PDFA1');
    expect(str(intent['/OutputConditionIdentifier'])).to.equal('sRGB IEC61966-2.1');
    const icc = pdf.objects.get(intent['/DestOutputProfile'] as string)!;
    expect(icc.dict!['/N']).to.equal(3);
    expect(icc.data!.equals(Buffer.from(getDefaultSRGBProfile()))).to.equal(true);
    const id = pdf.trailer['/ID'] as string[];
    expect(id).to.have.length(2);
    expect(str(id[0])).to.match(/^[0-9a-f]{32}$/);
    expect(id[0]).to.equal(id[1]);
  });

  it('gives each file its own /ID: the same bytes, title and instant made 200 times, 200 identifiers', function () {
    const idOf = (pdf: Buffer) =>
      /\/ID \[<([0-9a-f]{32})> <\1>\]\n\/Prev \d+>>\nstartxref\n\d+\n%%EOF\n$/.exec(pdf.toString('latin1'))?.[1];
    const ids = Array.from({ length: 200 }, () => idOf(archivePdf(original, meta, 'producer x', now)));
    expect(ids.every((id) => id !== undefined)).to.equal(true);
    expect(new Set(ids).size).to.equal(200);
  });

  it('refuses a PDF whose last cross-reference is a stream (no classic trailer)', function () {
    const streamed = qpdfMade(['--object-streams=generate']);
    expect(() => archivePdf(streamed, { title: 'x' }, 'p')).to.throw(PdfStructureError);
  });
});
