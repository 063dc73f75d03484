// What the e-invoice outputs refuse, over real HTTP: XRechnung without the fields it requires (every missing field
// named in `details`), a type no e-invoice is made of, CII without the parties' countries, a line rate beside a flat
// tax, the Peppol profile in CII, an e-mail endpoint under Peppol; and the quota: a /cii and a /factur-x document
// each count one, a refused one counts none. The documents themselves are checked in e-invoices.test.ts.
import { expect } from 'chai';
import { periodOf } from '../../server/quota/quota';
import { bodyFor, CASES } from '../helpers/e-invoice-cases';
import { rules } from '../helpers/schematron';
import { post, sharedService, type TestService } from '../helpers/service';

interface ErrorBody {
  error: string;
  code: string;
  details?: { field: string; message: string }[];
}

/** Posts and expects a 400 with this code; returns the fields its details name. */
async function refused(service: TestService, output: string, body: Record<string, unknown>, code: string): Promise<ErrorBody> {
  const res = await post(service, body, { path: `/${output}` });
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).to.equal(400);
  const json = JSON.parse(text) as ErrorBody;
  expect(json.code, text).to.equal(code);
  // Each problem names its field in its own words, so that a client can show it beside the field.
  for (const d of json.details ?? []) expect(d.message, d.field).to.contain(d.field === 'type' ? 'not ' : d.field);
  return json;
}
const fields = (json: ErrorBody) => (json.details ?? []).map((d) => d.field);

const GERMAN = CASES[0]!;
// The matrix's German invoice, complete for XRechnung: each test below takes something away or adds a conflict.
const complete = GERMAN.body as { e_invoice: Record<string, unknown> } & Record<string, unknown>;
const items = [{ name: 'Wartung', quantity: 2, unit_cost: 95 }];

describe('e-invoice requests refused with a 400 naming the fields', function () {
  this.timeout(60000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  // A seller and buyer given by name and country only, and no payment means: XRechnung needs all of these.
  const bare = {
    from: 'Müller Werkzeugbau GmbH',
    to: 'Stadtverwaltung Musterstadt',
    number: 'RE-2026-0999',
    tax: 19,
    items,
    e_invoice: { profile: 'xrechnung', seller: { country: 'DE' }, buyer: { country: 'DE' } },
  };
  const XRECHNUNG_MISSING = [
    'e_invoice.buyer_reference',
    'e_invoice.seller.endpoint',
    'e_invoice.seller.city',
    'e_invoice.seller.postal_code',
    'e_invoice.seller.contact_name',
    'e_invoice.seller.phone',
    'e_invoice.seller.email',
    'e_invoice.seller.vat_id',
    'e_invoice.buyer.endpoint',
    'e_invoice.buyer.city',
    'e_invoice.buyer.postal_code',
    'e_invoice.payment_means',
  ];
  for (const output of ['ubl', 'cii', 'factur-x']) {
    it(`/${output} XRechnung without its required fields → 400 naming each of the ${XRECHNUNG_MISSING.length}`, async function () {
      const json = await refused(service, output, bare, 'validation_failed');
      expect(fields(json)).to.have.members(XRECHNUNG_MISSING);
    });
  }

  it('/cii XRechnung with a credit transfer (58) without an IBAN → 400 naming e_invoice.payment_means.iban', async function () {
    const body = { ...complete, e_invoice: { ...complete.e_invoice, profile: 'xrechnung', payment_means: { code: '58' } } };
    expect(fields(await refused(service, 'cii', body, 'validation_failed'))).to.deep.equal(['e_invoice.payment_means.iban']);
  });

  it('an IBAN with a wrong check digit and a VAT id without a country prefix → 400 naming both (DE-R-019, BR-CO-09)', async function () {
    const e = complete.e_invoice as { seller: Record<string, unknown>; payment_means: Record<string, unknown> };
    const body = {
      ...complete,
      e_invoice: {
        ...e,
        seller: { ...e.seller, vat_id: 'EU372000041' },
        payment_means: { ...e.payment_means, iban: 'DE02 1203 0000 0000 2020 52' },
      },
    };
    const json = await refused(service, 'cii', body, 'validation_failed');
    expect(fields(json)).to.include.members(['e_invoice.seller.vat_id', 'e_invoice.payment_means.iban']);
  });

  it('/cii for a quote → 400 unsupported_type naming type', async function () {
    const json = await refused(service, 'cii', { ...complete, type: 'quote' }, 'unsupported_type');
    expect(fields(json)).to.deep.equal(['type']);
    expect(json.error).to.contain('not quote');
  });

  for (const output of ['cii', 'factur-x']) {
    it(`/${output} without the seller's and buyer's countries → 400 naming both`, async function () {
      const body = { from: 'Müller Werkzeugbau GmbH\nBerlin', to: 'Stadtverwaltung Musterstadt', number: 'RE-1', tax: 19, items };
      const json = await refused(service, output, body, 'validation_failed');
      expect(fields(json)).to.have.members(['e_invoice.seller.country', 'e_invoice.buyer.country']);
    });
  }

  it('/cii with a country from a VAT ID line in from and to needs no e_invoice at all', async function () {
    const body = {
      from: 'Müller Werkzeugbau GmbH\nVAT ID: DE123456789',
      to: 'Alpenholz GmbH\nVAT ID: ATU12345678',
      number: 'RE-2',
      tax: 19,
      items,
    };
    const res = await post(service, body, { path: '/cii' });
    expect(res.status, await res.clone().text()).to.equal(200);
    const xml = await res.text();
    expect(xml).to.match(/<ram:CountryID>DE<\/ram:CountryID>[\s\S]*<ram:CountryID>AT<\/ram:CountryID>/);
  });

  it('a line rate with a flat document tax (fields.tax true) → 400 naming items[0].tax', async function () {
    const body = { ...complete, fields: { tax: true }, tax: 20, items: [{ name: 'Buch', quantity: 1, unit_cost: 20, tax: 7 }, ...items] };
    for (const output of ['cii', 'ubl'])
      expect(fields(await refused(service, output, body, 'validation_failed')), output).to.deep.equal(['items[0].tax']);
  });

  it('e_invoice.profile peppol on /cii and /factur-x → 400 naming e_invoice.profile (Peppol BIS is UBL only)', async function () {
    const body = { ...complete, e_invoice: { ...complete.e_invoice, profile: 'peppol' } };
    for (const output of ['cii', 'factur-x']) {
      const json = await refused(service, output, body, 'validation_failed');
      expect(fields(json), output).to.deep.equal(['e_invoice.profile']);
      expect(json.error).to.match(/UBL only/);
    }
  });

  it('an e-mail endpoint (EAS EM) under Peppol → 400 naming the scheme; under XRechnung it passes the rules', async function () {
    const seller = { ...(complete.e_invoice.seller as object), endpoint: { scheme: 'EM', id: 'rechnung@mueller.example.de' } };
    const body = { ...complete, e_invoice: { ...complete.e_invoice, seller } };
    const json = await refused(service, 'ubl', body, 'validation_failed');
    expect(fields(json)).to.deep.equal(['e_invoice.seller.endpoint.scheme']);
    expect(json.error).to.contain('EM');

    const res = await post(service, bodyFor({ ...GERMAN, body }, { output: 'ubl', profile: 'xrechnung' }), { path: '/ubl' });
    const xml = await res.text();
    expect(res.status, xml.slice(0, 300)).to.equal(200);
    expect(xml).to.contain('<cbc:EndpointID schemeID="EM">rechnung@mueller.example.de</cbc:EndpointID>');
    for (const name of ['en16931', 'xrechnungUbl'] as const) {
      const fatal = rules(name)
        .validate(xml)
        .filter((f) => f.flag === 'fatal' || f.flag === 'error');
      expect(fatal, name).to.deep.equal([]);
    }
  });
});

describe('e-invoices and the quota', function () {
  this.timeout(60000);

  it('a /cii and a /factur-x document each count one; a refused request counts none', async function () {
    const service = await sharedService();
    const account = 'e-invoice-quota';
    const { key } = await service.keys.createKey(account, 'paid');
    const usage = () => service.keys.usage(account, periodOf(new Date()));
    expect(await usage()).to.equal(0);

    const cii = await post({ url: service.url, key }, GERMAN.body, { path: '/cii' });
    expect(cii.status).to.equal(200);
    expect(await cii.text()).to.contain('<rsm:CrossIndustryInvoice');
    expect(await usage(), 'after /cii').to.equal(1);

    const fx = await post({ url: service.url, key }, GERMAN.body, { path: '/factur-x' });
    expect(fx.status).to.equal(200);
    expect(
      Buffer.from(await fx.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).to.equal('%PDF-');
    expect(await usage(), 'after /factur-x').to.equal(2);

    const quote = await post({ url: service.url, key }, { ...GERMAN.body, type: 'quote' }, { path: '/cii' });
    expect(quote.status).to.equal(400);
    expect(await usage(), 'after a refused /cii').to.equal(2);
  });
});
