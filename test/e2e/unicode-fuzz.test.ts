// Property-based fuzzing of every route with generated Unicode (fast-check) against the real service, real Chromium,
// real XSDs and rules and real SQLite: astral characters, combining sequences, bidi controls and isolates, NFC and NFD
// spellings of the same text, ZWJ emoji, and the XML-illegal ones (C0 controls, lone surrogates), put into the string
// fields of a valid request (the number, the parties, lines, notes, custom fields, the e-invoice's parties and payment)
// on /, /ubl, /cii, /factur-x and /batch (a ZIP and one merged PDF), and into the text of a received UBL invoice on
// /validate and POST / (shown as a PDF). Every answer must be:
//   - never a 5xx; a 4xx is the one JSON error shape;
//   - a 200: a Content-Disposition whose name is well-formed (no half of a pair, no U+FFFD), in NFC and within 255
//     bytes of UTF-8, with an ASCII fallback; a ZIP whose entry names are the same, unique after NFC, and unzip reads;
//   - and afterwards the store has counted exactly the documents answered 200 (a refusal counts nothing).
// Seeded and reproducible: FUZZ_SEED and FUZZ_RUNS (cases per route).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { periodOf } from '../../server/quota/quota';
import { E_INVOICE } from '../helpers/e-invoice-request';
import { post, sharedService, tempDir, type TestService } from '../helpers/service';

const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

// ---- generated text --------------------------------------------------------------------------------------------

/** Pairs of one text in NFC and in NFD (or another canonically equal spelling). */
const NORMAL_FORMS: [string, string][] = [
  ['é', 'e\u0301'],
  ['Å', 'A\u030a'],
  ['ñ', 'n\u0303'],
  ['한', '\u1112\u1161\u11ab'],
  ['가', '\u1100\u1161'],
  ['ệ', 'e\u0323\u0302'],
  ['ﬁ', 'ﬁ'],
  ['\u0958', '\u0915\u093c'],
];

const astral = fc.oneof(
  fc.integer({ min: 0x20000, max: 0x2a6df }), // CJK extension B
  fc.integer({ min: 0x1f300, max: 0x1faff }), // emoji
  fc.integer({ min: 0x1d400, max: 0x1d7ff }), // mathematical letters
  fc.integer({ min: 0x10000, max: 0x10ffff }), // anywhere past the first plane
);
const piece = fc
  .oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }) },
    { weight: 3, arbitrary: astral.map((cp) => String.fromCodePoint(cp)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('a', 'ক', 'ب', 'x', '請'), fc.array(fc.integer({ min: 0x300, max: 0x36f }), { minLength: 1, maxLength: 5 }))
        .map(([b, marks]) => b + String.fromCodePoint(...marks)),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom('\u202e', '\u202a', '\u202c', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'),
    },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...NORMAL_FORMS), fc.boolean()).map(([pair, nfd]) => pair[nfd ? 1 : 0]) },
    { weight: 1, arbitrary: fc.constantFrom('👩🏽‍💻', '🏳️‍🌈', '👨‍👩‍👧‍👦', '🇩🇪', '1️⃣') },
    { weight: 1, arbitrary: fc.constantFrom('فاتورة', 'চালান', 'ใบแจ้งหนี้', '請求書', 'Rechnung') },
    // Graphemes of any plane include controls and non-characters: those are `illegal`'s, below.
  )
  .filter((p) => p.isWellFormed() && ![...p].some((c) => (c < ' ' && !'\t\n\r'.includes(c)) || c === '\ufffe' || c === '\uffff'));

/** What XML 1.0 cannot carry, or a well-formed string cannot hold: C0 controls, half a surrogate pair, non-characters. */
const illegal = fc.constantFrom('\u0000', '\u0007', '\u001b', '\ud800', '\udfff', '\ufffe', '\uffff', '\u0085');

/** Text of the pieces above, 1 to `max` of them; one case in eight also holds a character of `illegal`. */
const text = (max: number) =>
  fc
    .tuple(
      fc.array(piece, { minLength: 1, maxLength: max }),
      fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: illegal }),
      fc.nat(),
    )
    .map(([parts, bad, at]) => (bad === undefined ? parts : parts.toSpliced(at % (parts.length + 1), 0, bad)).join(''));

/** The string fields of a request a value may go into (the e-invoice's only where the route makes one). */
const FIELDS = [
  'number',
  'from',
  'to',
  'notes',
  'terms',
  'items.0.name',
  'items.0.description',
  'items.1.name',
  'custom_fields.0.name',
  'custom_fields.0.value',
  'purchase_order',
] as const;
const E_FIELDS = [
  'e_invoice.buyer_reference',
  'e_invoice.seller.city',
  'e_invoice.buyer.street',
  'e_invoice.payment_means.payment_id',
] as const;

type Json = Record<string, unknown>;

function baseDocument(route: string): Json {
  return {
    number: 'U-1',
    from: 'Seller GmbH',
    to: 'Buyer SARL',
    currency: 'EUR',
    tax: 19,
    items: [
      { name: 'Widget', quantity: 2, unit_cost: 10.5, description: 'Blue' },
      { name: 'Service', quantity: 1, unit_cost: 80 },
    ],
    custom_fields: [{ name: 'PO', value: '42' }],
    ...(route === '/' ? {} : { e_invoice: structuredClone(E_INVOICE) }),
  };
}

function setPath(doc: Json, at: string, value: unknown): void {
  const parts = at.split('.');
  let node = doc as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts.at(-1)!] = value;
}

/** A request of `route` with 1 to 4 of its string fields set to generated text (the number often long). */
const request = (route: string) =>
  fc
    .array(fc.tuple(fc.constantFrom(...FIELDS, ...(route === '/' ? [] : E_FIELDS)), text(12)), { minLength: 1, maxLength: 4 })
    .chain((changes) => fc.tuple(fc.constant(changes), fc.option(text(60), { nil: undefined })))
    .map(([changes, longNumber]) => {
      const doc = baseDocument(route);
      for (const [field, value] of changes) setPath(doc, field, value);
      if (longNumber !== undefined) doc.number = longNumber;
      return doc;
    });

// ---- what every answer must be ----------------------------------------------------------------------------------

/** The Content-Disposition's names: its filename* decoded, and its ASCII filename. */
function dispositionNames(header: string): { name: string; ascii: string } {
  const star = /filename\*=UTF-8''([^;]+)/.exec(header);
  const ascii = /filename="([^"]*)"/.exec(header)?.[1] ?? '';
  return { name: star ? decodeURIComponent(star[1]!) : ascii, ascii };
}

function expectGoodName(name: string, what: string): void {
  expect(name.isWellFormed(), `${what}: well-formed ${JSON.stringify(name)}`).to.equal(true);
  expect(name, `${what}: no U+FFFD`).not.to.include('\uFFFD');
  expect(name.normalize('NFC'), `${what}: NFC`).to.equal(name);
  expect(Buffer.byteLength(name), `${what}: bytes`).to.be.at.most(255);
  expect(
    [...name].some((c) => c < ' ' || c === '\u007f' || c === '/' || c === '\\'),
    `${what}: no path or control character`,
  ).to.equal(false);
}

async function expectAnswer(res: Response, what: string): Promise<Buffer> {
  const body = Buffer.from(await res.arrayBuffer());
  expect(res.status, `${what}: ${res.status} ${body.toString('utf8').slice(0, 300)}`).to.be.below(500);
  if (res.status !== 200) {
    const error = JSON.parse(body.toString('utf8')) as { code?: unknown; message?: unknown };
    if (process.env.FUZZ_DEBUG) console.log(String(error.message).slice(0, 200));
    expect(error.code, `${what}: the error shape`).to.be.a('string');
    expect(error.message, `${what}: the error shape`).to.be.a('string');
    return body;
  }
  const disposition = res.headers.get('content-disposition');
  expect(disposition, `${what}: Content-Disposition`).to.be.a('string');
  const { name, ascii } = dispositionNames(disposition!);
  expectGoodName(name, what);
  expect(ascii, `${what}: the ASCII fallback`).to.match(/^[\x20-\x7e]+$/);
  return body;
}

/** A ZIP's entry names, as unzip extracts them. */
function zipNames(zip: Buffer): string[] {
  const dir = tempDir('unicode-zip');
  fs.writeFileSync(path.join(dir, 'batch.zip'), zip);
  execFileSync('unzip', ['-q', path.join(dir, 'batch.zip'), '-d', path.join(dir, 'out')]);
  return fs.readdirSync(path.join(dir, 'out'));
}

// ---- the suite ------------------------------------------------------------------------------------------------

describe('generated Unicode in every string field of every route', function () {
  this.timeout(600_000);
  let service: TestService;
  let key: string;
  const account = 'unicode-fuzz';
  /** Documents answered 200 so far: what the store must have counted. */
  let made = 0;
  /** The statuses of the current test's answers (logged after it). */
  const statuses: number[] = [];

  before(async function () {
    service = await sharedService();
    ({ key } = await service.keys.createKey(account, 'paid'));
  });

  for (const route of ['/', '/ubl', '/cii', '/factur-x']) {
    it(`${route}: never a 5xx, names well-formed and within 255 bytes`, async function () {
      await fc.assert(
        fc.asyncProperty(request(route), async (doc) => {
          const res = await post(service, doc, { path: route, key });
          await expectAnswer(res, `${route} ${JSON.stringify(doc.number)}`);
          statuses.push(res.status);
          if (res.status === 200) made++;
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }

  it('/batch: a ZIP (numbers in NFC and NFD among them) and one merged PDF; entry names unique after NFC', async function () {
    const batch = fc.tuple(
      fc.array(request('/batch'), { minLength: 1, maxLength: 4 }),
      fc.constantFrom(...NORMAL_FORMS),
      fc.constantFrom('application/zip', 'application/pdf'),
    );
    await fc.assert(
      fc.asyncProperty(batch, async ([documents, [nfc, nfd], accept]) => {
        // Two more documents whose numbers are one text in its two spellings.
        const all = [...documents, { ...baseDocument('/'), number: `N-${nfc}` }, { ...baseDocument('/'), number: `N-${nfd}` }].map((d) => {
          const { e_invoice: _, ...pdfOnly } = d;
          return pdfOnly;
        });
        const res = await post(service, { documents: all }, { path: '/batch', key, headers: { accept } });
        const body = await expectAnswer(res, `/batch ${accept}`);
        statuses.push(res.status);
        if (res.status !== 200) return;
        made += all.length;
        if (accept === 'application/pdf') return;
        const names = zipNames(body);
        expect(names).to.have.length(all.length);
        for (const n of names) expectGoodName(n, `ZIP entry ${JSON.stringify(n)}`);
        expect(new Set(names.map((n) => n.normalize('NFC').toLowerCase())).size, 'unique after NFC').to.equal(all.length);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it('received UBL with generated text in its names and notes: /validate and POST / never a 5xx', async function () {
    const made0 = await post(service, { ...baseDocument('/ubl'), number: 'R-1' }, { path: '/ubl', key: service.key });
    expect(made0.status).to.equal(200);
    const ubl = (await made0.text()).replace(/<cbc:EmbeddedDocumentBinaryObject[^>]*>[^<]*<\/cbc:EmbeddedDocumentBinaryObject>/, '');
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const received = fc.tuple(text(12), text(12), text(40), fc.constantFrom('/validate', '/'));
    await fc.assert(
      fc.asyncProperty(received, async ([name, note, id, route]) => {
        const xml = ubl
          .replace(/<cbc:Name>[^<]*<\/cbc:Name>/, `<cbc:Name>${escape(name)}</cbc:Name>`)
          .replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>${escape(id)}</cbc:ID>`)
          .replace(/(<\/cbc:InvoiceTypeCode>)/, `$1<cbc:Note>${escape(note)}</cbc:Note>`);
        const res = await post(service, Buffer.from(xml, 'utf8'), { path: route, key, headers: { 'content-type': 'application/xml' } });
        const body = Buffer.from(await res.arrayBuffer());
        expect(res.status, `${route}: ${res.status} ${body.toString('utf8').slice(0, 300)}`).to.be.below(500);
        statuses.push(res.status);
        if (res.status === 200) {
          made++;
          if (route === '/')
            expectGoodName(dispositionNames(res.headers.get('content-disposition')!).name, `${route} ${JSON.stringify(id)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  afterEach(function () {
    if (statuses.length > 0)
      console.log(`      ${statuses.filter((s) => s === 200).length} × 200, ${statuses.filter((s) => s !== 200).length} × 4xx`);
    statuses.length = 0;
  });

  it('the store counted exactly the documents answered 200: refusals count nothing', async function () {
    for (let i = 0; i < 100 && service.quota.unsettled() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    console.log(`      ${made} documents answered 200 and counted`);
    expect(made).to.be.above(0);
    expect(await service.keys.usage(account, periodOf(new Date()))).to.equal(made);
  });
});
