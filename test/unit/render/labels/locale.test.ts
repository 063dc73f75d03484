// The locale chosen from a client's language preferences (docs/decisions.md §3): never an error, the best supported
// language, the full tag kept (the header read into preferences: test/unit/http/accept-language.test.ts).
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../../server/config';
import { loadCatalogues } from '../../../../server/render/labels/catalogues';
import { negotiateLocale } from '../../../../server/render/labels/locale';

/** The languages of locales/ with their default tags (de-DE, en-US, es-ES, fr-FR, th-TH). */
const SUPPORTED = loadCatalogues(path.join(projectRoot(), 'locales')).defaultTags;

describe('locale negotiation', function () {
  const cases: [string[], string, string][] = [
    [[], 'en', 'en-US'],
    [['fr-FR'], 'fr', 'fr-FR'],
    [['fr-CA'], 'fr', 'fr-CA'],
    [['fr'], 'fr', 'fr-FR'],
    [['de-CH', 'en'], 'de', 'de-CH'],
    [['xx-YY', 'es'], 'es', 'es-ES'],
    [['*', 'fr'], 'en', 'en-US'],
    [['xx-YY'], 'en', 'en-US'],
    [['th-TH'], 'th', 'th-TH'],
    [['"><script>', ''], 'en', 'en-US'],
    [['zh-Hant-TW', 'de'], 'de', 'de-DE'],
    // Extensions are left out: a header does not change a document's digits, calendar or anything else of its tag.
    [['de-DE-u-nu-arab'], 'de', 'de-DE'],
    [['fr-u-ca-islamic'], 'fr', 'fr-FR'],
    [['en-US-u-ca-buddhist-nu-hanidec'], 'en', 'en-US'],
    [['es-ES-x-private', 'en'], 'es', 'es-ES'],
    [['de-CH-1996'], 'de', 'de-CH-1996'],
  ];
  for (const [preferences, language, tag] of cases) {
    it(`${JSON.stringify(preferences)} → ${tag}`, function () {
      expect(negotiateLocale(preferences, SUPPORTED)).to.deep.equal({ language, tag });
    });
  }
});
