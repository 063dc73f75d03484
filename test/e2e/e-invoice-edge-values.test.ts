// Values that once broke the e-invoice routes, against the real service on a local port: amounts with more decimals
// than the currency, text that looks like an entity, blank values, a date whose time is not real, and client text that
// reached the log inside XSD errors. Each as a security review reported it, with what it did then (in a comment) and
// what it must do now. Long lists and deep JSON are in body-bounds.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { pdfText } from '../helpers/pdf';
import { post, sharedService, startTestService, tempDir, type TestService } from '../helpers/service';

const SELLER = { name: 'Seller GmbH', country: 'DE', vat_id: 'DE123456789', street: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115' };
const BUYER = { name: 'Buyer SARL', country: 'FR', street: '1 rue X', city: 'Paris', postal_code: '75001' };
/** An invoice every e-invoice route accepts. */
const invoice = (extra: Record<string, unknown> = {}) => ({
  from: 'Seller GmbH',
  to: 'Buyer SARL',
  number: 'INV-24',
  currency: 'EUR',
  date: '2026-11-25',
  items: [{ name: 'Widget', quantity: 2, unit_cost: 10.5 }],
  tax: 19,
  e_invoice: { seller: SELLER, buyer: BUYER, buyer_reference: 'BR-1' },
  ...extra,
});

/** The text of every element with this local name, read by xmllint (an XML parser that is not ours). */
function xmlTexts(xml: string, localName: string): string[] {
  const out = execFileSync('xmllint', ['--xpath', `//*[local-name()="${localName}"]/text()`, '-'], { input: xml }).toString();
  // xmllint prints each text node escaped as XML; read the escapes back.
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) =>
      l
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    );
}

/** The CII a Factur-X PDF carries, read with pdfdetach. */
function facturXml(pdf: Uint8Array): string {
  const dir = tempDir('fx');
  const file = path.join(dir, 'fx.pdf');
  fs.writeFileSync(file, pdf);
  execFileSync('pdfdetach', ['-saveall', '-o', dir, file]);
  const name = fs.readdirSync(dir).find((f) => f.endsWith('.xml'))!;
  return fs.readFileSync(path.join(dir, name), 'utf8');
}

/** The XML a route answered (Factur-X: the CII inside the PDF). */
async function xmlOf(route: string, res: Response): Promise<string> {
  if (route === '/factur-x') return facturXml(new Uint8Array(await res.arrayBuffer()));
  return res.text();
}

describe('e-invoice routes on edge values: unrounded amounts, entity-like text, blank values, unreal times', function () {
  this.timeout(120000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  describe('amounts with more decimals than the currency are rounded by money/ for every syntax', function () {
    // Before: /cii and /factur-x answered 500; /batch with format cii dropped the connection after charging.
    const cases: [string, Record<string, unknown>, string][] = [
      ['EUR amount_paid 10.005', { amount_paid: '10.005' }, '10.01'],
      ['JPY amount_paid 0.5', { currency: 'JPY', items: [{ name: 'W', quantity: 1, unit_cost: 1000 }], amount_paid: 0.5 }, '1'],
      ['credit note amount_refunded 1.115', { type: 'credit_note', amount_refunded: '1.115' }, '1.12'],
    ];
    for (const [label, extra, prepaid] of cases) {
      for (const route of ['/ubl', '/cii', '/factur-x']) {
        it(`${label} on ${route}: 200, prepaid ${prepaid}`, async function () {
          const res = await post(service, invoice(extra), { path: route });
          expect(res.status, await res.clone().text()).to.equal(200);
          const xml = await xmlOf(route, res);
          expect(xmlTexts(xml, route === '/ubl' ? 'PrepaidAmount' : 'TotalPrepaidAmount')).to.deep.equal([prepaid]);
        });
      }
    }

    it('/batch with format cii: a ZIP, not a dropped connection', async function () {
      const res = await post(service, { format: 'cii', documents: [invoice({ amount_paid: '10.005' }), invoice()] }, { path: '/batch' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain('zip');
      expect((await res.arrayBuffer()).byteLength).to.be.greaterThan(1000);
    });
  });

  describe('text that looks like an entity is text', function () {
    // Before: 500 for &euro; &nbsp; AT&T; &#0; and "R&amp;D" reached the receiver as "R&D".
    const notes = ['Price in &euro;', 'a&nbsp;b', 'AT&T;', '&#0;', 'R&amp;D', '<b>&lt;</b> "q" \'a\' ]]> &#x41;'];
    for (const route of ['/ubl', '/cii', '/factur-x']) {
      it(`${route}: every note reads back exactly as sent`, async function () {
        for (const note of notes) {
          const res = await post(service, invoice({ notes: note, purchase_order: note }), { path: route });
          expect(res.status, `${note}: ${await res.clone().text()}`).to.equal(200);
          const xml = await xmlOf(route, res);
          expect(xmlTexts(xml, route === '/ubl' ? 'Note' : 'Content'), note).to.include(note);
        }
      });
    }
  });

  describe('blank values are absent, never a 500', function () {
    // Before: 500 for number " " (or a line break, or a no-break space) on the three e-invoice routes, and for
    // purchase_order " " and e_invoice.seller.name " " on /ubl.
    // Zero is absent too: a null or zero value prints no line (before: 0 printed "#0" and made an e-invoice numbered 0).
    for (const number of [' ', '\n', '\u00a0', ' \t\u2028 ', 0, '0']) {
      it(`number ${JSON.stringify(number)}: a PDF without a number; a 400 naming number on each e-invoice route (BT-1)`, async function () {
        const pdf = await post(service, invoice({ number }));
        expect(pdf.status).to.equal(200);
        expect(pdfText(new Uint8Array(await pdf.arrayBuffer()))).to.not.match(/#\s*0\b/);
        for (const route of ['/ubl', '/cii', '/factur-x']) {
          const res = await post(service, invoice({ number }), { path: route });
          const json = (await res.json()) as { details: { field: string; message: string }[] };
          expect(res.status, route).to.equal(400);
          expect(json.details.map((d) => d.field)).to.deep.equal(['number']);
          expect(json.details[0]!.message).to.contain('required for an e-invoice');
        }
      });
    }
    it('a numeric field of white space only is absent, sent as JSON or as a form (before: "tax must be a number")', async function () {
      const json = await post(service, {
        from: 'A Ltd',
        to: 'B Corp',
        items: [{ name: 'Widget', unit_cost: 10, quantity: ' ' }],
        tax: '  ',
        shipping: '\u00a0',
      });
      expect(json.status, await json.clone().text()).to.equal(200);
      const text = pdfText(new Uint8Array(await json.arrayBuffer()));
      expect(text).to.match(/Total\s+\$10\.00/);
      expect(text).to.not.match(/Tax|Shipping/);
      const form = await post(service, 'from=A&to=B&tax=%20%20&items[0][name]=x&items[0][unit_cost]=%20&items[0][quantity]=2');
      expect(form.status, await form.clone().text()).to.equal(200);
      expect(pdfText(new Uint8Array(await form.arrayBuffer()))).to.match(/Total\s+\$0\.00/);
    });
    it('/ubl purchase_order " " and e_invoice.seller.name " ": 200, the seller named by from', async function () {
      const res = await post(service, invoice({ purchase_order: ' ', e_invoice: { seller: { ...SELLER, name: ' ' }, buyer: BUYER } }), {
        path: '/ubl',
      });
      expect(res.status, await res.clone().text()).to.equal(200);
      const xml = await res.text();
      expect(xmlTexts(xml, 'RegistrationName')).to.include('Seller GmbH');
      expect(xml).not.to.contain('OrderReference');
    });
    it('a blank required field is still named: from " " is a 400 "from must not be empty"', async function () {
      const res = await post(service, invoice({ from: ' \u00a0' }));
      const json = (await res.json()) as { details: { field: string; message: string }[] };
      expect(res.status).to.equal(400);
      expect(json.details).to.deep.include({ field: 'from', message: 'from must not be empty' });
    });
  });

  it('the time of a date is checked (2015-02-09T25:61:00Z is a 400 naming date on /ubl)', async function () {
    // Before: 200.
    const res = await post(service, invoice({ date: '2015-02-09T25:61:00Z' }), { path: '/ubl' });
    const json = (await res.json()) as { details?: { field: string }[] };
    expect(res.status).to.equal(400);
    expect(json.details?.map((d) => d.field)).to.include('date');
    expect((await post(service, invoice({ date: '2015-02-09T23:59:00Z' }), { path: '/ubl' })).status).to.equal(200);
  });

  it('what a client sent stays out of the log, even when it looks like an entity', async function () {
    // Before: the note's entity name reached the log inside the XSD errors of a 500.
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const own = await startTestService({}, { logger: pino({ level: 'info' }, sink) });
    try {
      for (const route of ['/ubl', '/cii']) {
        const res = await post(own, invoice({ notes: 'Price in &zzsecretentity;', purchase_order: 'PO-zzsecret' }), { path: route });
        expect(res.status).to.equal(200);
      }
      const notFound = await post(own, {}, { path: '/zzsecret-path' });
      expect(notFound.status).to.equal(404);
      expect(lines.length).to.be.greaterThan(2);
      expect(lines.join('')).not.to.contain('zzsecret');
    } finally {
      await own.close();
    }
  });
});
