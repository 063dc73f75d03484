// The label catalogues (locales/) through i18n: per-type labels before shared ones, fixed texts filled in without
// HTML escaping (the templates escape once, at the end), each language's default regional tag, and start-up checks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../../server/config';
import { CatalogueError, loadCatalogues } from '../../../../server/render/labels/catalogues';

const LOCALES = path.join(projectRoot(), 'locales');

describe('label catalogues (i18n)', function () {
  const catalogues = loadCatalogues(LOCALES);

  it('gives a type its own label, else the shared one, in the language asked', function () {
    expect(catalogues.label('fr', 'receipt', 'header')).to.equal('REÇU');
    expect(catalogues.label('fr', 'invoice', 'header')).to.equal('FACTURE');
    expect(catalogues.label('fr', 'invoice', 'to_title')).to.equal('Facturer à');
    expect(catalogues.label('en', 'statement', 'item_header')).to.not.equal(catalogues.label('en', 'invoice', 'item_header'));
  });

  it('fills in fixed texts as sent: no HTML escaping, placeholders kept for the page counter', function () {
    expect(catalogues.text('en', 'rate_label', { label: 'R&D <levy> "x"', rate: '8%' })).to.equal('R&D <levy> "x" (8%)');
    expect(catalogues.text('fr', 'page_of', { page: '{{page}}', pages: '{{pages}}' })).to.equal('Page {{page}} sur {{pages}}');
  });

  it('answers a label asked again (kept after its first lookup) as i18n did, in each language and type, in any order', function () {
    const fresh = () => loadCatalogues(LOCALES);
    const types = ['invoice', 'receipt', 'credit_note', 'quote', 'statement'] as const;
    const keys = ['header', 'to_title', 'item_header', 'subtotal_title', 'balance_title', 'notes_title'];
    const asks = catalogues.languages.flatMap((l) => types.flatMap((t) => keys.map((k) => [l, t, k] as const)));
    // Each asked of its own fresh catalogues (nothing kept yet), then all of one in turn, twice, the second time in the
    // reverse order: a kept answer must be its own language's and type's.
    const first = asks.map(([l, t, k]) => fresh().label(l, t, k));
    const shared = fresh();
    expect(asks.map(([l, t, k]) => shared.label(l, t, k))).to.deep.equal(first);
    expect([...asks].reverse().map(([l, t, k]) => shared.label(l, t, k))).to.deep.equal([...first].reverse());
    expect(new Set(catalogues.languages.map((l) => shared.label(l, 'invoice', 'header'))).size).to.equal(catalogues.languages.length);
    // A text asked without its placeholders' values, then with them: filled in the second time.
    expect(shared.text('en', 'rate_label')).to.equal(' ()');
    expect(shared.text('en', 'rate_label', { label: 'VAT', rate: '8%' })).to.equal('VAT (8%)');
  });

  it("takes each language's default regional tag from its catalogue", function () {
    expect(catalogues.defaultTags).to.deep.equal({ de: 'de-DE', en: 'en-US', es: 'es-ES', fr: 'fr-FR', th: 'th-TH' });
    expect(catalogues.languages).to.deep.equal(['de', 'en', 'es', 'fr', 'th']);
  });

  it('refuses a catalogue without a default tag of its own language, or with a key en does not have', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-locales-'));
    fs.cpSync(LOCALES, dir, { recursive: true });
    const fr = JSON.parse(fs.readFileSync(path.join(dir, 'fr.json'), 'utf8'));
    fr.locale.default_tag = 'de-DE';
    fr.labels.extra_label = 'x';
    fs.writeFileSync(path.join(dir, 'fr.json'), JSON.stringify(fr));
    expect(() => loadCatalogues(dir))
      .to.throw(CatalogueError)
      .with.property('problems')
      .that.satisfies((p: string[]) => p.some((m) => /default_tag/.test(m)) && p.some((m) => /labels\.extra_label/.test(m)));
  });

  it("gives a unit's short name in the language, its plural form, nothing for a count, the code when unknown", function () {
    expect(['en', 'de', 'fr', 'es', 'th'].map((l) => catalogues.unit(l, 'HUR', 16))).to.deep.equal(['h', 'Std.', 'h', 'h', 'ชม.']);
    expect([catalogues.unit('en', 'DAY', 1), catalogues.unit('en', 'DAY', 2), catalogues.unit('de', 'DAY', 2)]).to.deep.equal([
      'day',
      'days',
      'Tage',
    ]);
    expect([catalogues.unit('en', 'C62', 3), catalogues.unit('de', 'H87', 3), catalogues.unit('en', 'XCR', 3)]).to.deep.equal([
      '',
      '',
      'XCR',
    ]);
    expect([catalogues.itemScheme('0160'), catalogues.itemScheme('0003')]).to.deep.equal(['GTIN', undefined]);
  });

  it('names only codes of the EN 16931 lists (codes/en16931.json), each unit in every language', function () {
    const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
    const lists = read(path.join(projectRoot(), 'codes', 'en16931.json')).lists;
    const units = Object.keys(read(path.join(LOCALES, 'units.json')).units);
    expect(units.length).to.be.at.least(40);
    expect(units.filter((c) => !lists.unit.codes.includes(c))).to.deep.equal([]);
    const schemes = Object.keys(read(path.join(LOCALES, 'item-schemes.json')).schemes);
    expect(schemes.filter((c) => !lists.item_scheme.codes.includes(c))).to.deep.equal([]);
  });

  it('refuses broken unit and scheme files, listing every problem', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-locales-'));
    fs.cpSync(LOCALES, dir, { recursive: true });
    const units = JSON.parse(fs.readFileSync(path.join(dir, 'units.json'), 'utf8'));
    delete units.units.HUR.de;
    units.units.KGM.xx = 'kg';
    units.units.DAY.en = { one: 'day' };
    units.units['hour!'] = { en: 'h', de: 'h', fr: 'h', es: 'h', th: 'h' };
    fs.writeFileSync(path.join(dir, 'units.json'), JSON.stringify(units));
    fs.writeFileSync(path.join(dir, 'item-schemes.json'), '{"schemes": {"160": "GTIN"');
    expect(() => loadCatalogues(dir))
      .to.throw(CatalogueError)
      .with.property('problems')
      .that.satisfies((p: string[]) =>
        [
          /HUR has no name in de/,
          /KGM names a language without a catalogue: xx/,
          /DAY\.en must be/,
          /hour! is not/,
          /item-schemes\.json: /,
        ].every((re) => p.some((m) => re.test(m))),
      );
  });
});
