// The language marked on a block in another script than the document's: the dominant script decides, the
// document's own script (and Japanese's mix of kanji and kana) is not marked, Latin in a non-Latin document is
// und-Latn, text without letters is not marked.
import { expect } from 'chai';
import { blockLanguage, dominantScript } from '../../../../server/render/fonts/script-language';

describe('block language (script-language)', function () {
  it('marks Arabic, Bengali, Cyrillic and Han blocks in an English document', function () {
    expect(blockLanguage('شركة النور للتجارة', 'en-US')).to.equal('ar');
    expect(blockLanguage('রবীন্দ্র রচনাবলী', 'en-US')).to.equal('bn');
    expect(blockLanguage('ООО «Ромашка»', 'de-DE')).to.equal('ru');
    expect(blockLanguage('北京贸易有限公司', 'fr')).to.equal('zh');
  });

  it('leaves Latin text, accents included, and text without letters unmarked in a Latin document', function () {
    expect(blockLanguage('Bäckerei Müller GmbH', 'de-DE')).to.equal(undefined);
    expect(blockLanguage('INV-2026-0042', 'en-US')).to.equal(undefined);
    expect(blockLanguage('1 234,56 € — 12 %', 'fr-FR')).to.equal(undefined);
  });

  it('goes by the script with the most letters: an Arabic name with a Latin word is Arabic', function () {
    expect(dominantScript('شركة النور للتجارة LLC')).to.equal('Arab');
    expect(blockLanguage('Acme Corporation (شركة)', 'en')).to.equal(undefined);
  });

  it('marks Latin in a Thai document und-Latn, and not Thai itself; Japanese kana and kanji stay unmarked in Japanese', function () {
    expect(blockLanguage('Acme Corp', 'th-TH')).to.equal('und-Latn');
    expect(blockLanguage('บริษัท ตัวอย่าง จำกัด', 'th-TH')).to.equal(undefined);
    expect(blockLanguage('株式会社サンプル', 'ja-JP')).to.equal(undefined);
    expect(blockLanguage('株式会社サンプル', 'en-US')).to.equal('ja');
  });
});
