// The second adversarial pass (issue 24), findings 1-4, 9, 11 and 12 (JSON depth), against the real service on a
// local port: each as it was reported, with the figure it showed then, and what it must show now. The other findings
// have their own files: logo-bombs (5, 12), renderer-liveness (6), account-sign-ups and sign-in timing (7, 8),
// retry-after (10).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { isPdf } from '../helpers/pdf';
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

/** The event loop's longest delay (ms) while `fn` runs. The service runs in this process, so this is its loop. */
async function loopDelayDuring<T>(fn: () => Promise<T>): Promise<{ result: T; maxMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // Its timer must have started before the request, or a block from the start is never sampled.
  await new Promise((resolve) => setTimeout(resolve, 40));
  h.reset();
  try {
    const result = await fn();
    return { result, maxMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

describe('the second adversarial pass (issue 24)', function () {
  this.timeout(120000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  describe('finding 1: a long list is refused before its entries are validated', function () {
    // Before: 50,000 entries took 28 s (6.9 s for 10,000 and 29 s for 20,000 on this machine under load), /healthz
    // waited as long; 30,000 form entries 63 s; 40,000 custom_fields 22 s.
    const cases: [string, string, string, string][] = [
      ['JSON items × 50,000', JSON.stringify({ from: 'A', to: 'B', items: Array(50000).fill('x') }), 'application/json', 'items'],
      [
        'JSON custom_fields × 40,000',
        JSON.stringify({ from: 'A', to: 'B', items: [{ name: 'x' }], custom_fields: Array(40000).fill({ name: 'n', value: 'v' }) }),
        'application/json',
        'custom_fields',
      ],
      [
        'JSON payment_methods × 40,000',
        JSON.stringify({ from: 'A', to: 'B', items: [{ name: 'x' }], payment_methods: Array(40000).fill('x') }),
        'application/json',
        'payment_methods',
      ],
      ['form items[]=x × 30,000', `from=A&to=B&${Array(30000).fill('items[]=x').join('&')}`, 'application/x-www-form-urlencoded', 'items'],
      [
        'form items[i][name] × 12,000',
        `from=A&to=B&${Array.from({ length: 12000 }, (_, i) => `items[${i}][name]=x`).join('&')}`,
        'application/x-www-form-urlencoded',
        'items',
      ],
    ];
    for (const [label, body, contentType, field] of cases) {
      it(`${label}: a 400 naming ${field} within 1 s, the event loop never held 100 ms, /healthz answering`, async function () {
        let health = 0;
        const { result, maxMs } = await loopDelayDuring(async () => {
          const started = performance.now();
          const [res] = await Promise.all([
            post(service, body, { headers: { 'content-type': contentType } }),
            (async () => {
              const t = performance.now();
              await fetch(`${service.url}/healthz`);
              health = performance.now() - t;
            })(),
          ]);
          return { res, ms: performance.now() - started };
        });
        const json = (await result.res.json()) as { code: string; details: { field: string }[] };
        console.log(
          `      ${label}: ${result.res.status} in ${result.ms.toFixed(0)} ms, loop max ${maxMs.toFixed(0)} ms, /healthz ${health.toFixed(0)} ms`,
        );
        expect(result.res.status).to.equal(400);
        expect(json.code).to.equal('validation_failed');
        expect(json.details.map((d) => d.field)).to.include(field);
        expect(result.ms).to.be.lessThan(1000);
        expect(maxMs).to.be.lessThan(100);
        expect(health).to.be.lessThan(500);
      });
    }

    it('1,000 bad line items (within the bound) are described in at most 100 details, in a few ms', async function () {
      const items = Array(1000).fill({ name: {}, quantity: 'x', unit_cost: [], tax: 'y', tax_category: 'ZZ' });
      const { result, maxMs } = await loopDelayDuring(() => post(service, { from: 'A', to: 'B', items }));
      const json = (await result.json()) as { details: unknown[] };
      expect(result.status).to.equal(400);
      expect(json.details).to.have.length(100);
      expect(maxMs).to.be.lessThan(100);
    });
  });

  describe('finding 2: amounts with more decimals than the currency are rounded by money/ for every syntax', function () {
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

  describe('finding 3: text that looks like an entity is text', function () {
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

  describe('finding 4: blank values are absent, never a 500', function () {
    // Before: 500 for number " " (or a line break, or a no-break space) on the three e-invoice routes, and for
    // purchase_order " " and e_invoice.seller.name " " on /ubl.
    for (const number of [' ', '\n', '\u00a0', ' \t\u2028 ']) {
      it(`number ${JSON.stringify(number)}: a PDF without a number; a 400 naming number on each e-invoice route (BT-1)`, async function () {
        const pdf = await post(service, invoice({ number }));
        expect(pdf.status).to.equal(200);
        for (const route of ['/ubl', '/cii', '/factur-x']) {
          const res = await post(service, invoice({ number }), { path: route });
          const json = (await res.json()) as { details: { field: string; message: string }[] };
          expect(res.status, route).to.equal(400);
          expect(json.details.map((d) => d.field)).to.deep.equal(['number']);
          expect(json.details[0]!.message).to.contain('required for an e-invoice');
        }
      });
    }
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

  it('finding 9: the time of a date is checked (2015-02-09T25:61:00Z is a 400 naming date on /ubl)', async function () {
    // Before: 200.
    const res = await post(service, invoice({ date: '2015-02-09T25:61:00Z' }), { path: '/ubl' });
    const json = (await res.json()) as { details?: { field: string }[] };
    expect(res.status).to.equal(400);
    expect(json.details?.map((d) => d.field)).to.include('date');
    expect((await post(service, invoice({ date: '2015-02-09T23:59:00Z' }), { path: '/ubl' })).status).to.equal(200);
  });

  it('finding 11: what a client sent stays out of the log, even when it looks like an entity', async function () {
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

  it('finding 12: JSON may nest 64 levels as docs/api.md says (the 65th is a 400)', async function () {
    const nest = (levels: number) => '['.repeat(levels - 1) + '{}' + ']'.repeat(levels - 1);
    const ok = await post(service, `{"from":"A","to":"B","items":[{"name":"x"}],"junk":${nest(63)}}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).to.equal(200);
    expect(isPdf(new Uint8Array(await ok.arrayBuffer()))).to.equal(true);
    const deep = await post(service, `{"from":"A","to":"B","items":[{"name":"x"}],"junk":${nest(64)}}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.status).to.equal(400);
    expect(((await deep.json()) as { code: string }).code).to.equal('malformed_json');
  });
});
