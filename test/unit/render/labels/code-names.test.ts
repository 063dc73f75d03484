// The codes of a received e-invoice in words (locales/code-names.json, render/labels/code-names.ts), loaded with the label
// catalogues: a name in every language, only codes of the EN 16931 lists, and a broken file refused at start-up
// with every problem listed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../../server/config';
import { CatalogueError, loadCatalogues } from '../../../../server/render/labels/catalogues';

const LOCALES = path.join(projectRoot(), 'locales');
const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('code names of received e-invoices (locales/code-names.json)', function () {
  const catalogues = loadCatalogues(LOCALES);

  it('names VAT categories, payment means and VAT point date codes in each language; nothing for an unlisted code', function () {
    expect(['en', 'de', 'fr', 'es'].map((l) => catalogues.codeName(l, 'vat_category', 'AE'))).to.deep.equal([
      'Reverse charge',
      'Steuerschuldnerschaft des Leistungsempfängers',
      'Autoliquidation',
      'Inversión del sujeto pasivo',
    ]);
    expect(catalogues.codeName('de', 'payment_means', '58')).to.equal('SEPA-Überweisung');
    expect(catalogues.codeName('fr', 'vat_point', '432')).to.equal('Date de paiement');
    expect([catalogues.codeName('en', 'payment_means', '31'), catalogues.codeName('en', 'vat_category', 'X')]).to.deep.equal([
      undefined,
      undefined,
    ]);
  });

  it('names only codes of the EN 16931 lists, every VAT category of the schema among them', function () {
    const { lists } = read(path.join(LOCALES, 'code-names.json'));
    const en = read(path.join(projectRoot(), 'codes', 'en16931.json')).lists;
    expect(Object.keys(lists.payment_means).filter((c) => !en.payment_means.codes.includes(c))).to.deep.equal([]);
    expect(Object.keys(lists.vat_category).sort()).to.deep.equal(['AE', 'E', 'G', 'K', 'L', 'M', 'O', 'S', 'Z']);
    expect(Object.keys(lists.vat_point).sort()).to.deep.equal(['3', '35', '432']);
  });

  it('refuses a broken file at start-up, listing every problem', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-code-names-'));
    fs.cpSync(LOCALES, dir, { recursive: true });
    const file = path.join(dir, 'code-names.json');
    const names = read(file);
    delete names.lists.vat_category.S.de;
    names.lists.payment_means['58'].xx = 'SEPA';
    delete names.lists.vat_point;
    fs.writeFileSync(file, JSON.stringify(names));
    expect(() => loadCatalogues(dir))
      .to.throw(CatalogueError)
      .with.property('problems')
      .that.deep.equals([
        'code-names.json: vat_category S has no name in de',
        'code-names.json: payment_means 58 names a language without a catalogue: xx',
        'code-names.json: the list vat_point is missing or not an object of codes',
      ]);
    fs.writeFileSync(file, '{"lists": ');
    expect(() => loadCatalogues(dir))
      .to.throw(CatalogueError)
      .with.property('problems')
      .that.satisfies((p: string[]) => p.some((m) => m.startsWith('code-names.json: ')));
  });
});
