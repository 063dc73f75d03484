// Accept-Language negotiation (docs/decisions.md §3): never an error, the best supported language, the full tag kept.
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../server/config';
import { loadCatalogues } from '../../../server/render/catalogues';
import { negotiateLocale } from '../../../server/render/locale';

/** The languages of locales/ with their default tags (de-DE, en-US, es-ES, fr-FR, th-TH). */
const SUPPORTED = loadCatalogues(path.join(projectRoot(), 'locales')).defaultTags;

describe('Accept-Language negotiation', function () {
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
      expect(negotiateLocale(header, SUPPORTED)).to.deep.equal({ language, tag });
    });
  }
});
