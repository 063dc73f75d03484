// Accept-Language read into language preferences (http/accept-language.ts): q-values order them, a refused (q=0) or
// malformed entry is left out, nothing is ever an error; with render/labels/locale.ts's choice, the locale a header gets.
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../server/config';
import { languagePreferences } from '../../../server/http/accept-language';
import { loadCatalogues } from '../../../server/render/labels/catalogues';
import { negotiateLocale } from '../../../server/render/labels/locale';

/** The languages of locales/ with their default tags (de-DE, en-US, es-ES, fr-FR, th-TH). */
const SUPPORTED = loadCatalogues(path.join(projectRoot(), 'locales')).defaultTags;

describe('Accept-Language', function () {
  it('orders the tags by weight, ties as sent, leaving out refused, malformed and empty entries', function () {
    expect(languagePreferences(undefined)).to.deep.equal([]);
    expect(languagePreferences('')).to.deep.equal([]);
    expect(languagePreferences('en;q=0.5, de-CH;q=0.9, fr')).to.deep.equal(['fr', 'de-CH', 'en']);
    expect(languagePreferences('es, it;q=1.0, pt')).to.deep.equal(['es', 'it', 'pt']);
    expect(languagePreferences('fr;q=0, de;q=abc, th-TH;q=0.3, es;q=1.5, *;q=0.1')).to.deep.equal(['th-TH', '*']);
    expect(languagePreferences(';;;,,,q=')).to.deep.equal(['q=']);
  });

  const cases: [string | undefined, string, string][] = [
    [undefined, 'en', 'en-US'],
    ['', 'en', 'en-US'],
    ['fr-FR', 'fr', 'fr-FR'],
    ['fr-CA', 'fr', 'fr-CA'],
    ['fr', 'fr', 'fr-FR'],
    ['de-CH;q=0.9, en;q=0.5', 'de', 'de-CH'],
    ['en;q=0.5, de-CH;q=0.9', 'de', 'de-CH'],
    ['xx-YY, es;q=0.2', 'es', 'es-ES'],
    ['*', 'en', 'en-US'],
    ['xx-YY', 'en', 'en-US'],
    ['th-TH', 'th', 'th-TH'],
    ['"><script>', 'en', 'en-US'],
    [';;;,,,q=', 'en', 'en-US'],
    ['fr;q=0, de', 'de', 'de-DE'],
    ['de;q=abc, th-TH;q=0.3', 'th', 'th-TH'],
    ['es;q=1.5, fr;q=0.2', 'fr', 'fr-FR'],
  ];
  for (const [header, language, tag] of cases) {
    it(`${JSON.stringify(header)} → ${tag}`, function () {
      expect(negotiateLocale(languagePreferences(header), SUPPORTED)).to.deep.equal({ language, tag });
    });
  }
});
