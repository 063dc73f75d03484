// The fonts loader (render/fonts/fonts.ts) with the real themes/fonts.json and the installed @fontsource packages: which
// subset files a document's text pulls in (per script, CJK by the text's variant, by the fonts' real cmaps rather
// than their declared ranges), how each is inlined, the page's font stack, and start-up errors listing every problem.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../../server/config';
import { FontLoadError, loadFonts, type FontSet } from '../../../../server/render/fonts/fonts';

const ROOT = projectRoot();
const resolvePackage = (name: string): string => require.resolve(name, { paths: [ROOT] });
const LATIN = ['noto-sans/noto-sans-latin-400-normal.woff2', 'noto-sans/noto-sans-latin-700-normal.woff2'];

describe('fonts for a text', function () {
  let fonts: FontSet;
  before(function () {
    fonts = loadFonts(path.join(ROOT, 'themes', 'fonts.json'), resolvePackage);
  });
  /** The inlined files, as `package/file` without the @fontsource scope. */
  const files = (text: string): string[] => fonts.forText(text).faces.map((f) => f.id.replace(/^@fontsource\//, ''));
  /** The packages of the inlined files, each once. */
  const packages = (text: string): string[] => [...new Set(files(text).map((id) => id.split('/')[0]!))];
  const families = (text: string): string[] => [
    ...new Set(
      [
        ...fonts
          .forText(text)
          .faces.map((f) => f.css)
          .join('')
          .matchAll(/font-family: '([^']+)'/g),
      ].map((m) => m[1]!),
    ),
  ];

  it('answers a text as a fresh loader would, whatever texts came before (ASCII faces are found once per order)', function () {
    const cases: [string, string | undefined][] = [
      ['Invoice 42', undefined],
      ['Invoice 42', 'Arimo'],
      ['漢字 Invoice 42', undefined],
      ['Invoice 42', 'DejaVu Sans'],
      ['Ελληνικά 42, Invoice', 'Arimo'],
      ['Invoice 42', undefined],
    ];
    const answer = (set: FontSet, [text, lead]: [string, string | undefined]) => {
      const { faces, stack } = set.forText(text, undefined, lead);
      return { faces: faces.map((f) => f.id), stack };
    };
    const seen = new Set<string>();
    for (const c of cases) {
      const fresh = answer(loadFonts(path.join(ROOT, 'themes', 'fonts.json'), resolvePackage), c);
      expect(answer(fonts, c), c.join(' / ')).to.deep.equal(fresh);
      seen.add(fresh.faces.join());
    }
    // The leads change the faces: the cases would tell an order's ASCII faces given to another.
    expect(seen.size).to.be.at.least(3);
  });

  it('keeps a Latin invoice to the basic Latin subset in two weights, whatever its amounts and punctuation', function () {
    expect(files('')).to.deep.equal(LATIN);
    expect(files('Invoice 42')).to.deep.equal(LATIN);
    expect(files('Rechnung über 1.234.567,89 € — Zahlbar in 14 Tagen')).to.deep.equal(LATIN);
    expect(fonts.forText('Invoice 42 — Acme Corp, 1,250.00 €').faces).to.have.length(2);
  });

  it('adds the Noto Sans subset a European script needs, not another family', function () {
    expect(files('Счёт-фактура № 17')).to.have.members([
      ...LATIN,
      'noto-sans/noto-sans-cyrillic-400-normal.woff2',
      'noto-sans/noto-sans-cyrillic-700-normal.woff2',
    ]);
    expect(packages('Hóa đơn điện tử')).to.deep.equal(['noto-sans']);
    expect(files('Hóa đơn điện tử')).to.include('noto-sans/noto-sans-vietnamese-400-normal.woff2');
  });

  it("pulls in each script's own family for right-to-left and Indic text, digits and vowel marks included", function () {
    // Arabic with Arabic-Indic digits and harakat (the marks go with their letter, in the Arabic family).
    expect(files('فاتورة ضريبية رقم ١٢٣ — مُحَمَّد')).to.deep.equal([
      ...LATIN,
      'noto-sans-arabic/noto-sans-arabic-arabic-400-normal.woff2',
      'noto-sans-arabic/noto-sans-arabic-arabic-700-normal.woff2',
    ]);
    expect(packages('חשבונית מס 2024')).to.deep.equal(['noto-sans', 'noto-sans-hebrew']);
    expect(files('চালান বাংলা ৳ ১২৩')).to.deep.equal([
      ...LATIN,
      'noto-sans-bengali/noto-sans-bengali-bengali-400-normal.woff2',
      'noto-sans-bengali/noto-sans-bengali-bengali-700-normal.woff2',
    ]);
    expect(families('বাংলা')).to.deep.equal(['Noto Sans', 'Noto Sans Bengali']);
    expect(packages('चालान क्षत्रिय')).to.deep.equal(['noto-sans', 'noto-sans-devanagari']);
    expect(packages('ใบแจ้งหนี้')).to.deep.equal(['noto-sans', 'noto-sans-thai']);
    expect(packages('தமிழ்')).to.deep.equal(['noto-sans', 'noto-sans-tamil']);
    expect(packages('ኢትዮጵያ')).to.deep.equal(['noto-sans', 'noto-sans-ethiopic']);
    // A mixed document gets every family it uses, in fonts.json order.
    expect(packages('Invoice فاتورة חשבונית চালান')).to.deep.equal([
      'noto-sans',
      'noto-sans-arabic',
      'noto-sans-hebrew',
      'noto-sans-bengali',
    ]);
  });

  it('draws Han characters in the CJK family matching the text, and only the numbered slices that hold them', function () {
    const cjk = (text: string): string[] => packages(text).filter((p) => p !== 'noto-sans');
    expect(cjk('請求書 合計金額 ありがとうございます')).to.deep.equal(['noto-sans-jp']);
    expect(cjk('청구서 합계 금액')).to.deep.equal(['noto-sans-kr']);
    expect(cjk('增值税专用发票 数量 单价 合计')).to.deep.equal(['noto-sans-sc']);
    expect(cjk('臺北市 數量 單價 總計')).to.deep.equal(['noto-sans-tc']);
    // The most common Han characters (一, 發, 的, …) are in TC slice 119 and SC slice 101, whose WOFF fontkit cannot
    // read: their coverage comes from the WOFF2, not from a Japanese slice.
    expect(cjk('統一發票 的 國')).to.deep.equal(['noto-sans-tc']);
    expect(files('統一發票')).to.include.members(['noto-sans-tc/noto-sans-tc-119-400-normal.woff2']);
    expect(cjk('一个 的 国')).to.deep.equal(['noto-sans-sc']);
    for (const id of files('增值税专用发票')) expect(id).to.match(/^noto-sans(-sc)?\/noto-sans(-sc)?-(latin|\d+)-(400|700)-normal\.woff2$/);
    // Fewer than a dozen slices for a line of Chinese, not the ~100 of the whole font.
    expect(files('增值税专用发票 数量 单价 合计').length).to.be.below(16);
  });

  it('chooses for each character a family that really has its glyph', function () {
    // Ranges claim more than the files draw: an SC slice claims ✅ and Noto Sans Arabic's symbols claim 📦.
    expect(families('✅ 📦')).to.deep.equal(['Noto Sans', 'Noto Emoji']);
    // A joiner goes with the character before it and pulls in no family of its own.
    expect(families('ক্ষ\u200d')).to.deep.equal(['Noto Sans', 'Noto Sans Bengali']);
    // A character no family draws (private use) adds nothing, and is no error.
    expect(files('\uE000\uF8FF')).to.deep.equal(LATIN);
  });

  it('draws a combining mark no Noto family has with DejaVu Sans, last, and leaves the marks Noto Sans has to it', function () {
    // Google Fonts' Noto Sans subsets keep U+0300, 0301, 0303, 0304, 0308, 0309, 0323 and 0329 only.
    expect(packages('Cafe\u0301 Nguye\u0303n')).to.deep.equal(['noto-sans']);
    // A mark Noto Sans lacks on a letter it composes into one Noto Sans has: š, ç, ê, ế (the shaper composes them).
    expect(packages('S\u030Ckoda Franc\u0327ois Re\u0302ve Nguye\u0302\u0301n')).to.deep.equal(['noto-sans']);
    // x̂ and m̱ have no precomposed form; U+0336 strikes through; t͡ʃ ties two letters (phonetic transcription).
    for (const text of ['x\u0302', 'm\u0331', 'Z\u0336e\u0336r\u0336o\u0336', 't\u0361\u0283'])
      expect(packages(text), text).to.deep.equal(['noto-sans', 'dejavu-sans']);
    expect(files('Z\u0336')).to.deep.equal([
      ...LATIN,
      'dejavu-sans/dejavu-sans-latin-400-normal.woff2',
      'dejavu-sans/dejavu-sans-latin-700-normal.woff2',
    ]);
    // The medieval superscript letters (U+0363-036F): no family draws them, nothing is added.
    expect(files('a\u0363')).to.deep.equal(LATIN);
    // What the shaper never draws chooses no font: a left-to-right mark, the word joiner, the grapheme joiner.
    for (const text of ['abc\u200edef', 'a\u2060b', 'a\u034fb', 'soft\u00adhyphen']) expect(files(text), text).to.deep.equal(LATIN);
  });

  it('lists every family once in the stack, the CJK family matching the text first among the CJK ones', function () {
    const stack = (text: string): string[] => fonts.forText(text).stack.split(', ');
    const latin = stack('Invoice');
    expect(latin[0]).to.equal("'Noto Sans'");
    expect(latin).to.have.length(28);
    expect(latin.at(-1)).to.equal("'DejaVu Sans'");
    for (const text of ['Invoice', '統一發票', '請求書です', '청구서']) {
      expect(new Set(stack(text)).size, text).to.equal(latin.length);
      expect(stack(text)).to.have.members(latin);
    }
    const cjkOrder = (text: string): string[] => stack(text).filter((f) => /Noto Sans (JP|KR|SC|TC)/.test(f));
    expect(cjkOrder('Invoice')).to.deep.equal(["'Noto Sans JP'", "'Noto Sans KR'", "'Noto Sans SC'", "'Noto Sans TC'"]);
    expect(cjkOrder('統一發票')[0]).to.equal("'Noto Sans TC'");
    expect(cjkOrder('増値税 ありがとう')[0]).to.equal("'Noto Sans JP'");
    expect(cjkOrder('청구서 合計')[0]).to.equal("'Noto Sans KR'");
    expect(cjkOrder('增值税发票')[0]).to.equal("'Noto Sans SC'");
  });

  it("sets the QR-bill's text in Arimo (fonts.json `only`), which is never a fallback nor in the stack", function () {
    expect(packages('Zahlteil Empfangsschein Währung 1 949.75')).to.deep.equal(['noto-sans']);
    expect(fonts.forText('Invoice').stack).to.not.include('Arimo');
    const withBill = fonts.forText('Invoice', { use: 'qr-bill', text: 'Zahlteil Währung Récépissé Ș €' }).faces.map((f) => f.id);
    expect(withBill.filter((id) => id.includes('arimo'))).to.deep.equal([
      '@fontsource/arimo/arimo-latin-ext-400-normal.woff2',
      '@fontsource/arimo/arimo-latin-400-normal.woff2',
      '@fontsource/arimo/arimo-latin-ext-700-normal.woff2',
      '@fontsource/arimo/arimo-latin-700-normal.woff2',
    ]);
    // Another use names no family: nothing more.
    expect(fonts.forText('Invoice', { use: 'other', text: 'Zahlteil' }).faces.map((f) => f.id)).to.deep.equal(
      fonts.forText('Invoice').faces.map((f) => f.id),
    );
  });

  it('inlines each chosen file whole as a data: URI, keeping its weight and unicode-range', function () {
    const [regular, bold] = fonts.forText('فاتورة').faces.filter((f) => f.id.includes('arabic-arabic'));
    const file = path.join(
      path.dirname(resolvePackage('@fontsource/noto-sans-arabic/package.json')),
      'files',
      'noto-sans-arabic-arabic-400-normal.woff2',
    );
    const data = /src: url\(data:font\/woff2;base64,([A-Za-z0-9+/=]+)\) format\('woff2'\);/.exec(regular!.css);
    expect(data, 'a data: URI').to.not.equal(null);
    expect(Buffer.from(data![1]!, 'base64').equals(fs.readFileSync(file))).to.equal(true);
    expect(regular!.css)
      .to.match(/font-weight: 400;/)
      .and.match(/unicode-range: U\+0600-/);
    expect(bold!.css).to.match(/font-weight: 700;/);
    expect(regular!.css).to.not.contain('./files/');
  });

  it('chooses the fonts of 20,000 distinct Han characters from what it has read: no font file read again, the same faces', function () {
    let han = '';
    for (let cp = 0x4e00; cp < 0x4e00 + 20000; cp++) han += String.fromCodePoint(cp);
    const first = fonts.forText(han);
    // Once read, a face's file is kept inlined: choosing again reads no file (a count, not a time; how fast the
    // choice is belongs in a benchmark).
    const read: string[] = [];
    const original = fs.readFileSync;
    (fs as { readFileSync: unknown }).readFileSync = (...args: Parameters<typeof fs.readFileSync>) => {
      read.push(String(args[0]));
      return original(...args);
    };
    let again: ReturnType<FontSet['forText']>;
    try {
      again = fonts.forText(han);
    } finally {
      (fs as { readFileSync: unknown }).readFileSync = original;
    }
    expect(read, 'font files read again').to.deep.equal([]);
    expect(again).to.deep.equal(first);
    const ids = first.faces.map((f) => f.id);
    expect(new Set(ids).size, 'each face once').to.equal(ids.length);
    expect(ids.filter((id) => /(sc|jp|tc|kr|hk)-/.test(id)).length, 'Han faces among them').to.be.greaterThan(0);
  });
});

describe('fonts configuration errors', function () {
  const write = (config: unknown): string => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-fonts-')), 'fonts.json');
    fs.writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
    return file;
  };
  const problems = (file: string): string[] => {
    try {
      loadFonts(file, resolvePackage);
    } catch (err) {
      expect(err).to.be.instanceOf(FontLoadError);
      return (err as FontLoadError).problems;
    }
    throw new Error('loadFonts accepted a broken configuration');
  };

  it('lists every missing package, file and subset at once', function () {
    const file = write({
      families: [
        { package: '@fontsource/noto-sans', files: ['400.css', '999.css'] },
        { package: '@fontsource/noto-sans-klingon', files: ['400.css'] },
      ],
    });
    const list = problems(file);
    expect(list).to.have.length(2);
    expect(list[0]).to.equal('@fontsource/noto-sans/999.css does not exist');
    expect(list[1]).to.equal('font package @fontsource/noto-sans-klingon is not installed (run npm ci)');
    const unknownSubset = write({ families: [{ package: '@fontsource/noto-sans', files: ['400.css'], subsets: ['latin', 'klingon'] }] });
    expect(() => loadFonts(unknownSubset, resolvePackage)).to.not.throw(); // one subset found is enough
    const noSubset = write({
      families: [
        { package: '@fontsource/noto-sans', files: ['400.css'] },
        { package: '@fontsource/noto-sans-thai', files: ['400.css'], subsets: ['klingon'] },
      ],
    });
    expect(problems(noSubset)).to.deep.equal(['@fontsource/noto-sans-thai: none of its subsets (klingon) was found']);
  });

  it('refuses an unreadable or empty configuration, naming the file', function () {
    const broken = write('{ "families": [');
    expect(problems(broken)[0]).to.contain(broken);
    expect(problems(write({ families: [] }))[0]).to.match(/lists no font faces$/);
    expect(problems(path.join(os.tmpdir(), 'no-such-dir', 'fonts.json'))[0]).to.contain('no-such-dir');
  });
});
