// The UBL reader (server/einvoice/ubl/read.ts) on every official UBL example (../shared/standards/examples/
// en16931-ubl and peppol-bis-3): each is read into the model and written back, as UBL by buildUbl and as CII by
// buildCii, and the written document is compared with the example in KoSIT's semantic model (test/helpers/semantic.ts)
// both ways: every term of the example is in the written document, and nothing else. The UBL is also XSD-valid with
// 0 fatal under the EN 16931 rules (and Peppol's for the Peppol examples). The CII may differ only by the terms of
// CANNOT_CROSS, each with its reason.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../../server/config';
import { buildCii } from '../../../../server/einvoice/cii/build';
import { buildUbl } from '../../../../server/einvoice/ubl/build';
import { acquireXsdValidator, type XsdValidatorRef } from '../../../../server/einvoice/xsd-validator';
import { Decimal } from '../../../../server/money/totals';
import { rules, STANDARDS_DIR } from '../../../helpers/schematron';
import { differences, forCii, read, terms, unexplained } from '../../../helpers/ubl-read';

const EXAMPLES = ['en16931-ubl', 'peppol-bis-3'].flatMap((dir) =>
  fs
    .readdirSync(path.join(STANDARDS_DIR, 'examples', dir))
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => `${dir}/${f}`),
);

const example = (file: string): string => fs.readFileSync(path.join(STANDARDS_DIR, 'examples', file), 'utf8');

const fatal = (set: 'en16931' | 'peppol', xml: string): string[] =>
  rules(set)
    .validate(xml)
    .filter((f) => f.flag === 'fatal')
    .map((f) => `${set} ${f.id}: ${f.message.slice(0, 160)}`);

describe('UBL reader: the official UBL examples read, and written back as UBL and as CII', function () {
  this.timeout(60000);
  let xsd: XsdValidatorRef;
  before(() => (xsd = acquireXsdValidator(loadConfig({}))));
  after(async () => await xsd?.release());

  it('finds the 22 examples, a credit note among them', function () {
    expect(EXAMPLES).to.have.length(22);
    expect(EXAMPLES.filter((f) => /<CreditNote\b/.test(example(f)))).to.have.length(2);
  });

  for (const file of EXAMPLES) {
    it(`${file}: as UBL, every term of the example and no other, XSD-valid, 0 fatal`, async function () {
      const xml = example(file);
      const written = buildUbl(read(xml));
      const [original, again] = [terms(xml), terms(written.xml)];
      expect(differences(original, again), 'terms of the example missing').to.deep.equal([]);
      expect(differences(again, original), 'terms the example does not have').to.deep.equal([]);
      expect(written.root).to.equal(/<CreditNote\b/.test(xml) ? 'CreditNote' : 'Invoice');
      expect(await xsd.validator.validate(written.xml, written.root)).to.deep.equal([]);
      const sets = file.startsWith('peppol-bis-3/') ? (['en16931', 'peppol'] as const) : (['en16931'] as const);
      expect(sets.flatMap((set) => fatal(set, written.xml))).to.deep.equal([]);
    });

    it(`${file}: as CII, every term of the example and no other but those that cannot cross`, function () {
      const xml = example(file);
      const model = read(xml);
      const cii = buildCii(forCii(model));
      const [original, across] = [terms(xml), terms(cii)];
      expect(unexplained(differences(original, across), 'missing', model), 'terms of the example missing').to.deep.equal([]);
      expect(unexplained(differences(across, original), 'extra', model), 'terms the example does not have').to.deep.equal([]);
    });
  }

  it('each check can fail: a term dropped or changed, a document the XSD or the rules refuse, a term changed in CII', async function () {
    const xml = example('peppol-bis-3/base-example.xml');
    const model = read(xml);
    const dropped = { ...model, seller: { ...model.seller, tradingName: undefined } };
    expect(differences(terms(xml), terms(buildUbl(dropped).xml))).to.deep.equal(['BG-4 > BT-28=SupplierTradingName Ltd.']);
    const more = { ...model, totals: { ...model.totals, payable: model.totals.payable.plus(1) } };
    expect(differences(terms(buildUbl(more).xml), terms(xml))).to.deep.equal(['BG-22 > BT-115=1657.25']);
    expect(fatal('en16931', buildUbl(more).xml).join('\n')).to.match(/BR-CO-16/);
    const invalid = buildUbl(model).xml.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, '');
    expect(await xsd.validator.validate(invalid, 'Invoice')).to.not.deep.equal([]);
    const renamed = { ...model, lines: [{ ...model.lines[0]!, name: 'other' }, ...model.lines.slice(1)] };
    expect(unexplained(differences(terms(xml), terms(buildCii(forCii(renamed)))), 'missing', model)).to.deep.equal([
      'BG-25 > BG-31 > BT-153=item name',
    ]);
  });

  it('reads amounts and quantities as the Decimals sent, with two minor units', function () {
    const model = read(example('peppol-bis-3/base-example.xml'));
    expect(model.minorUnits).to.equal(2);
    expect(model.totals.payable).to.be.instanceOf(Decimal);
    expect(model.totals.payable.toFixed()).to.equal('1656.25');
    expect(model.lines[0]!.quantity.toFixed()).to.equal('7');
    expect(model.lines[0]!.unitCode).to.equal('DAY');
    expect(model.lines[0]!.price.toFixed()).to.equal('400');
  });
});
