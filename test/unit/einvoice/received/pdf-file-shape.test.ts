// checkFileShape and countObjects: a received PDF judged from its bytes before any parse. Not a PDF (no %PDF- in the
// first 1024 bytes), cut short (no startxref … %%EOF in the last 1024) or declaring more objects than allowed is
// refused; PDFA3-FILE finds a header not at byte 0 or not 1.0–1.7, no binary comment after it, bytes after %%EOF.
import { expect } from 'chai';
import { checkFileShape, countObjects } from '../../../../server/einvoice/received/pdf-file-shape';

const BINARY = '%\xe2\xe3\xcf\xd3';
/** A file of the given parts, as latin1 bytes (the binary comment's bytes ≥ 128 kept as single bytes). */
const bytes = (...parts: string[]): Uint8Array => new Uint8Array(Buffer.from(parts.join(''), 'latin1'));
const body = '1 0 obj\n<< /Type /Catalog >>\nendobj\n2 0 obj\n<< >>\nendobj\n';
const tail = 'xref\n0 1\ntrailer\n<< >>\nstartxref\n9\n%%EOF';
const good = (header = '%PDF-1.7', end = '\n') => bytes(header, '\n', BINARY, '\n', body, tail, end);

describe('checkFileShape (received PDF bytes)', function () {
  it('finds nothing in a PDF/A-3 shaped file, with any one end-of-line after %%EOF', function () {
    for (const end of ['', '\n', '\r\n', '\r'])
      expect(checkFileShape(good('%PDF-1.7', end), 100), JSON.stringify(end)).to.deep.equal({ checks: [] });
    expect(checkFileShape(good('%PDF-1.0'), 100).checks).to.deep.equal([]);
  });

  it('refuses bytes without a %PDF- header in their first 1024 bytes', function () {
    expect(checkFileShape(bytes('<Invoice/>'), 100).refusal).to.match(/^not a PDF/);
    expect(checkFileShape(bytes(' '.repeat(1020), '%PDF-1.7\n', body, tail), 100).refusal).to.match(/^not a PDF/);
    expect(checkFileShape(new Uint8Array(0), 100).refusal).to.match(/^not a PDF/);
  });

  it('refuses a file cut short: no %%EOF, or no startxref before it, in the last 1024 bytes', function () {
    expect(checkFileShape(bytes('%PDF-1.7\n', body), 100).refusal).to.match(/^a truncated PDF/);
    expect(checkFileShape(bytes('%PDF-1.7\n', body, '%%EOF\n'), 100).refusal).to.match(/^a truncated PDF/);
    const far = bytes('%PDF-1.7\n', body, 'startxref\n9\n', ' '.repeat(2000), '%%EOF\n');
    expect(checkFileShape(far, 100).refusal, 'startxref outside the last 1024 bytes').to.match(/^a truncated PDF/);
  });

  it("refuses more objects than allowed, counting object headers and object streams' /N", function () {
    expect(checkFileShape(good(), 2).refusal).to.equal(undefined);
    expect(checkFileShape(good(), 1).refusal).to.equal('a PDF with more objects than the reader allows (more than 1)');
    const objStm = bytes(
      '%PDF-1.7\n',
      BINARY,
      '\n',
      '3 0 obj\n<< /Type /ObjStm /N 500 /First 10 /Length 5 >>\nstream\nxxxxx\nendstream\nendobj\n',
      tail,
    );
    expect(checkFileShape(objStm, 400).refusal).to.match(/more than 400/);
    expect(checkFileShape(objStm, 501).refusal).to.equal(undefined);
  });

  it('finds a header not at byte 0, a version outside 1.0–1.7 (shown printable) and no binary comment', function () {
    const late = checkFileShape(bytes('junk\n%PDF-1.7\n', BINARY, '\n', body, tail, '\n'), 100).checks;
    expect(late.map((c) => c.message)).to.deep.equal(['the %PDF- header is at byte 5, not at the start']);
    const v2 = checkFileShape(good('%PDF-2.0'), 100).checks;
    expect(v2).to.deep.equal([
      { rule: 'PDFA3-FILE', severity: 'fatal', message: 'the header %PDF-2.0 is not PDF 1.0 to 1.7', location: 'header' },
    ]);
    const odd = checkFileShape(good('%PDF-1.\x01'), 100).checks;
    expect(odd[0]!.message).to.equal('the header %PDF-1.? is not PDF 1.0 to 1.7');
    const plain = checkFileShape(bytes('%PDF-1.7\n%abcd\n', body, tail), 100).checks;
    expect(plain.map((c) => c.message)).to.deep.equal(['the header is not followed by a comment of four bytes of 128 or more']);
    const short = checkFileShape(bytes('%PDF-1.7\n%\xe2\xe3\xcf\n', body, tail), 100).checks;
    expect(short, 'three high bytes are not four').to.have.length(1);
  });

  it('finds bytes after the last %%EOF (more than one end-of-line)', function () {
    for (const end of ['\n\n', '\nxx', ' ', '\r\n\r\n']) {
      const checks = checkFileShape(good('%PDF-1.7', end), 100).checks;
      expect(checks, JSON.stringify(end)).to.deep.equal([
        { rule: 'PDFA3-FILE', severity: 'fatal', message: 'there are bytes after the last %%EOF', location: 'trailer' },
      ]);
    }
  });

  it('reads a view into a larger buffer as only its own bytes', function () {
    const file = good();
    const big = new Uint8Array(file.length + 20);
    big.set(Buffer.from('%PDF-9.9 junk junk'), 0);
    big.set(file, 20);
    expect(checkFileShape(big.subarray(20), 100)).to.deep.equal({ checks: [] });
  });
});

describe('countObjects', function () {
  it('counts "obj" only after whitespace (not endobj, not inside names), stopping past the limit', function () {
    expect(countObjects(Buffer.from(body), 100)).to.equal(2);
    expect(countObjects(Buffer.from('/Xobj /obj1 endobj'), 100)).to.equal(0);
    const many = Buffer.from(Array.from({ length: 1000 }, (_, i) => `${i} 0 obj\nendobj\n`).join(''));
    expect(countObjects(many, 10_000)).to.equal(1000);
    expect(countObjects(many, 10), 'stops at limit + 1').to.equal(11);
  });

  it("adds each object stream's /N, and ignores a /N that is no number", function () {
    const streams = Buffer.from(
      '1 0 obj << /Type /ObjStm /N 7 >> stream\nendstream endobj\n2 0 obj << /Type /ObjStm /N x >> stream\nendstream endobj\n',
    );
    expect(countObjects(streams, 100)).to.equal(2 + 7);
  });
});
