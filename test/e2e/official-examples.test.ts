// Official example e-invoices (../shared/standards/examples/), each restated as a JSON request
// (test/fixtures/official/): the document this service writes from it carries every business term of the example, at
// the same place, compared value by value in the EN 16931 semantic model (KoSIT's mapping, test/helpers/semantic.ts),
// not as text. Each output is XSD-valid with 0 fatal under the EN 16931 rules of its syntax (and Peppol BIS 3.0 for
// /ubl's default profile).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { rules, STANDARDS_DIR } from '../helpers/schematron';
import { missingTerms, semanticModel } from '../helpers/semantic';
import { post, sharedService, type TestService } from '../helpers/service';
import { rootOf, xmllintErrors, xsdErrors } from '../helpers/ubl';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'official');

interface Fixture {
  example: string;
  route: '/ubl' | '/cii';
  body: Record<string, unknown>;
}

const fixtures = fs
  .readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, ...(JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8')) as Fixture) }));

function schemaErrors(xml: string, route: Fixture['route']): string[] {
  return route === '/ubl' ? xsdErrors(xml, rootOf(xml)) : xmllintErrors(xml, loadConfig({}).ciiXsdFile);
}

describe('official examples restated as JSON requests', function () {
  this.timeout(60000);
  let service: TestService;
  before(async () => (service = await sharedService()));

  it('covers at least two UBL and two CII examples and a credit note', function () {
    expect(fixtures.filter((f) => f.route === '/ubl').length).to.be.at.least(2);
    expect(fixtures.filter((f) => f.route === '/cii').length).to.be.at.least(2);
    expect(fixtures.some((f) => f.body.type === 'credit_note')).to.equal(true);
  });

  for (const f of fixtures) {
    it(`${f.example}: every term of the example, at its place, in a valid ${f.route.slice(1).toUpperCase()}`, async function () {
      const res = await post(service, f.body, { path: f.route });
      const xml = await res.text();
      expect(res.status, xml.slice(0, 500)).to.equal(200);
      const example = fs.readFileSync(path.join(STANDARDS_DIR, 'examples', f.example), 'utf8');
      expect(missingTerms(semanticModel(example), semanticModel(xml))).to.deep.equal([]);
      expect(schemaErrors(xml, f.route)).to.deep.equal([]);
      const profile = (f.body.e_invoice as { profile?: string } | undefined)?.profile;
      const sets = f.route === '/cii' ? (['en16931Cii'] as const) : profile ? (['en16931'] as const) : (['en16931', 'peppol'] as const);
      for (const set of sets) {
        const fatal = rules(set)
          .validate(xml)
          .filter((r) => r.flag === 'fatal');
        expect(fatal, set).to.deep.equal([]);
      }
    });
  }

  it('finds a term that is missing or different (the comparison can fail)', function () {
    const example = fs.readFileSync(path.join(STANDARDS_DIR, 'examples', 'en16931-ubl', 'ubl-tc434-creditnote1.xml'), 'utf8');
    const changed = example
      .replace('<cbc:Name>My Supplier Company N.V.</cbc:Name>', '<cbc:Name>Other N.V.</cbc:Name>')
      .replace(/<cac:AdditionalItemProperty>[\s\S]*?<\/cac:AdditionalItemProperty>/, '');
    expect(missingTerms(semanticModel(example), semanticModel(changed))).to.deep.equal([
      'BG-4 > BT-28=My Supplier Company N.V.',
      'BG-25 > BG-31 > BG-32 (group of 2)',
    ]);
    // Amounts compare as numbers: 100.11 and 100.110 are one value, 100.12 is another.
    expect(missingTerms(semanticModel(example), semanticModel(example.replace(/>100\.11</g, '>100.110<')))).to.deep.equal([]);
    expect(missingTerms(semanticModel(example), semanticModel(example.replace(/>100\.11</, '>100.12<')))).to.have.length(1);
  });
});
