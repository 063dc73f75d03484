// Real rendering through HTTP and Chromium: labels, overrides, line breaks, escaping, logo, page size, pagination.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { wordBoxes } from '../helpers/pdf-layout';
import { isPdf, pdfFlatText, pdfImageCount, pdfInfo, pdfPageCount, pdfText } from '../helpers/pdf';
import { qpdfJson, str } from '../helpers/pdfa-reader';
import { solidPng } from '../helpers/png';
import { post, sharedService, tempDir, type TestService } from '../helpers/service';
import { THEMES } from '../helpers/themes';

const BASE = { from: 'Nikolaus Ltd', to: 'Acme, Corp.', items: [{ name: 'Starter plan', quantity: 1, unit_cost: 99 }] };

/** The alternate texts of the Figures in the PDF's structure tree (qpdf's JSON of every object). */
function figureAlts(pdf: Uint8Array): string[] {
  const file = path.join(tempDir('figures'), 'doc.pdf');
  fs.writeFileSync(file, pdf);
  const { objects } = qpdfJson(file);
  const alts: string[] = [];
  for (const o of objects.values()) {
    const d = o.value as Record<string, unknown> | null;
    if (d && typeof d === 'object' && d['/S'] === '/Figure') alts.push(str(d['/Alt'] as string));
  }
  return alts;
}

async function pdfOf(service: TestService, body: unknown, headers: Record<string, string> = {}): Promise<Uint8Array> {
  const res = await post(service, body, { headers });
  expect(res.status, res.status === 200 ? '' : await res.text()).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('application/pdf');
  const pdf = new Uint8Array(await res.arrayBuffer());
  expect(isPdf(pdf)).to.equal(true);
  return pdf;
}

describe('rendering (real Chromium)', function () {
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  it('every one of the 21 template parameters overrides its default', async function () {
    const titles = {
      header: 'TAX INVOICE X',
      to_title: 'Customer X',
      ship_to_title: 'Deliver To X',
      number_title: 'Ref X',
      date_title: 'Issued X',
      payment_terms_title: 'Settlement X',
      due_date_title: 'Pay By X',
      purchase_order_title: 'Your Order X',
      quantity_header: 'Qty X',
      item_header: 'Product X',
      unit_cost_header: 'Unit Price X',
      amount_header: 'Line Total X',
      subtotal_title: 'Net X',
      discounts_title: 'Rebate X',
      tax_title: 'GST X',
      shipping_title: 'Freight X',
      total_title: 'Gross X',
      amount_paid_title: 'Received X',
      balance_title: 'Outstanding X',
      terms_title: 'Conditions X',
      notes_title: 'Remarks X',
    };
    expect(Object.keys(titles)).to.have.length(21);
    const pdf = await pdfOf(service, {
      ...BASE,
      ...titles,
      number: 7,
      ship_to: 'Dock 4',
      payment_terms: 'NET 30',
      due_date: 'Mar 1, 2026',
      purchase_order: 'PO-9',
      fields: { discounts: true, shipping: true, tax: '%' },
      discounts: 9,
      shipping: 5,
      tax: 10,
      amount_paid: 10,
      notes: 'Some notes',
      terms: 'Some terms',
    });
    const text = pdfFlatText(pdf);
    for (const t of Object.values(titles)) expect(text, t).to.contain(t);
    for (const d of [
      'Bill To',
      'Ship To',
      'Payment Terms',
      'Due Date',
      'Purchase Order',
      'Subtotal',
      'Discounts',
      'Amount Paid',
      'Balance',
      'Notes',
      'Terms',
    ]) {
      expect(text, `default "${d}" should be replaced`).not.to.match(new RegExp(`(^|\\s)${d}(\\s|$)`));
    }
    expect(text).to.contain('GST X (10%)');
    expect(text).to.contain('Ref X 7');
  });

  it('long labels give way: values stay whole and on the page, nothing is shrunk, in both themes', async function () {
    // A label of 40 Qs once pushed the dates off the paper; 200 Ws made Chromium shrink the whole page to fit it.
    const doc = {
      ...BASE,
      items: [{ name: 'Widget', quantity: 2, unit_cost: 10 }],
      date: '2024-01-02',
      due_date: '2024-02-02',
      payment_terms: 'NET30',
      purchase_order: 'PO-4711',
    };
    const long = {
      date_title: 'Date of issue of this invoice document according to the contract',
      payment_terms_title: 'Q'.repeat(40),
      due_date_title: 'Q'.repeat(150),
      purchase_order_title: 'P'.repeat(60),
      balance_title: 'W'.repeat(200),
      quantity_header: 'Number of units delivered to the site',
      unit_cost_header: 'U'.repeat(40),
      amount_header: 'A'.repeat(60),
    };
    for (const theme of THEMES) {
      const plain = wordBoxes(await pdfOf(service, { ...doc, theme }))[0]!;
      const pages = wordBoxes(await pdfOf(service, { ...doc, ...long, theme }));
      const lines = execFileSync('pdftotext', ['-layout', '-', '-'], {
        input: await pdfOf(service, { ...doc, ...long, theme }),
      }).toString();
      for (const value of ['Jan 2, 2024', 'Feb 2, 2024', 'NET30', 'PO-4711', '$20.00'])
        expect(
          lines.split('\n').some((line) => line.includes(value)),
          `${theme}: ${value} whole on one line`,
        ).to.equal(true);
      for (const page of pages) {
        const outside = page.words.filter((w) => w.xMin < 41 || w.xMax > page.width - 41).map((w) => w.text);
        expect(outside, `${theme}: words past the side margins`).to.deep.equal([]);
      }
      // Not shrunk to fit: the item's name is as tall as without the long labels.
      const height = (page: { words: { text: string; yMin: number; yMax: number }[] }) => {
        const w = page.words.find((x) => x.text === 'Widget')!;
        return w.yMax - w.yMin;
      };
      expect(height(pages.find((p) => p.words.some((w) => w.text === 'Widget'))!), theme).to.be.closeTo(height(plain), 0.2);
    }
  });

  it('accepts the legacy invoice_number_title, and number_title wins over it', async function () {
    expect(pdfFlatText(await pdfOf(service, { ...BASE, number: 5, invoice_number_title: 'Legacy No.' }))).to.contain('Legacy No. 5');
    const both = pdfFlatText(await pdfOf(service, { ...BASE, number: 5, invoice_number_title: 'Legacy No.', number_title: 'New No.' }));
    expect(both).to.contain('New No. 5');
    expect(both).not.to.contain('Legacy No.');
  });

  it('keeps the line breaks of from, to and ship_to, and shows notes and terms', async function () {
    const pdf = await pdfOf(service, {
      ...BASE,
      from: 'Nikolaus Ltd\n12 High Street\nLondon',
      to: 'Acme, Corp.\n500 Main Ave\nSpringfield',
      ship_to: 'Warehouse 9\nDock Road\nPortsmouth',
      notes: 'First note line\nSecond note line',
      terms: 'Net 30 days',
    });
    const lines = pdfText(pdf)
      .split('\n')
      .map((l) => l.trim());
    const lineOf = (s: string) => lines.findIndex((l) => l.includes(s));
    for (const [a, b] of [
      ['12 High Street', 'London'],
      ['500 Main Ave', 'Springfield'],
      ['Dock Road', 'Portsmouth'],
      ['First note line', 'Second note line'],
    ]) {
      expect(lineOf(a!), a).to.be.greaterThan(-1);
      expect(lineOf(b!), `${b} on a line after ${a}`).to.be.greaterThan(lineOf(a!));
    }
    expect(lineOf('Nikolaus Ltd')).to.be.lessThan(lineOf('12 High Street'));
    const flat = pdfFlatText(pdf);
    expect(flat).to.contain('Notes First note line');
    expect(flat).to.contain('Terms Net 30 days');
  });

  it('long notes and terms start under the totals and run on to the next page, their heading never alone', async function () {
    const lines = (what: string, n: number) => Array.from({ length: n }, (_, i) => `${what} line ${i + 1} of ${n}.`).join('\n');
    const pdf = await pdfOf(service, { ...BASE, notes: lines('Note', 70), terms: lines('Term', 4) });
    // Kept whole, the notes left the first page two-thirds blank and still ran over a second and third.
    expect(pdfPageCount(pdf)).to.equal(2);
    const [first, second] = wordBoxes(pdf);
    const has = (page: typeof first, text: string) => page!.words.some((w) => w.text === text);
    expect(has(first, 'Notes'), 'the heading on the first page').to.equal(true);
    const firstLines = first!.words.filter((w) => w.text === 'Note').length;
    expect(firstLines, 'the first page holds lines of the notes').to.be.at.least(3);
    expect(second!.words.filter((w) => w.text === 'Note').length, 'and the second the rest').to.equal(70 - firstLines);
    // A short block (terms, 4 lines) is kept with its heading.
    const termsPage = has(first, 'Terms') ? first : second;
    expect(termsPage!.words.filter((w) => w.text === 'Term').length).to.equal(4);
  });

  it('a paragraph of notes of up to five lines is never split between pages, wherever the page ends', async function () {
    this.timeout(120000);
    // Each line sent is a paragraph: before, the notes were one block and a page could end inside any of them (a bank's
    // details cut between "IBAN DE89 3704 0044 0532 0130" and "00"; and Chromium's orphans and widows alone let a
    // four-line one split 3 + 1, so those of up to five lines are kept whole). Twelve paragraphs of two to five lines, moved
    // down the page a line at a time by the items above them.
    const filler = 'Please quote the document number with every payment; our bank details follow below this line';
    const notes = Array.from(
      { length: 12 },
      (_, i) => `Pa${i} ${`${filler} `.repeat(1 + (i % 4))}${filler.slice(0, 40 + i * 10)} Pz${i}`,
    ).join('\n');
    let split = 0;
    let broken = 0;
    for (let n = 8; n <= 26; n++) {
      const items = Array.from({ length: n }, (_, i) => ({ name: `Line ${i + 1}`, quantity: 1, unit_cost: 10 }));
      const pdf = await pdfOf(service, { ...BASE, items, notes });
      const pages = wordBoxes(pdf).map((page) => new Set(page.words.map((w) => w.text)));
      const pageOf = (word: string) => pages.findIndex((words) => words.has(word));
      for (let i = 0; i < 12; i++) {
        expect(pageOf(`Pa${i}`), `${n} lines: paragraph ${i} printed`).to.be.at.least(0);
        if (pageOf(`Pa${i}`) !== pageOf(`Pz${i}`)) split++;
      }
      if (pages.length > 1 && pageOf('Pa0') !== pageOf('Pz11')) broken++;
    }
    // The notes did run over a page break in the sweep, and never inside a paragraph.
    expect(broken, 'sweeps where the notes cross a page').to.be.at.least(5);
    expect(split, 'paragraphs split between pages').to.equal(0);
  });

  it('prints HTML in any field as text, runs no script, and no request leaves the page', async function () {
    const before = service.pdf.stats().blockedRequests;
    const pdf = await pdfOf(service, {
      ...BASE,
      from: '<b>Bold Ltd</b>',
      items: [
        { name: '<img src=x onerror=alert(1)>', description: '<iframe src="http://127.0.0.1:1/"></iframe>', quantity: 1, unit_cost: 1 },
      ],
      notes: '<script>alert(1)</script> and <img src=x onerror=alert(2)>',
      terms: '<link rel=stylesheet href="file:///etc/passwd"><style>body{display:none}</style>',
    });
    const text = pdfFlatText(pdf);
    expect(text).to.contain('<script>alert(1)</script>');
    expect(text).to.contain('<img src=x onerror=alert(2)>');
    expect(text).to.contain('<b>Bold Ltd</b>');
    expect(text).to.contain('<img src=x onerror=alert(1)>');
    expect(text).to.contain('<style>body{display:none}</style>');
    expect(service.pdf.stats().blockedRequests, 'no request was even attempted').to.equal(before);
  });

  describe('logo', function () {
    let logoServer: http.Server;
    let logoUrl: string;
    let hits = 0;
    /** Requests for /slow.png whose connection the fetcher closed before any answer. */
    let slowAbandoned = 0;
    before(async function () {
      const png = solidPng(40, 20);
      logoServer = http.createServer((req, res) => {
        hits++;
        if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
        else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>not an image</h1>');
        // A host that never answers: only the logo deadline ends the wait (the fetcher closes the connection).
        else if (req.url === '/slow.png')
          res.on('close', () => {
            if (!res.writableEnded) slowAbandoned++;
          });
        else res.writeHead(404).end();
      });
      await new Promise<void>((r) => logoServer.listen(0, '127.0.0.1', () => r()));
      logoUrl = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}`;
    });
    after(function () {
      logoServer.closeAllConnections();
      logoServer.close();
    });

    it('is fetched by the server and inlined into the PDF', async function () {
      hits = 0;
      const pdf = await pdfOf(service, { ...BASE, logo: `${logoUrl}/logo.png` });
      expect(hits).to.equal(1);
      expect(pdfImageCount(pdf)).to.equal(1);
    });

    it('a data: URI logo is inlined', async function () {
      const pdf = await pdfOf(service, { ...BASE, logo: `data:image/png;base64,${solidPng(10, 10).toString('base64')}` });
      expect(pdfImageCount(pdf)).to.equal(1);
    });

    it('is a Figure with its alternate text: "Logo of" and the first line of from in the document’s language, or logo_alt as sent', async function () {
      const logo = `data:image/png;base64,${solidPng(10, 10).toString('base64')}`;
      const from = 'Bäckerei Müller GmbH\nHauptstraße 1\n10115 Berlin';
      expect(figureAlts(await pdfOf(service, { ...BASE, from, logo }))).to.deep.equal(['Logo of Bäckerei Müller GmbH']);
      expect(figureAlts(await pdfOf(service, { ...BASE, from, logo }, { 'accept-language': 'de-DE' }))).to.deep.equal([
        'Logo von Bäckerei Müller GmbH',
      ]);
      const alt = 'Müller — Brot seit 1920 · مخبز';
      expect(figureAlts(await pdfOf(service, { ...BASE, from, logo, logo_alt: alt }))).to.deep.equal([alt]);
      expect(figureAlts(await pdfOf(service, { ...BASE, from }))).to.deep.equal([]);
      for (const logo_alt of ['x'.repeat(301), { text: 'a' }, ['a']]) {
        const res = await post(service, { ...BASE, logo, logo_alt });
        const body = (await res.json()) as { code: string; details: { field: string }[] };
        expect([res.status, body.code, body.details.map((d) => d.field)], JSON.stringify(logo_alt)).to.deep.equal([
          400,
          'validation_failed',
          ['logo_alt'],
        ]);
      }
    });

    it('an unresolvable host, a 404, a non-image or a slow host leaves the document without a logo', async function () {
      for (const logo of ['https://logo.invalid/img/logo.png', `${logoUrl}/missing.png`, `${logoUrl}/page.html`, `${logoUrl}/slow.png`]) {
        const pdf = await pdfOf(service, { ...BASE, logo });
        expect(pdfImageCount(pdf), logo).to.equal(0);
        expect(pdfFlatText(pdf)).to.contain('Starter plan');
      }
      // The host that never answers was left by the logo deadline (2 s in the tests): the fetcher closed its
      // connection, unanswered (seen here once the close reaches the host; mocha's timeout catches a wait without end).
      while (slowAbandoned === 0) await new Promise((r) => setTimeout(r, 20));
      expect(slowAbandoned).to.equal(1);
    });
  });

  it('is US Letter by default and A4 on request, named and titled after the document', async function () {
    const res = await post(service, { ...BASE, number: 'INV-7/A' });
    expect(res.headers.get('content-disposition')).to.equal('inline; filename="invoice-INV-7_A.pdf"');
    const letter = new Uint8Array(await res.arrayBuffer());
    const info = pdfInfo(letter);
    expect(info['Page size']).to.contain('612 x 792');
    expect(info.Title).to.equal('Invoice INV-7/A');
    const a4 = pdfInfo(await pdfOf(service, { ...BASE, page_size: 'a4' }));
    expect(a4['Page size']).to.match(/595(\.\d+)? x 841(\.\d+)?|595(\.\d+)? x 842/);
  });

  it('a 1,000-line invoice spans pages with "Page N of M" and the right total', async function () {
    this.timeout(60000);
    const items = Array.from({ length: 1000 }, (_, i) => ({ name: `Line ${i + 1}`, quantity: 1, unit_cost: 0.1 }));
    const pdf = await pdfOf(service, { ...BASE, items, tax: 10 });
    const pages = pdfPageCount(pdf);
    expect(pages).to.be.greaterThan(10);
    const text = pdfFlatText(pdf);
    expect(text).to.contain(`Page 1 of ${pages}`);
    expect(text).to.contain(`Page ${pages} of ${pages}`);
    expect(text).to.contain('Line 1000');
    expect(text).to.contain('$100.00'); // subtotal: 1,000 × 0.10, exact
    expect(text).to.contain('$110.00');
    // The table header repeats on every page.
    expect(text.match(/Item Quantity Rate Amount/g)?.length).to.equal(pages);
  });

  it("formats money with the currency's own decimals (JPY 0, KWD 3)", async function () {
    const jpy = pdfFlatText(
      await pdfOf(service, { ...BASE, currency: 'jpy', items: [{ name: 'A', quantity: 3, unit_cost: 333.5 }], tax: 8 }),
    );
    expect(jpy).to.contain('¥1,001');
    expect(jpy).to.contain('¥80');
    expect(jpy).to.contain('¥1,081');
    const kwd = pdfFlatText(await pdfOf(service, { ...BASE, currency: 'KWD', items: [{ name: 'A', quantity: 1, unit_cost: 1.2345 }] }));
    expect(kwd).to.match(/KWD\s?1\.235/);
  });

  it('an omitted date is today; an ISO date is formatted; other dates print as sent', async function () {
    // Today as it was before the request or after it: a request across midnight UTC prints either.
    const today = () => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date());
    const before = today();
    const printed = pdfFlatText(await pdfOf(service, BASE));
    expect(
      [before, today()].some((day) => printed.includes(day)),
      `${before} in ${printed.slice(0, 200)}`,
    ).to.equal(true);
    const text = pdfFlatText(await pdfOf(service, { ...BASE, date: '2015-02-09', due_date: '03/06/2024' }));
    expect(text).to.contain('Feb 9, 2015');
    expect(text).to.contain('03/06/2024');
  });

  it('a null, empty or zero value for a field the type does not accept is not an error', async function () {
    const text = pdfFlatText(
      await pdfOf(service, { ...BASE, type: 'credit_note', due_date: null, payment_terms: '', amount_paid: 0, payment_methods: [] }),
    );
    expect(text).to.contain('CREDIT NOTE');
  });

  it('tolerates what real clients send: a BOM, nulls, empty custom field rows, upper-case type and currency', async function () {
    const body = JSON.stringify({
      ...BASE,
      type: 'INVOICE',
      currency: 'usd',
      ship_to: null,
      logo: null,
      notes: '',
      due_date: '',
      custom_fields: [
        { name: 'PO', value: '77' },
        { name: '', value: '' },
      ],
      field: { tax: '%' },
    });
    const res = await fetch(`${service.url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json; charset=utf-8' },
      body: `\uFEFF${body}`,
    });
    expect(res.status, await res.clone().text()).to.equal(200);
    const text = pdfFlatText(new Uint8Array(await res.arrayBuffer()));
    expect(text).to.contain('PO 77');
    expect(text).not.to.contain('Ship To');
  });

  it('numeric strings from JSON clients and repeated form keys (last wins)', async function () {
    const res = await fetch(`${service.url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'from=A&to=B&date=First&date=Second&items[0][name]=W&items[0][quantity]=2&items[0][unit_cost]=4.5&fields[tax]=true&tax=1',
    });
    expect(res.status).to.equal(200);
    const text = pdfFlatText(new Uint8Array(await res.arrayBuffer()));
    expect(text).to.contain('Second');
    expect(text).not.to.contain('First');
    expect(text).to.contain('$10.00'); // 2 × 4.50 + flat tax 1
  });
});

describe('PDF metadata', function () {
  it('has title, author (first line of from), creator and language, also in non-Latin scripts', async function () {
    const service = await sharedService();
    const res = await post(service, { ...BASE, from: 'Nikolaus Ltd\n1 Road', number: 42 });
    const info = pdfInfo(new Uint8Array(await res.arrayBuffer()));
    expect(info.Title).to.equal('Invoice 42');
    expect(info.Author).to.equal('Nikolaus Ltd');
    expect(info.Creator).to.equal('docgen-service');
    expect(info.Producer).to.contain('docgen-service');
    const thai = await post(service, { ...BASE, from: 'บริษัท ตัวอย่าง จำกัด\nกรุงเทพฯ', number: '(7)' });
    const pdf = new Uint8Array(await thai.arrayBuffer());
    const thaiInfo = pdfInfo(pdf);
    expect(thaiInfo.Author).to.equal('บริษัท ตัวอย่าง จำกัด');
    expect(thaiInfo.Title).to.equal('Invoice (7)');
    expect(Buffer.from(pdf).toString('latin1')).to.contain('/Lang (en-US)');
    // The appended document information keeps the file well-formed.
    const file = path.join(tempDir('qpdf'), 'doc.pdf');
    fs.writeFileSync(file, pdf);
    expect(execFileSync('qpdf', ['--check', file]).toString()).to.contain('No syntax or stream encoding errors');
  });
});
