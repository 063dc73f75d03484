// Real data, read off the page: every corpus document (test/helpers/corpus.ts) in both themes, through the service's
// pipeline and real Chromium. On every page a reader must find each number whole on one line, no word outside the
// margins, no box where a glyph should be, only the project's own fonts, and a sane page count; page one also
// matches its visual baseline (test/visual/baselines/corpus, `npm run visual:update` rewrites them).
import { expect } from 'chai';
import { pdfPageCount, pdfText } from '../helpers/pdf';
import { corpus, renderCorpus } from '../helpers/corpus';
import { embeddedFonts, notdefGlyphs, wordBoxes, type PageBoxes } from '../helpers/pdf-layout';
import { sharedService, type TestService } from '../helpers/service';
import { compareWithBaseline, pdfToPng } from '../helpers/visual';
import { THEMES } from '../helpers/themes';

/** themes/base.css @page margins, in points. */
const MARGIN = { top: 0.55 * 72, right: 0.6 * 72, bottom: 0.75 * 72, left: 0.6 * 72 };
/** Glyph boxes are the font's ascent and descent: a little room beyond the content box. */
const SLACK = 1.5;

const decodeHtml = (s: string): string =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** Spaces of every width as one plain space: pdftotext writes a narrow no-break space as it likes. */
const spaces = (s: string): string => s.replace(/[\s\u00a0\u202f\u2009]+/g, ' ').trim();

/** Every number the HTML prints: the items' numeric cells, the total lines and the summary box. */
export function printedNumbers(html: string): string[] {
  const found = [
    ...[...html.matchAll(/class="[^"]*\bdoc-num\b[^"]*">([^<]+)<\/td>/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<tr class="doc-(?:total|summary)[^"]*"><th scope="row">[^<]*<\/th><td>([^<]+)<\/td>/g)].map((m) => m[1]!),
  ];
  return [...new Set(found.map((s) => spaces(decodeHtml(s))).filter((s) => s !== ''))];
}

/** Words outside the page's content box; the page counter lives in the bottom margin, at the right. */
export function wordsOutsideMargins(pages: PageBoxes[]): string[] {
  const out: string[] = [];
  for (const { width, height, words } of pages) {
    for (const w of words) {
      const inFooter = w.yMin >= height - MARGIN.bottom - SLACK;
      const ok =
        w.xMin >= MARGIN.left - SLACK &&
        w.xMax <= width - MARGIN.right + SLACK &&
        w.yMin >= MARGIN.top - SLACK &&
        (inFooter ? w.yMax <= height : w.yMax <= height - MARGIN.bottom + SLACK);
      if (!ok)
        out.push(
          `p${w.page} "${w.text.slice(0, 30)}" at x ${w.xMin.toFixed(1)}–${w.xMax.toFixed(1)}, y ${w.yMin.toFixed(1)}–${w.yMax.toFixed(1)} (page ${width}×${height})`,
        );
    }
  }
  return out;
}

describe('corpus: real documents hold up on the page', function () {
  this.timeout(180000);
  let service: TestService;
  const visual: string[] = [];
  before(async function () {
    service = await sharedService();
  });
  after(function () {
    if (visual.length) console.log(`      corpus visual: ${visual.length} renders compared; largest difference ${visual.sort().at(-1)}`);
  });

  for (const doc of corpus()) {
    for (const theme of THEMES) {
      it(`${doc.name} / ${theme}`, async function () {
        const { html, pdf } = await renderCorpus(service.pipeline, doc, theme);

        const lines = pdfText(pdf).split('\n').map(spaces);
        const numbers = printedNumbers(html);
        expect(numbers.length, 'the document prints numbers').to.be.greaterThan(0);
        const split = numbers.filter((n) => !lines.some((line) => line.includes(n)));
        expect(split, 'numbers not whole on one line of pdftotext -layout').to.deep.equal([]);

        expect(wordsOutsideMargins(wordBoxes(pdf)), 'words outside the margins').to.deep.equal([]);

        const pages = pdfPageCount(pdf);
        expect(pages, 'page count').to.be.within(doc.pages[0], doc.pages[1]);

        expect(notdefGlyphs(pdf), 'glyphs drawn as boxes (.notdef)').to.equal(0);
        const foreign = embeddedFonts(pdf).filter((f) => !f.embedded || !/^(Noto|DejaVu)/.test(f.name));
        expect(foreign, "fonts that are not the project's, or not embedded").to.deep.equal([]);

        const result = compareWithBaseline(`corpus/${doc.name}-${theme}`, pdfToPng(pdf));
        visual.push(`${(result.ratio * 100).toFixed(3).padStart(7)} % (${doc.name}/${theme})`);
        expect(result.passed, `${result.differing} pixels differ from the baseline; diff: ${result.diffFile}`).to.equal(true);
      });
    }
  }
});
