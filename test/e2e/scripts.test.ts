// Every major business script, and letters with combining marks, print with the project's own fonts: for a line of each, pdffonts lists an embedded
// font of the family that covers it, no glyph is a box, and the page differs from the same line drawn with the
// `.notdef` glyph (the same HTML with only the Latin font left, which the printer's isolated fontconfig cannot
// help), so a missing glyph fails. Right-to-left blocks are laid out right to left, numbers inside them whole.
import { expect } from 'chai';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { pdfText } from '../helpers/pdf';
import { embeddedFonts, notdefGlyphs, wordBoxes } from '../helpers/pdf-layout';
import { sharedService, type TestService } from '../helpers/service';
import { pdfToPng } from '../helpers/visual';

/** A line in each script, and the font family (as pdffonts names it) that must draw it. */
const SCRIPTS: [script: string, line: string, font: RegExp][] = [
  ['Arabic', 'فاتورة ضريبية مبسطة', /^NotoSansArabic/],
  ['Hebrew', 'חשבונית מס קבלה', /^NotoSansHebrew/],
  ['Devanagari', 'कर चालान और भुगतान', /^NotoSansDevanagari/],
  ['Bengali', 'চালান ও পরিশোধ', /^NotoSansBengali/],
  ['Tamil', 'விலைப்பட்டியல் தொகை', /^NotoSansTamil/],
  ['Telugu', 'ఇన్వాయిస్ మొత్తం', /^NotoSansTelugu/],
  ['Gujarati', 'ભરતિયું કુલ રકમ', /^NotoSansGujarati/],
  ['Gurmukhi', 'ਬਿੱਲ ਕੁੱਲ ਰਕਮ', /^NotoSansGurmukhi/],
  ['Kannada', 'ಸರಕುಪಟ್ಟಿ ಮೊತ್ತ', /^NotoSansKannada/],
  ['Malayalam', 'ഇൻവോയ്സ് തുക', /^NotoSansMalayalam/],
  ['Sinhala', 'ඉන්වොයිසිය මුදල', /^NotoSansSinhala/],
  ['Thai', 'ใบแจ้งหนี้ ยอดรวม', /^NotoSansThai/],
  ['Khmer', 'វិក្កយបត្រ សរុប', /^NotoSansKhmer/],
  ['Lao', 'ໃບແຈ້ງໜີ້ ລວມ', /^NotoSansLao/],
  ['Myanmar', 'ငွေတောင်းခံလွှာ စုစုပေါင်း', /^NotoSansMyanmar/],
  ['Georgian', 'ანგარიში-ფაქტურა ჯამი', /^NotoSansGeorgian/],
  ['Armenian', 'Հաշիվ-ապրանքագիր ընդամենը', /^NotoSansArmenian/],
  ['Ethiopic', 'ደረሰኝ ጠቅላላ ድምር', /^NotoSansEthiopic/],
  ['Mongolian', 'ᠨᠡᠬᠡᠮᠵᠢᠯᠡᠬᠦ ᠪᠢᠴᠢᠭ ᠳᠦᠩ', /^NotoSansMongolian/],
  ['Greek', 'Τιμολόγιο σύνολο', /^NotoSans-/],
  ['Cyrillic', 'Счёт-фактура итого', /^NotoSans-/],
  ['Vietnamese', 'Hóa đơn điện tử tổng cộng', /^NotoSans-/],
  ['Japanese', '請求書 ありがとうございます', /^NotoSansJP/],
  ['Korean', '청구서 합계 금액', /^NotoSansKR/],
  ['Simplified Chinese', '增值税发票 数量 单价', /^NotoSansSC/],
  ['Traditional Chinese', '統一發票 營業稅 數量 單價', /^NotoSansTC/],
  ['Emoji', '🚚 📦 ✅ ☕ 🎉 👍🏽', /^NotoEmoji/],
  // Letters with combining marks that have no precomposed form (Noto Sans' Google subsets keep only eight marks): a
  // circumflex and a macron below, a ring below, a strikethrough overlay, a phonetic tie.
  ['Combining marks', 'x\u0302 m\u0331 t\u0325 Z\u0336e\u0336r\u0336o\u0336 t\u0361\u0283', /^DejaVuSans/],
];

/** The same HTML with every font but Noto Sans' basic Latin subset removed: other scripts print as boxes. */
function latinOnly(html: string): string {
  return html.replace(/@font-face\s*{[^}]*}/g, (face) => (/unicode-range:\s*U\+0000-00FF,/.test(face) ? face : ''));
}

function differingPixels(a: Buffer, b: Buffer): number {
  const pa = PNG.sync.read(a);
  const pb = PNG.sync.read(b);
  return pixelmatch(pa.data, pb.data, undefined, pa.width, pa.height, { threshold: 0.1 });
}

describe('scripts: every major script has its font', function () {
  this.timeout(60000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  async function render(line: string, extra: Record<string, unknown> = {}) {
    const pipeline = service.pipeline;
    const prepared = pipeline.prepare(
      { from: 'Northwind Traders', to: 'Contoso', items: [{ name: line, quantity: 1, unit_cost: 10 }], ...extra },
      pipeline.locale(['en-US']),
    );
    return pipeline.renderPdf(prepared);
  }

  for (const [script, line, font] of SCRIPTS) {
    it(`${script}: ${line}`, async function () {
      const { pdf, html } = await render(line);
      const fonts = embeddedFonts(pdf);
      expect(
        fonts.filter((f) => font.test(f.name) && f.embedded).map((f) => f.name),
        `fonts: ${fonts.map((f) => f.name).join(', ')}`,
      ).to.not.deep.equal([]);
      expect(
        fonts.every((f) => f.embedded && /^(Noto|DejaVu)/.test(f.name)),
        "only the project's fonts, embedded",
      ).to.equal(true);
      expect(notdefGlyphs(pdf), 'boxes').to.equal(0);
      // The text can be searched and copied (pdftotext writes right-to-left text in visual order: not compared).
      if (!/[\p{Script=Arabic}\p{Script=Hebrew}]/u.test(line)) {
        const flat = (s: string) => s.normalize('NFKC').replace(/\s+/g, '');
        expect(flat(pdfText(pdf))).to.contain(flat(line));
      }

      // The same line drawn with boxes: detectably boxes, and visibly different.
      const boxed = await service.pdf.render(latinOnly(html.html), { format: 'letter' });
      expect(notdefGlyphs(boxed), 'the Latin-only copy draws boxes').to.be.greaterThan(0);
      const again = await render(line);
      expect(differingPixels(pdfToPng(pdf), pdfToPng(again.pdf)), 'the same line twice').to.equal(0);
      expect(differingPixels(pdfToPng(pdf), pdfToPng(boxed)), 'the line against its boxes').to.be.greaterThan(15);
    });
  }

  it('right-to-left blocks run right to left, with their numbers whole', async function () {
    const notes = 'المبلغ المستحق 1,250.00 دولار حتى 2026-12-31\nIBAN SA03 8000 0000 6080 1016 7519';
    const { pdf } = await render('خدمات استشارية', { notes, to: 'شركة النور للتجارة\nالرياض 12211' });
    const [page] = wordBoxes(pdf);
    const left = 0.6 * 72;
    const right = page!.width - left;
    const lineOf = (text: string) => {
      const anchor = page!.words.find((w) => w.text.includes(text))!;
      const middle = (anchor.yMin + anchor.yMax) / 2;
      return page!.words.filter((w) => w.yMin < middle && w.yMax > middle).sort((a, b) => a.xMin - b.xMin);
    };
    // The Arabic line of the notes ends at the right margin and reads from there: its rightmost word is Arabic, the
    // amount whole in the middle, the date (the end of the sentence) leftmost. The Latin line starts at the left.
    const arabic = lineOf('1,250.00');
    expect(right - arabic.at(-1)!.xMax).to.be.lessThan(2);
    expect(arabic.at(-1)!.text).to.match(/\p{Script=Arabic}/u);
    expect(arabic[0]!.text).to.contain('2026');
    expect(arabic[0]!.xMin).to.be.greaterThan(left + 100);
    expect(lineOf('IBAN')[0]!.xMin).to.be.closeTo(left, 2);
    // The buyer's Arabic address runs right to left in its block, whose label stays where the block starts.
    expect(pdfText(pdf)).to.contain('1,250.00');
  });

  it('mathematical letters ("fancy text": 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, 𝐁𝐨𝐥𝐝) print as the letters they style, in every field, never as boxes', async function () {
    const { pdf } = await render('𝐁𝐨𝐥𝐝 𝐖𝐢𝐝𝐠𝐞𝐭 𝟏𝟐', { from: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝔗𝔯𝔞𝔡𝔢𝔯𝔰', notes: '𝓣𝓱𝓪𝓷𝓴 𝔂𝓸𝓾' });
    expect(notdefGlyphs(pdf), 'boxes').to.equal(0);
    const text = pdfText(pdf);
    for (const word of ['Bold Widget 12', 'Unicode Traders', 'Thank you']) expect(text).to.contain(word);
  });
});
