// The document information written as an incremental update after Chromium's output: a valid PDF whose Info
// dictionary qpdf and pdfinfo read, non-Latin text as UTF-16, the original bytes untouched; a PDF it cannot update
// (no classic trailer) is refused, not corrupted.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { PdfStructureError, withMetadata } from '../../../server/pdf/metadata';
import { pdfInfo } from '../../helpers/pdf';

/** A one-page PDF, written by hand and then rewritten by qpdf with `args` (classic trailer, or cross-reference streams). */
function qpdfMade(args: string[]): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-meta-'));
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((obj, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 4\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  fs.writeFileSync(path.join(dir, 'in.pdf'), body, 'latin1');
  execFileSync('qpdf', [...args, path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
  return fs.readFileSync(path.join(dir, 'out.pdf'));
}

describe('PDF metadata (incremental update)', function () {
  it('sets title, author, creator, producer and dates; qpdf finds no error; the original bytes stay as they were', function () {
    const original = qpdfMade(['--object-streams=disable']);
    const updated = Buffer.from(
      withMetadata(
        original,
        { title: 'Invoice 7', author: 'Müller & Söhne — 株式会社', creator: 'docgen' },
        'producer x',
        new Date('2026-11-02T10:00:00Z'),
      ),
    );
    expect(updated.subarray(0, original.length).equals(original)).to.equal(true);
    const info = pdfInfo(updated);
    expect(info.Title).to.equal('Invoice 7');
    expect(info.Author).to.equal('Müller & Söhne — 株式会社');
    expect(info.Creator).to.equal('docgen');
    expect(info.Producer).to.equal('producer x');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-meta-')), 'updated.pdf');
    fs.writeFileSync(file, updated);
    expect(execFileSync('qpdf', ['--check', file]).toString()).to.match(/No syntax or stream encoding errors found/);
  });

  it('refuses a PDF whose last cross-reference is a stream (no classic trailer)', function () {
    const streamed = qpdfMade(['--object-streams=generate']);
    expect(() => withMetadata(streamed, { title: 'x' }, 'p')).to.throw(PdfStructureError);
  });
});
