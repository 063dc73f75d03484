// Received e-invoices that break rules, and bodies that are not e-invoices at all, over HTTP: a broken invoice is a 200
// report naming exactly the rule it breaks (and a 422 with that report when asked to be converted); converted to a
// profile that cannot carry its terms, or to a French profile it would not meet, a 400 naming them; a Factur-X made by
// this service is read back; XXE, entity expansion, a deep or oversized body and an XML that is no invoice are each
// refused fast, with the code that says why, never a file or network read.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { XRECHNUNG_REQUEST } from '../helpers/e-invoice-request';
import { post, sharedService, type TestService } from '../helpers/service';
import { postReceived, readExample, type Report } from '../helpers/received';
import { STANDARDS_DIR } from '../helpers/schematron';
import { longInvoice } from '../helpers/received-invoices';

const example = readExample;
const UBL = example('en16931-ubl/ubl-tc434-example2.xml');
const CII = example('en16931-cii/CII_example2.xml');

async function report(service: TestService, body: string | Buffer, contentType = 'application/xml'): Promise<Report> {
  const res = await postReceived(service, body, '/validate', contentType);
  const json = (await res.json()) as Report;
  expect(res.status, JSON.stringify(json).slice(0, 400)).to.equal(200);
  return json;
}

const fatalRules = (r: Report) => [...new Set(r.errors.map((e) => e.rule))].sort();

describe('received e-invoices that break rules', function () {
  this.timeout(60000);
  let service: TestService;
  before(async () => (service = await sharedService()));

  it('a wrong amount due is BR-CO-16 and nothing else, in UBL and in CII', async function () {
    const ubl = UBL.replace(/(<cbc:PayableAmount currencyID="\w+">)[^<]*/, '$19999.99');
    const cii = CII.replace(/(<ram:DuePayableAmount>)[^<]*/, '$19999.99');
    for (const [body, syntax] of [
      [ubl, 'ubl'],
      [cii, 'cii'],
    ] as const) {
      const r = await report(service, body);
      expect(r.syntax).to.equal(syntax);
      expect(r.valid).to.equal(false);
      expect(fatalRules(r), syntax).to.deep.equal(['BR-CO-16']);
      expect(r.errors[0]!.location, 'the XPath the rule names').to.match(/^\//);
    }
  });

  it('a missing seller name is BR-06 and nothing else, in UBL and in CII', async function () {
    // An example without a payee: with one, the official UBL rules also report UBL-SR-19 … 21 (they compare the
    // payee's name with the seller's).
    const UBL3 = example('en16931-ubl/ubl-tc434-example3.xml');
    const ubl = UBL3.replace(
      /(<cac:AccountingSupplierParty>[\s\S]*?<cac:PartyLegalEntity>\s*)<cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>/,
      '$1',
    );
    expect(ubl).not.to.equal(UBL3);
    expect(fatalRules(await report(service, ubl))).to.deep.equal(['BR-06']);
    const cii = CII.replace(/(<ram:SellerTradeParty>[\s\S]*?)<ram:Name>[^<]*<\/ram:Name>/, '$1');
    expect(cii).not.to.equal(CII);
    expect(fatalRules(await report(service, cii))).to.deep.equal(['BR-06']);
  });

  it('an XRechnung without its buyer reference is BR-DE-15 and nothing else', async function () {
    const made = await post(service, XRECHNUNG_REQUEST, { path: '/ubl' });
    const xml = await made.text();
    expect(made.status, xml.slice(0, 400)).to.equal(200);
    const good = await report(service, xml);
    expect(good.specification).to.equal('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
    expect(good.profile).to.equal('xrechnung');
    expect(good.rule_sets.map((s) => s.name).join(' | ')).to.match(/XRechnung/);
    expect(good.errors).to.deep.equal([]);
    const broken = xml.replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, '');
    expect(fatalRules(await report(service, broken))).to.deep.equal(['BR-DE-15']);
  });

  it('an XSD error names its line and column', async function () {
    const r = await report(service, UBL.replace('<cbc:IssueDate>', '<cbc:Unknown>x</cbc:Unknown><cbc:IssueDate>'));
    expect(r.valid).to.equal(false);
    const xsd = r.errors.find((e) => e.rule === 'XSD');
    expect(xsd, JSON.stringify(r.errors)).to.not.equal(undefined);
    expect(xsd!.line).to.be.a('number').and.above(1);
    expect(xsd!.column).to.be.a('number');
  });

  it('lists the first 100 XSD problems and counts the rest: thousands of stray attributes are a small report, not thousands of findings', async function () {
    // libxml2 reports one problem per attribute; a 1.4 MB document of them once made a 437 MB report.
    const attributes = Array.from({ length: 1000 }, (_, i) => ` a${i}="1"`).join('');
    const xml = UBL.replace(/<cbc:(IssueDate|DueDate|Note|DocumentCurrencyCode|BuyerReference|ID)>/g, (tag) =>
      tag.replace('>', `${attributes}>`),
    );
    const res = await postReceived(service, xml, '/validate');
    const text = await res.text();
    expect(res.status).to.equal(200);
    expect(text.length, 'the report').to.be.below(100_000);
    const r = JSON.parse(text) as Report;
    const xsd = r.errors.filter((e) => e.rule === 'XSD');
    expect(xsd).to.have.length(101);
    expect(xsd[100]!.message).to.match(/^\d+ more XSD problems not listed$/);
    const total = r.rule_sets[0]!.fatal;
    expect(total).to.be.above(1000);
    expect(xsd[100]!.message).to.equal(`${total - 100} more XSD problems not listed`);
    // Shown or converted, the same report comes with the 422.
    const shown = await postReceived(service, xml, '/');
    expect(shown.status).to.equal(422);
    expect(((await shown.json()) as { report: Report }).report.errors).to.have.length(101);
  });

  it('is not converted into something that looks valid: 422 with the report, on every conversion route', async function () {
    const ubl = UBL.replace(/(<cbc:PayableAmount currencyID="\w+">)[^<]*/, '$19999.99');
    for (const route of ['/ubl', '/cii', '/factur-x']) {
      const res = await postReceived(service, ubl, route);
      const body = (await res.json()) as { code: string; report: Report };
      expect(res.status, route).to.equal(422);
      expect(body.code).to.equal('invalid_e_invoice');
      expect(fatalRules(body.report)).to.deep.equal(['BR-CO-16']);
    }
  });

  it('converted to a profile that cannot carry its terms (?profile=minimum, basic_wl, basic): 400 naming them, not a 500', async function () {
    // The Peppol example states payment terms (BT-20), a BIC (BT-86), line units (BT-130), order line references …
    const peppol = example('peppol-bis-3/base-example.xml');
    for (const [route, terms] of [
      ['/cii?profile=minimum', ['BT-20', 'BT-29']],
      ['/factur-x?profile=minimum', ['BT-20']],
      ['/factur-x?profile=basic_wl', ['BT-86', 'BT-130']],
      ['/cii?profile=basic', ['BT-86', 'BT-132']],
    ] as const) {
      const res = await postReceived(service, peppol, route);
      const body = (await res.json()) as { code: string; details: { field: string; message: string }[] };
      expect(res.status, `${route}: ${JSON.stringify(body).slice(0, 300)}`).to.equal(400);
      expect(body.code).to.equal('validation_failed');
      expect(new Set(body.details.map((d) => d.field)), route).to.deep.equal(new Set(['profile']));
      for (const term of terms) expect(body.details.map((d) => d.message).join(' '), route).to.include(`(${term})`);
      expect(body.details[0]!.message).to.match(/^profile \w+: the invoice's .* is not carried by the Factur-X [A-Z ]+ profile; use /);
    }
  });

  it('converted to a French profile: 400 when the output would not be French, the French example converted', async function () {
    for (const route of ['/cii?profile=fr', '/ubl?profile=fr', '/factur-x?profile=fr']) {
      const res = await postReceived(service, CII, route);
      const body = (await res.json()) as { code: string; details: { field: string; message: string }[] };
      expect(res.status, `${route}: ${JSON.stringify(body).slice(0, 300)}`).to.equal(400);
      expect(body.details).to.have.length(1);
      expect(body.details[0]!.field).to.equal('profile');
      expect(body.details[0]!.message).to.match(/^profile fr: the invoice is not a French e-invoice: .*BT-23.*scheme 0225/);
    }
    // EXTENDED-CTC-FR names France's reform in BT-24 itself: the output is French, its rules run, and it breaks them.
    const ctc = await postReceived(service, CII, '/factur-x?profile=extended_ctc_fr');
    const refused = (await ctc.json()) as { code: string; report: Report };
    expect(ctc.status).to.equal(422);
    expect(refused.report.french).to.equal(true);
    expect(fatalRules(refused.report).some((id) => id.startsWith('BR-FR-'))).to.equal(true);
    // Factur-X's own French example is one: converted to CII as fr, and the output checked by France's rules.
    const french = fs.readFileSync(path.join(STANDARDS_DIR, 'factur-x', 'example-en16931.xml'), 'utf8');
    const converted = await postReceived(service, french, '/cii?profile=fr');
    expect(converted.status).to.equal(200);
    const r = await report(service, await converted.text());
    expect(r.valid).to.equal(true);
    expect(r.french).to.equal(true);
    expect(r.rule_sets.map((s) => s.name).join(' | ')).to.match(/BR-FR/);
  });

  it('counts every call as one document of the quota: a report, a PDF shown, a conversion, a 422 none', async function () {
    const { key } = await service.keys.createKey(`received-quota-${Date.now()}`, 'free');
    const remaining = (res: Response) => Number(/r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
    const as = (route: string, body: string) =>
      post(service, Buffer.from(body), { path: route, key, headers: { 'content-type': 'application/xml' } });
    const first = await as('/validate', UBL);
    expect(first.status).to.equal(200);
    const start = remaining(first);
    expect(Number.isNaN(start)).to.equal(false);
    expect(remaining(await as('/', UBL))).to.equal(start - 1);
    expect(remaining(await as('/cii', UBL))).to.equal(start - 2);
    const refused = await as('/cii', UBL.replace(/(<cbc:PayableAmount currencyID="\w+">)[^<]*/, '$19999.99'));
    expect(refused.status).to.equal(422);
    expect(remaining(await as('/validate', UBL))).to.equal(start - 3);
  });

  it('reads back a Factur-X made by this service: the CII inside is checked, with the PDF/A-3 structure', async function () {
    const made = await postReceived(service, CII, '/factur-x');
    expect(made.status).to.equal(200);
    const pdf = Buffer.from(await made.arrayBuffer());
    const r = await report(service, pdf, 'application/pdf');
    expect(r.errors, JSON.stringify(r.errors.slice(0, 3))).to.deep.equal([]);
    expect(r.valid).to.equal(true);
    expect(r.syntax).to.equal('cii');
    expect(r.rule_sets.map((s) => s.name).join(' | ')).to.match(/PDF\/A-3/);
    // And converted from the PDF, keeping the invoice number.
    const ubl = await postReceived(service, pdf, '/ubl', 'application/pdf');
    expect(ubl.status).to.equal(200);
    expect(await ubl.text()).to.include('<cbc:ID>' + /<ram:ID>([^<]*)<\/ram:ID>/.exec(CII.split('<rsm:ExchangedDocument>')[1]!)![1]);
  });
});

describe('bodies that are not e-invoices, refused fast', function () {
  this.timeout(60000);
  let service: TestService;
  let probe: http.Server;
  let probeHits = 0;
  let probeUrl = '';
  before(async () => {
    service = await sharedService();
    probe = http.createServer((_req, res) => {
      probeHits++;
      res.end('<x>fetched</x>');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/entity`;
  });
  after(() => new Promise((resolve) => probe.close(resolve)));

  const ublHead =
    '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">';
  const hostile = (): [string, string | Buffer, number, string][] => [
    [
      'an external entity (XXE) on a local file',
      `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]>${ublHead}<cbc:ID>&x;</cbc:ID></Invoice>`,
      400,
      'malformed_xml',
    ],
    [
      'an external entity on the network',
      `<!DOCTYPE Invoice [<!ENTITY x SYSTEM "${probeUrl}">]>${ublHead}<cbc:ID>&x;</cbc:ID></Invoice>`,
      400,
      'malformed_xml',
    ],
    ['an external DTD', `<!DOCTYPE Invoice SYSTEM "${probeUrl}">${ublHead}</Invoice>`, 400, 'malformed_xml'],
    ['a parameter entity', `<!DOCTYPE Invoice [<!ENTITY % p SYSTEM "${probeUrl}"> %p;]>${ublHead}</Invoice>`, 400, 'malformed_xml'],
    [
      'entity expansion (billion laughs)',
      `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>${ublHead}<cbc:ID>&lol9;</cbc:ID></Invoice>`,
      400,
      'malformed_xml',
    ],
    ['an undeclared entity', `${ublHead}<cbc:ID>&nope;</cbc:ID></Invoice>`, 400, 'malformed_xml'],
    ['elements nested 100,000 deep', `${ublHead}${'<cbc:Note>'.repeat(100000)}`, 400, 'malformed_xml'],
    // In scope on every element, they held the XSD and rule checks 10 to 24 s.
    [
      '50,000 namespace declarations',
      `${ublHead.replace('>', Array.from({ length: 50000 }, (_, i) => ` xmlns:p${i}="urn:x:${i}"`).join('') + '>')}<cbc:ID>1</cbc:ID></Invoice>`,
      400,
      'malformed_xml',
    ],
    [
      'an element of 20,000 attributes',
      `${ublHead}<cbc:ID${Array.from({ length: 20000 }, (_, i) => ` a${i}="1"`).join('')}>1</cbc:ID></Invoice>`,
      400,
      'malformed_xml',
    ],
    ['XML that is not well-formed', `${ublHead}<cbc:ID>1</cbc:Note></Invoice>`, 400, 'malformed_xml'],
    ['a UBL Order', '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>', 415, 'unsupported_document'],
    ['an XHTML page', '<html xmlns="http://www.w3.org/1999/xhtml"><body>hi</body></html>', 415, 'unsupported_document'],
    ['an Invoice of another namespace', '<Invoice xmlns="urn:example:invoice"/>', 415, 'unsupported_document'],
  ];

  for (const route of ['/validate', '/', '/ubl', '/cii', '/factur-x']) {
    it(`${route}: XXE, entity expansion, deep nesting and non-invoices, each refused with its code, reading nothing`, async function () {
      for (const [what, body, status, code] of hostile()) {
        const res = await postReceived(service, body, route);
        const json = (await res.json()) as { code: string; message: string };
        // Refused as read (malformed_xml, unsupported_document), before any check: the engines never asked is counted
        // in test/integration/einvoice/received/check.test.ts; here, no entity URL fetched.
        expect([res.status, json.code], `${route} ${what}`).to.deep.equal([status, code]);
        expect(json.message).not.to.match(/root:|fetched/);
      }
      expect(probeHits, 'requests to the entity URLs').to.equal(0);
    });
  }

  it('an invoice of more lines than MAX_ITEMS is refused when shown or converted, by its count of lines', async function () {
    const huge = longInvoice(5000);
    for (const route of ['/', '/ubl', '/cii', '/factur-x']) {
      const res = await postReceived(service, huge, route);
      const body = (await res.json()) as { code: string; details: { message: string }[] };
      // One detail, the count of lines: no finding of any rule or of the XSD (the document was not checked).
      expect([res.status, body.code], route).to.deep.equal([400, 'validation_failed']);
      expect(body.details).to.have.length(1);
      expect(body.details[0]!.message).to.match(/more than 1000 lines/);
    }
  });

  it('long received texts are refused when shown or printed into a Factur-X, and only checked by /validate', async function () {
    // Before, a note of a million characters went to Chromium (17.7 s; a 503 at 5 million, a renderer near 1 GB), and
    // a BuyerReference of 120,000 characters took 4.9 s to lay out, 300,000 past the render deadline.
    const lorem = (chars: number) => 'Lorem ipsum '.repeat(Math.ceil(chars / 12));
    const cases: [string, string, string, RegExp][] = [
      [
        'a payment terms note (BT-20) of a million characters',
        UBL.replace(/(<cac:PaymentTerms>\s*<cbc:Note>)/, `$1${lorem(1_000_000)}`),
        'the details (BT-10, BT-20 …)',
        /hold a text of 1,000,\d{3} characters/,
      ],
      [
        'a note of a million characters',
        UBL.replace('<cbc:Note>Ordered in our booth at the convention</cbc:Note>', `<cbc:Note>${lorem(1_000_000)}</cbc:Note>`),
        'the notes (BT-21, BT-22)',
        /hold a text of 1,000,\d{3} characters; a received invoice's texts may have at most 40,000/,
      ],
      [
        'a buyer reference of 300,000 characters',
        UBL.replace('</cbc:AccountingCost>', `</cbc:AccountingCost><cbc:BuyerReference>${lorem(300_000)}</cbc:BuyerReference>`),
        'the payment, references, parties and attachments',
        /hold a text of 299,999 characters/,
      ],
      [
        '300 notes of 3,000 characters',
        UBL.replace('<cbc:Note>Ordered in our booth at the convention</cbc:Note>', `<cbc:Note>${lorem(3000)}</cbc:Note>`.repeat(300)),
        'the notes (BT-21, BT-22)',
        /prints about 9,\d{3} lines; a whole document may print at most 6,000/,
      ],
    ];
    for (const [what, xml, field, message] of cases) {
      expect(xml.length, what).to.be.above(300_000);
      for (const route of ['/', '/factur-x']) {
        const res = await postReceived(service, xml, route);
        const body = (await res.json()) as { code: string; details: { field: string; message: string }[] };
        expect([res.status, body.code], `${what} ${route}`).to.deep.equal([400, 'validation_failed']);
        expect(body.details[0]!.field, what).to.equal(field);
        expect(body.details[0]!.message, `${what}: ${body.details[0]!.message}`).to.match(message);
      }
    }
    expect((await report(service, cases[1]![1])).valid).to.equal(true);
  });

  it('more than 10,000 CDATA sections, or comments, are 400 malformed_xml at once; 10,000 are read and checked', async function () {
    // SaxonJS reads CDATA sections in time growing with the square of their number: 100,000 held every check 43 s.
    const peppol = example('peppol-bis-3/base-example.xml');
    const withId = (inside: string) => peppol.replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>${inside}</cbc:ID>`);
    for (const [unit, what] of [
      ['<![CDATA[a]]>', 'CDATA sections'],
      ['a<!---->', 'comments and processing instructions'],
    ] as const) {
      const refused = await postReceived(service, withId(unit.repeat(100_000)), '/validate');
      const body = (await refused.json()) as { code: string; message: string };
      expect(refused.status, what).to.equal(400);
      expect(body.code).to.equal('malformed_xml');
      expect(body.message).to.include(`more than 10000 ${what}`);
    }
    const read = await report(service, withId('<![CDATA[a]]>'.repeat(10_000)));
    expect(read.valid, JSON.stringify(read.errors.slice(0, 2))).to.equal(true);
  });

  it('an oversized body is 413 before it is read; JSON on /validate is 415; a PDF without an invoice inside is 415', async function () {
    const huge = Buffer.alloc(40 * 1024 * 1024, 0x20);
    const big = await postReceived(service, huge, '/validate').catch(() => undefined);
    if (big) expect(big.status).to.equal(413);
    const json = await post(service, { type: 'invoice' }, { path: '/validate' });
    expect(json.status).to.equal(415);
    const plainPdf = await post(service, { from: 'A', to: 'B', items: [{ name: 'x', quantity: 1, unit_cost: 1 }] });
    const noInvoice = await postReceived(service, Buffer.from(await plainPdf.arrayBuffer()), '/validate', 'application/pdf');
    expect(noInvoice.status).to.equal(415);
    expect(((await noInvoice.json()) as { code: string }).code).to.equal('unsupported_document');
    const notPdf = await postReceived(service, Buffer.from('%PDF-1.7\n garbage'), '/validate', 'application/pdf');
    expect(notPdf.status).to.equal(415);
  });
});
