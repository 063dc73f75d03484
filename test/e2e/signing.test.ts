// PAdES signatures of every PDF, with keys made by openssl and a local RFC 3161 authority (`openssl ts -reply`):
// poppler's pdfsig finds one valid ETSI.CAdES.detached signature by the configured signer covering the whole file;
// the signed file still passes every PDF/A-3 and PDF/UA-1 check and looks the same; Factur-X keeps its attachment;
// level B-T carries a token that `openssl ts -verify` accepts for the signature; a key that cannot be used stops
// start-up with a clear message, and a certificate near its end is logged and shown on /readyz.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as asn1js from 'asn1js';
import { expect } from 'chai';
import * as pkijs from 'pkijs';
import { projectRoot } from '../../server/config';
import { E_INVOICE } from '../helpers/e-invoice-request';
import { archiveCheck } from '../helpers/pdf-archive-check';
import { makeExpiredP12, makeP12, pdfsig, startTsa, type Tsa } from '../helpers/signing';
import { post, postOk, startTestService, tempDir, type TestService } from '../helpers/service';

const example = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(projectRoot(), 'examples', name), 'utf8')) as Record<string, unknown>;

const pdfOf = (service: TestService, body: unknown, route = '/') => postOk(service, body, { path: route });

/** The CMS in the last signature's /Contents (hex, zero-padded), as DER. */
function cmsOf(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const at = text.lastIndexOf('/Contents <');
  const hex = text.slice(at + '/Contents <'.length, text.indexOf('>', at));
  const der = Buffer.from(hex, 'hex');
  // The DER length of the outer SEQUENCE says where the padding starts.
  const parsed = asn1js.fromBER(der);
  return der.subarray(0, parsed.offset);
}

/** Page images (pdftoppm, 40 dpi) of a PDF. */
function pageImages(pdf: Buffer): Buffer[] {
  const dir = tempDir('sig-img');
  fs.writeFileSync(path.join(dir, 'doc.pdf'), pdf);
  execFileSync('pdftoppm', ['-r', '40', '-png', path.join(dir, 'doc.pdf'), path.join(dir, 'p')]);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.png'))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f)));
}

describe('PAdES signatures (pdfsig, openssl)', function () {
  this.timeout(180000);
  let tsa: Tsa;
  let signed: TestService;
  let stamped: TestService;
  let plain: TestService;
  before(async function () {
    tsa = await startTsa();
    const p12 = makeP12({ cn: 'Northwind Billing Signer' });
    [signed, stamped, plain] = await Promise.all([
      startTestService({ PDF_SIGNING_P12: p12, PDF_SIGNING_PASSWORD: 'secret' }),
      startTestService({
        PDF_SIGNING_P12: makeP12({ cn: 'Stamped Signer', ec: true }),
        PDF_SIGNING_PASSWORD: 'secret',
        PDF_TIMESTAMP_URL: tsa.url,
      }),
      startTestService(),
    ]);
  });
  after(async function () {
    await Promise.all([signed?.close(), stamped?.close(), plain?.close()]);
    await tsa?.close();
  });

  it('signs an invoice: one valid ETSI.CAdES.detached signature by the configured signer over the whole file', async function () {
    const pdf = await pdfOf(signed, example('invoice.json'));
    const { count, signatures, raw } = pdfsig(pdf);
    expect(count, raw).to.equal(1);
    expect(signatures[0]).to.include({
      'Signer Certificate Common Name': 'Northwind Billing Signer',
      'Signature Type': 'ETSI.CAdES.detached',
      'Signing Hash Algorithm': 'SHA-256',
      'Signature Validation': 'Signature is Valid.',
    });
    expect(signatures[0]).to.have.property('Total document signed');
    // PAdES B-B: the ESS signing-certificate-v2 attribute is signed, signing-time is not (the time is /M).
    const cms = execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER'], { input: cmsOf(pdf) }).toString();
    expect(cms).to.match(/id-smime-aa-signingCertificateV2/);
    expect(cms).to.not.match(/signingTime/);
    expect(pdf.toString('latin1')).to.match(/\/M \(D:\d{14}Z\)/);
    // PDF/A, PDF/UA and the signature are one incremental update after Chromium's bytes: two revisions in all.
    expect(pdf.toString('latin1').match(/%%EOF/g)).to.have.length(2);
    // The same check on a copy changed by one byte inside the signed range (the title's first letter): not valid.
    const tampered = Buffer.from(pdf);
    const at = tampered.indexOf('/Title (');
    tampered[at + 8] = tampered[at + 8]! ^ 0x20;
    expect(pdfsig(tampered).signatures[0]!['Signature Validation']).to.not.equal('Signature is Valid.');
  });

  it('keeps PDF/A-3 and PDF/UA-1 (the field tagged as a Form) and the look of every page', async function () {
    const body = {
      ...example('statement.json'),
      items: Array.from({ length: 60 }, (_, i) => ({ name: `Line ${i + 1}`, quantity: 1, unit_cost: 10 })),
    };
    const [withSignature, without] = await Promise.all([pdfOf(signed, body), pdfOf(plain, body)]);
    const check = await archiveCheck(withSignature);
    expect(check.problems).to.deep.equal([]);
    expect(check.elems.filter((e) => e.s === 'Form')).to.have.length(1);
    const [a, b] = [pageImages(withSignature), pageImages(without)];
    expect(a.length).to.be.greaterThan(1);
    expect(a.map((p) => p.equals(b[a.indexOf(p)]!))).to.deep.equal(a.map(() => true));
  });

  it('signs a Factur-X after its PDF/A-3 packaging, the attachment kept', async function () {
    const pdf = await pdfOf(signed, { ...example('invoice.json'), currency: 'EUR', e_invoice: E_INVOICE }, '/factur-x');
    const { count, signatures, raw } = pdfsig(pdf);
    expect(count, raw).to.equal(1);
    expect(signatures[0]).to.include({ 'Signature Type': 'ETSI.CAdES.detached', 'Signature Validation': 'Signature is Valid.' });
    expect(signatures[0]).to.have.property('Total document signed');
    const file = path.join(tempDir('sig-fx'), 'fx.pdf');
    fs.writeFileSync(file, pdf);
    expect(execFileSync('pdfdetach', ['-list', file]).toString()).to.match(/factur-x\.xml/);
    expect((await archiveCheck(pdf)).problems).to.deep.equal([]);
    if (process.env.PDFSIG_OUT) fs.writeFileSync(process.env.PDFSIG_OUT, raw);
  });

  it('the merged PDF of /batch is signed once, whole, and keeps PDF/A-3, PDF/UA-1 and the structure of each document', async function () {
    const statement = {
      ...example('statement.json'),
      items: Array.from({ length: 60 }, (_, i) => ({ name: `Line ${i + 1}`, quantity: 1, unit_cost: 10 })),
    };
    const documents = [example('invoice.json'), statement, example('credit_note.json')];
    const pdf = await postOk(signed, { documents }, { path: '/batch', headers: { accept: 'application/pdf' } });
    const { count, signatures, raw } = pdfsig(pdf);
    expect(count, raw).to.equal(1);
    expect(signatures[0]).to.include({ 'Signature Type': 'ETSI.CAdES.detached', 'Signature Validation': 'Signature is Valid.' });
    expect(signatures[0]).to.have.property('Total document signed');
    const check = await archiveCheck(pdf);
    expect(check.problems).to.deep.equal([]);
    expect(check.summary.xmp.title).to.equal('Batch of 3 documents');
    expect(check.summary.repeatedHeaderArtifacts).to.be.greaterThan(0);
    // Each document's "Page k of n" is an artifact on its own pages.
    expect(check.summary.pageNumbersAsArtifacts).to.equal(`${check.summary.pages} of ${check.summary.pages} pages`);
    // One Part a document, titled as its own PDF is, each opening with its H1; the signature field is the one Form.
    const parts = check.elems.filter((e) => e.s === 'Part');
    expect(parts.map((p) => p.title)).to.deep.equal(['Invoice INV-2026-0042', 'Statement ST-11', 'Credit Note CN-17']);
    expect(check.elems.filter((e) => e.s === 'Form')).to.have.length(1);
    // The outline lists the documents, each at its first page.
    const file = path.join(tempDir('sig-batch'), 'batch.pdf');
    fs.writeFileSync(file, pdf);
    const outline = (
      JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', file]).toString()) as {
        outlines: { title: string; destpageposfrom1: number }[];
      }
    ).outlines;
    expect(outline.map((o) => o.title)).to.deep.equal(parts.map((p) => p.title));
    const [first, second, third] = outline.map((o) => o.destpageposfrom1);
    expect([first, second]).to.deep.equal([1, 2]);
    expect(third).to.be.within(4, check.summary.pages); // the 60-line statement takes pages 2 to at least 3
  });

  it('the PDF inside a UBL invoice is signed too', async function () {
    const res = await post(signed, { ...example('invoice.json'), currency: 'EUR', e_invoice: E_INVOICE }, { path: '/ubl' });
    expect(res.status).to.equal(200);
    const base64 = /<cbc:EmbeddedDocumentBinaryObject[^>]*>([^<]+)</.exec(await res.text())![1]!;
    expect(pdfsig(Buffer.from(base64, 'base64')).signatures[0]).to.include({ 'Signature Validation': 'Signature is Valid.' });
  });

  it('B-T: an RFC 3161 token over the signature value that openssl ts -verify accepts', async function () {
    const before = tsa.requests;
    const pdf = await pdfOf(stamped, example('receipt.json'));
    expect(tsa.requests).to.equal(before + 1);
    expect(pdfsig(pdf).signatures[0]).to.include({
      'Signer Certificate Common Name': 'Stamped Signer',
      'Signature Validation': 'Signature is Valid.',
    });
    const info = pkijs.ContentInfo.fromBER(new Uint8Array(cmsOf(pdf)));
    const signer = new pkijs.SignedData({ schema: info.content }).signerInfos[0]!;
    const tokenAttr = signer.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14');
    expect(tokenAttr, 'the signature-time-stamp attribute').to.not.equal(undefined);
    const dir = tempDir('sig-ts');
    fs.writeFileSync(path.join(dir, 'token.der'), Buffer.from(tokenAttr!.values[0].toBER(false)));
    fs.writeFileSync(path.join(dir, 'signature.bin'), Buffer.from(signer.signature.valueBlock.valueHexView));
    const verified = execFileSync(
      'openssl',
      ['ts', '-verify', '-in', 'token.der', '-token_in', '-data', 'signature.bin', '-CAfile', tsa.certFile, '-untrusted', tsa.certFile],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    ).toString();
    expect(verified).to.match(/Verification: OK/);
  });

  it('an authority that is down: 503 timestamp_unavailable with Retry-After, never an unstamped PDF', async function () {
    tsa.fail = true;
    try {
      const res = await post(stamped, example('invoice.json'));
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('5');
      expect(((await res.json()) as { code: string }).code).to.equal('timestamp_unavailable');
    } finally {
      tsa.fail = false;
    }
  });

  it('/readyz shows the level, the signer and the end of the certificate', async function () {
    const ready = (await (await fetch(`${stamped.url}/readyz`)).json()) as { signing: Record<string, string> };
    expect(ready.signing).to.include({ level: 'B-T', signer: 'Stamped Signer' });
    expect(ready.signing.warning).to.equal(undefined);
    const off = (await (await fetch(`${plain.url}/readyz`)).json()) as { signing: string };
    expect(off.signing).to.equal('off');
  });

  it('start-up stops on a wrong password, an unreadable file or a file without a key, saying which', async function () {
    const p12 = makeP12({ cn: 'x' });
    const attempts: [Record<string, string>, RegExp][] = [
      [
        { PDF_SIGNING_P12: p12, PDF_SIGNING_PASSWORD: 'wrong' },
        /PDF signing cannot start: PDF_SIGNING_PASSWORD does not open PDF_SIGNING_P12 \(wrong password\)/,
      ],
      [
        { PDF_SIGNING_P12: '/nonexistent/signer.p12', PDF_SIGNING_PASSWORD: 'x' },
        /PDF signing cannot start: PDF_SIGNING_P12 cannot be read/,
      ],
      [{ PDF_SIGNING_P12: path.join(projectRoot(), 'package.json'), PDF_SIGNING_PASSWORD: 'x' }, /PDF_SIGNING_P12 is not a PKCS#12 file/],
    ];
    for (const [env, message] of attempts) {
      let error: Error | undefined;
      await startTestService(env).then(
        (s) => s.close(),
        (err: Error) => (error = err),
      );
      expect(error?.message, JSON.stringify(env)).to.match(message);
    }
  });

  it('a certificate that expires within 30 days, or has expired, is shown on /readyz (and logged at start-up)', async function () {
    for (const [p12, warning] of [
      [makeP12({ cn: 'Soon', days: 10 }), /expires on .* in 9 days/],
      [makeExpiredP12('Old'), /expired on/],
    ] as const) {
      const service = await startTestService({ PDF_SIGNING_P12: p12, PDF_SIGNING_PASSWORD: 'secret' });
      try {
        const ready = (await (await fetch(`${service.url}/readyz`)).json()) as { signing: { warning?: string } };
        expect(ready.signing.warning).to.match(warning);
      } finally {
        await service.close();
      }
    }
  });

  it('reads a legacy PKCS#12 (3DES, RC2) as well', async function () {
    const service = await startTestService({ PDF_SIGNING_P12: makeP12({ cn: 'Legacy', legacy: true }), PDF_SIGNING_PASSWORD: 'secret' });
    try {
      expect(pdfsig(await pdfOf(service, example('quote.json'))).signatures[0]).to.include({
        'Signature Validation': 'Signature is Valid.',
      });
    } finally {
      await service.close();
    }
  });
});
