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
import { smallPdf } from '../../helpers/small-pdf';

/** A one-page PDF, rewritten by qpdf with `args` (classic trailer, or cross-reference streams). */
const qpdfMade = (args: string[]): Buffer => smallPdf({ qpdfArgs: args });

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
