// The label catalogues (locales/) through i18n: per-type labels before shared ones, fixed texts filled in without
// HTML escaping (the templates escape once, at the end), each language's default regional tag, and start-up checks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../server/config';
import { CatalogueError, loadCatalogues } from '../../../server/render/catalogues';

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
});
