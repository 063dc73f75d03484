// Which blocks need dir="auto" (render/fonts/own-direction.ts), and the item cells the template writes without a block
// inside them: plain left-to-right text is the cell's own content; right-to-left text, combining marks, details and
// adjustment rows keep their block with its direction and clip.
import { expect } from 'chai';
import { loadConfig } from '../../../../server/config';
import { DocumentPipeline } from '../../../../server/pipeline';
import type { PdfRenderer } from '../../../../server/pdf/renderer';
import { needsOwnDirection } from '../../../../server/render/fonts/own-direction';
import { projectAssets } from '../../../helpers/project-assets';

describe('own direction (render/fonts/own-direction.ts)', function () {
  it('right-to-left letters and marks, and combining marks, need their own block; other text does not', function () {
    for (const text of ['مرحبا بالعالم', 'Invoice שלום', 'Line\u200F 2', 'Cafe\u0301', 'হ্যালো', 'ที่อยู่', 'Z̸̢a̵l̷g̶o'])
      expect(needsOwnDirection(text), text).to.equal(true);
    for (const text of ['Charge 12', 'Ünïcödé Straße', 'ไทย', '日本語の請求書', 'Ελλάδα', 'Москва', '', '$1,234.50'])
      expect(needsOwnDirection(text), text).to.equal(false);
  });

  describe('item cells as printed', function () {
    let pipeline: DocumentPipeline;
    before(function () {
      const config = loadConfig({ DOCUMENT_TIME_ZONE: 'UTC' });
      pipeline = new DocumentPipeline(projectAssets(config.limits), {} as PdfRenderer, undefined, config);
    });
    const body = async (items: unknown[]) =>
      (await pipeline.renderHtml(pipeline.prepare({ from: 'A', to: 'B', items }, pipeline.locale(['en-US'])))).parts.body;

    it('plain text is the cell itself; Arabic text and combining marks keep a block with dir="auto"', async function () {
      const html = await body([
        { name: 'Consulting', quantity: 1, unit_cost: 10 },
        { name: 'استشارات', quantity: 1, unit_cost: 10 },
        { name: 'Cafe\u0301', quantity: 1, unit_cost: 10 },
      ]);
      expect(html).to.include('<td class="align-left doc-multiline doc-item__name doc-item__name--alone">Consulting</td>');
      expect(html).to.match(
        /<td class="align-left"><div class="doc-multiline doc-item__name doc-item__name--alone" dir="auto"[^>]*>استشارات<\/div><\/td>/,
      );
      expect(html).to.match(
        /<td class="align-left"><div class="doc-multiline doc-item__name doc-item__name--alone" dir="auto"[^>]*>Cafe\u0301<\/div><\/td>/,
      );
      // No line has a description: the names are plain (doc-items--described would set them in the item weight).
      expect(html).to.include('<table class="doc-items">');
    });

    it('a description or details keep the name in a block of its own', async function () {
      const html = await body([{ name: 'Widget', description: 'Blue, large', quantity: 1, unit_cost: 10 }]);
      expect(html).to.include('<div class="doc-item__name">Widget</div><div class="doc-item__description doc-multiline">Blue, large</div>');
    });

    it('one line with a description: every name of the table in the item weight (before: bold only where described)', async function () {
      const html = await body([
        { name: 'Widget', description: 'Blue, large', quantity: 1, unit_cost: 10 },
        { name: 'Gadget', quantity: 1, unit_cost: 10 },
      ]);
      expect(html).to.include('<table class="doc-items doc-items--described">');
      // The details' short labels are kept on one line (a long value beside them took the width and broke them).
      expect(html).to.match(/<th scope="row" class="doc-nowrap">Date<\/th>/);
      expect(html).to.include('<td class="align-left doc-multiline doc-item__name doc-item__name--alone">Gadget</td>');
    });
  });
});
