// The service's own XSD validator (server/einvoice/xsd-validator.ts): it agrees with xmllint on what we generate and on broken variants of
// it, it runs many validations at once, a document it rejects is a 500 with the errors in the log, and a broken
// schema folder stops start-up.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { projectRoot } from '../../server/config';
import { acquireXsdValidator, XsdLoadError, type XsdValidatorRef } from '../../server/einvoice/xsd-validator';
import { fakeRenderer, post, sharedService, startTestService, tempDir, type TestService } from '../helpers/service';
import { XSD_DIR, xsdErrors } from '../helpers/ubl';

const example = (type: string) =>
  JSON.parse(fs.readFileSync(path.join(projectRoot(), 'examples', `${type}.json`), 'utf8')) as Record<string, unknown>;

/** Broken variants of a valid invoice, each a real XSD error (xmllint must agree). */
const DEFECTS: [string, (xml: string) => string, RegExp][] = [
  ['an unknown element', (x) => x.replace('<cbc:IssueDate>', '<cbc:Colour>red</cbc:Colour><cbc:IssueDate>'), /Colour/],
  ['elements out of order', (x) => x.replace(/(<cbc:ID>[^<]*<\/cbc:ID>)(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)/, '$2$1'), /IssueDate|ID/],
  ['a required element missing (ID)', (x) => x.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, ''), /ID/],
  ['an impossible date', (x) => x.replace(/<cbc:IssueDate>[^<]*</, '<cbc:IssueDate>2026-13-45<'), /IssueDate|date/],
  ['an amount without currencyID', (x) => x.replace(/<cbc:PayableAmount currencyID="[A-Z]+">/, '<cbc:PayableAmount>'), /currencyID/],
  ['an amount that is not a number', (x) => x.replace(/(<cbc:PayableAmount [^>]*>)[^<]*</, '$1twelve<'), /PayableAmount|decimal/],
  [
    'an attachment that is not base64',
    (x) => x.replace(/(<cbc:EmbeddedDocumentBinaryObject [^>]*>)[^<]*</, '$1not base64 at all!<'),
    /EmbeddedDocumentBinaryObject|base64/,
  ],
];

describe('the XSD validator: compiled once, run in a worker', function () {
  let service: TestService;
  let ref: XsdValidatorRef;
  let invoice: string;
  let creditNote: string;

  before(async function () {
    service = await sharedService();
    ref = acquireXsdValidator(service.config.ublXsdDir);
    await ref.validator.ready();
    invoice = await (await post(service, example('invoice'), { path: '/ubl' })).text();
    creditNote = await (await post(service, example('credit_note'), { path: '/ubl' })).text();
  });
  after(async function () {
    await ref?.release();
  });

  it('accepts the invoice and credit note the service generates, as xmllint does', async function () {
    expect(invoice).to.match(/^<\?xml[^>]*>\s*<Invoice /);
    expect(creditNote).to.match(/<CreditNote /);
    expect(await ref.validator.validate(invoice, 'Invoice')).to.deep.equal([]);
    expect(await ref.validator.validate(creditNote, 'CreditNote')).to.deep.equal([]);
    expect(xsdErrors(invoice, 'Invoice')).to.deep.equal([]);
    expect(xsdErrors(creditNote, 'CreditNote')).to.deep.equal([]);
  });

  for (const [name, mutate, mentions] of DEFECTS) {
    it(`rejects ${name}, with the line, as xmllint does`, async function () {
      const broken = mutate(invoice);
      expect(broken, 'the mutation applies').not.to.equal(invoice);
      const ours = await ref.validator.validate(broken, 'Invoice');
      expect(ours, 'our validator').to.have.length.greaterThan(0);
      expect(ours[0])
        .to.match(/^line \d+: /)
        .and.to.match(mentions);
      expect(xsdErrors(broken, 'Invoice'), 'xmllint').to.have.length.greaterThan(0);
    });
  }

  it('rejects an invoice checked as a credit note, and text that is not XML', async function () {
    const wrongRoot = await ref.validator.validate(invoice, 'CreditNote');
    expect(wrongRoot.join('\n')).to.match(/Invoice/);
    const malformed = await ref.validator.validate(invoice.slice(0, invoice.length / 2), 'Invoice');
    expect(malformed[0]).to.match(/^not well-formed: /);
  });

  it('never loads anything a document points to (no external entities, no network)', async function () {
    const secret = path.join(tempDir('xxe'), 'secret.txt');
    fs.writeFileSync(secret, 'TOP-SECRET-VALUE');
    const xxe = invoice
      .replace(/^<\?xml[^>]*>/, `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file://${secret}">]>`)
      .replace(/(<cbc:IssueDate>)[^<]*/, '$1&x;');
    // Were the entity read, the date error would quote the file ("'TOP-SECRET-VALUE' is not a valid value of … xs:date").
    const errors = await ref.validator.validate(xxe, 'Invoice');
    expect(errors, 'refused').to.have.length.greaterThan(0);
    expect(errors.join('\n')).not.to.contain('TOP-SECRET-VALUE');
  });

  it('serves 300 validations at once, each with its own answer', async function () {
    const broken = DEFECTS[0]![1](invoice);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => ref.validator.validate(i % 3 === 0 ? broken : invoice, 'Invoice')),
    );
    const perDocument = (performance.now() - started) / results.length;
    results.forEach((errors, i) => expect(errors.length > 0, `validation ${i}`).to.equal(i % 3 === 0));
    console.log(
      `      xsd: 300 validations of a ${(invoice.length / 1024).toFixed(0)} KiB invoice in ${(perDocument * 300).toFixed(0)} ms, ${perDocument.toFixed(2)} ms each`,
    );
    // How long each takes is printed only (libxmljs2, which compiled the schema on every call, took about 40 ms each
    // here; this validator compiles the schemas once, at start-up): speed belongs in npm run bench.
  });
});

describe('a generated document that fails the XSD', function () {
  it('is a 500 with the request id, and the log gets the XSD errors without the text sent; PDFs are unaffected', async function () {
    // A copy of the UBL schemas in which an invoice may not carry a note: the service's invoice with notes is then
    // "invalid", as our own defect would be.
    const dir = tempDir('xsd');
    fs.cpSync(XSD_DIR, dir, { recursive: true });
    const main = path.join(dir, 'maindoc', 'UBL-Invoice-2.1.xsd');
    fs.chmodSync(main, 0o644);
    const schema = fs.readFileSync(main, 'utf8');
    fs.writeFileSync(main, schema.replace('<xsd:element ref="cbc:Note" minOccurs="0" maxOccurs="unbounded"/>', ''));
    expect(fs.readFileSync(main, 'utf8')).not.to.equal(schema);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    const service = await startTestService({ UBL_XSD_DIR: dir }, { pdf: fakeRenderer(), logger: pino({ level: 'info' }, sink) });
    try {
      const res = await post(
        service,
        { ...example('invoice'), notes: 'A note the changed schema forbids' },
        { path: '/ubl', headers: { 'x-request-id': 'xsd-defect-1' } },
      );
      expect(res.status).to.equal(500);
      const body = (await res.json()) as { error: string };
      expect(body.error).to.contain('xsd-defect-1');
      // What the client sent is not in the log, though the XSD's messages quote it.
      expect(lines.join('\n')).not.to.contain('the changed schema forbids');
      const logged = lines
        .map((l) => JSON.parse(l) as { requestId?: string; error?: { xsdErrors?: string[]; xsdErrorCount?: number } })
        .find((e) => e.requestId === 'xsd-defect-1' && e.error?.xsdErrors);
      expect(logged?.error?.xsdErrors?.join('\n')).to.match(/Note/);
      expect(logged?.error?.xsdErrorCount).to.be.greaterThan(0);
      expect((await post(service, example('invoice'))).status).to.equal(200);
    } finally {
      await service.close();
    }
  });

  it('a broken schema file stops start-up, naming the problem', async function () {
    const dir = tempDir('xsd-broken');
    fs.cpSync(XSD_DIR, dir, { recursive: true });
    const main = path.join(dir, 'maindoc', 'UBL-CreditNote-2.1.xsd');
    fs.chmodSync(main, 0o644);
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').slice(0, 2000));
    let failure: unknown;
    try {
      const service = await startTestService({ UBL_XSD_DIR: dir }, { pdf: fakeRenderer() });
      await service.close();
    } catch (err) {
      failure = err;
    }
    expect(failure).to.be.instanceOf(XsdLoadError);
    expect((failure as Error).message).to.match(/UBL XSDs could not be loaded/);
  });
});
