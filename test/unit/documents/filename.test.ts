// File names of documents (server/documents/filename.ts) from any number a client sends: generated Unicode (astral
// letters, combining marks, bidi controls, unpaired surrogates, NFC/NFD pairs) always gives a well-formed name of at
// most 255 bytes, cut at a whole character, that a Content-Disposition header can carry; names in one archive are
// unique after NFC.
import { expect } from 'chai';
import fc from 'fast-check';
import { cutWhole, MAX_FILENAME_BYTES, MAX_NUMBER_CHARACTERS, pdfFilename, UniqueNames } from '../../../server/documents/filename';

const graphemes = (s: string): string[] => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

/** Text built of the pieces that break naive cutting. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom('\u{20000}', '\u{1F600}', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 'e\u0301', '\u00e9', '\u1100\u1161', '\uAC00'),
      fc.constantFrom('\u202E', '\u200F', '\uD800', '\uDC00', '/', ' ', '\u0000', 'ক্ষ', '請求書', 'فاتورة', 'x̂'),
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 120 },
  )
  .map((parts) => parts.join(''));

describe('document file names', function () {
  it('45 astral letters: kept whole (192 bytes), where a cut at 80 UTF-16 units split a pair and made a 500', function () {
    const name = pdfFilename({ type: 'invoice', number: '\u{20000}'.repeat(45) });
    expect(name).to.equal(`invoice-${'\u{20000}'.repeat(45)}.pdf`);
    expect(() => encodeURIComponent(name)).to.not.throw();
    const long = pdfFilename({ type: 'invoice', number: '\u{20000}'.repeat(100) });
    expect(long).to.equal(`invoice-${'\u{20000}'.repeat(60)}.pdf`); // 12 + 60 × 4 = 252 bytes
    expect(pdfFilename({ type: 'invoice', number: 'e\u0301'.repeat(3) })).to.equal('invoice-\u00e9\u00e9\u00e9.pdf');
    expect(pdfFilename({ type: 'invoice', number: 'চালান ২০২৬' })).to.equal('invoice-চালান_২০২৬.pdf');
    expect(pdfFilename({ type: 'invoice', number: 'a\uD800b' })).to.equal('invoice-a_b.pdf');
  });

  it('any number gives a well-formed name within 255 bytes and 80 characters, cut at a whole character', function () {
    fc.assert(
      fc.property(hostileText, fc.constantFrom('invoice', 'credit_note', 'purchase_order'), (number, type) => {
        const name = pdfFilename({ type, number } as Parameters<typeof pdfFilename>[0]);
        expect(name.isWellFormed(), JSON.stringify(name)).to.equal(true);
        expect(() => encodeURIComponent(name)).to.not.throw();
        expect(Buffer.byteLength(name)).to.be.at.most(MAX_FILENAME_BYTES);
        expect(name).to.not.contain('\uFFFD');
        expect(name.startsWith(`${type}`) && name.endsWith('.pdf')).to.equal(true);
        const kept = number ? name.slice(type.length + 1, -4) : '';
        expect(graphemes(kept).length).to.be.at.most(MAX_NUMBER_CHARACTERS);
        // A whole-character prefix of the number as made safe: nothing split, nothing reordered.
        const safe = number.normalize('NFC').replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '_');
        expect(safe.startsWith(kept)).to.equal(true);
        expect(graphemes(safe).slice(0, graphemes(kept).length).join('')).to.equal(kept);
      }),
      { seed: 40, numRuns: 2000 },
    );
  });

  it('cutWhole never splits a character and keeps as much as fits', function () {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 90 }), (text, bytes, characters) => {
        const cut = cutWhole(text, bytes, characters);
        expect(Buffer.byteLength(cut)).to.be.at.most(bytes);
        const all = graphemes(text);
        const kept = graphemes(cut).length;
        expect(kept).to.be.at.most(characters);
        expect(all.slice(0, kept).join('')).to.equal(cut);
        if (kept < all.length && kept < characters) expect(Buffer.byteLength(cut + all[kept]!)).to.be.above(bytes);
      }),
      { seed: 41, numRuns: 2000 },
    );
  });

  it('cutWhole leaves a text within its bounds whole without segmenting it (a document number, every request)', function () {
    const segment = Intl.Segmenter.prototype.segment;
    let segmented = 0;
    Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, text: string) {
      segmented++;
      return segment.call(this, text);
    };
    try {
      expect(pdfFilename({ type: 'invoice', number: 'INV-2026/0042' })).to.equal('invoice-INV-2026_0042.pdf');
      expect(segmented).to.equal(0);
      // A number over 80 characters is still cut, at a whole character.
      expect(pdfFilename({ type: 'invoice', number: 'é'.repeat(81) })).to.equal(`invoice-${'é'.repeat(80)}.pdf`);
      expect(segmented).to.equal(1);
    } finally {
      Intl.Segmenter.prototype.segment = segment;
    }
  });

  it('names in one archive: unique after NFC and case, each within 255 bytes, even with a suffix on a full name', function () {
    const names = new UniqueNames();
    const nfd = pdfFilename({ type: 'invoice', number: '\u1100\u1161' }); // 가 decomposed
    const nfc = pdfFilename({ type: 'invoice', number: '\uAC00' });
    expect([names.name(nfc), names.name(nfd)]).to.deep.equal(['invoice-\uAC00.pdf', 'invoice-\uAC00-2.pdf']);
    const full = pdfFilename({ type: 'invoice', number: '請'.repeat(100) });
    const first = names.name(full);
    const second = names.name(full);
    expect(Buffer.byteLength(first)).to.be.at.most(255);
    expect(Buffer.byteLength(second)).to.be.at.most(255);
    expect(second.endsWith('-2.pdf')).to.equal(true);
    fc.assert(
      fc.property(fc.array(hostileText, { maxLength: 30 }), (numbers) => {
        const unique = new UniqueNames();
        const out = numbers.map((number) => unique.name(pdfFilename({ type: 'invoice', number })));
        expect(new Set(out.map((n) => n.normalize('NFC').toLowerCase())).size).to.equal(out.length);
        for (const n of out) expect(Buffer.byteLength(n) <= 255 && n.isWellFormed(), n).to.equal(true);
      }),
      { seed: 42, numRuns: 500 },
    );
  });
});
