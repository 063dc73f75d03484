// Reading a PDF by its classic cross-reference tables (server/pdf/pdf-file.ts), on files written here byte by byte:
// an object is found by the row that names it, the newest section's first, in any subsection; a free row is passed
// over; a number no row names is absent; an object that is not where its row says is refused.
import { PDFNumber, PDFString } from '@cantoo/pdf-lib';
import { expect } from 'chai';
import { PdfFile, PdfStructureError } from '../../../server/pdf/pdf-file';

/** One section: `objects` (number → body) written after `before`, an xref of `subsections` (rows by number; a number
 * without an object is a free row) and a trailer with `trailer`'s entries. Returns the bytes so far. */
function section(before: string, objects: Map<number, string>, subsections: number[][], trailer: string): string {
  let out = before;
  const offsets = new Map<number, number>();
  for (const [num, body] of objects) {
    offsets.set(num, out.length);
    out += `${num} 0 obj\n${body}\nendobj\n`;
  }
  const xref = out.length;
  out += 'xref\n';
  for (const nums of subsections) {
    out += `${nums[0]} ${nums.length}\n`;
    for (const num of nums) {
      const at = offsets.get(num);
      out += at === undefined ? '0000000000 65535 f \n' : `${String(at).padStart(10, '0')} 00000 n \n`;
    }
  }
  return `${out}trailer\n<<${trailer}>>\nstartxref\n${xref}\n%%EOF\n`;
}

const text = (file: PdfFile, num: number) => (file.object(num) as PDFString | undefined)?.decodeText();

describe('PDF file reading (cross-reference tables)', function () {
  const first = section(
    '%PDF-1.7\n',
    new Map([
      [1, '<</Type /Catalog /Pages 2 0 R>>'],
      [2, '<</Type /Pages /Kids [] /Count 0>>'],
      [3, '(three, first)'],
      [4, '(four, first)'],
      [7, '(seven, first)'],
    ]),
    [[0, 1, 2, 3, 4], [7]],
    '/Size 8 /Root 1 0 R',
  );
  const firstXref = Number(/startxref\n(\d+)/.exec(first)![1]);
  // An update: 3 replaced, 4 given a free row, 8 and 9 new in a subsection of their own.
  const updated = section(
    first,
    new Map([
      [3, '(three, updated)'],
      [8, '(eight)'],
      [9, '42'],
    ]),
    [
      [3, 4],
      [8, 9],
    ],
    `/Size 10 /Root 1 0 R /Prev ${firstXref}`,
  );
  const file = new PdfFile(Buffer.from(updated, 'latin1'));

  it("finds each object by the newest section's row, in any subsection", function () {
    expect(text(file, 3)).to.equal('three, updated');
    expect(text(file, 7)).to.equal('seven, first');
    expect(text(file, 8)).to.equal('eight');
    expect((file.object(9) as PDFNumber).asNumber()).to.equal(42);
    expect(file.catalog().ref.objectNumber).to.equal(1);
    expect(file.size).to.equal(10);
  });

  it('passes over a free row to the older sections, and has no object no row names', function () {
    expect(text(file, 4)).to.equal('four, first');
    for (const num of [0, 5, 6, 10, 11, 1000]) expect(file.object(num), `object ${num}`).to.equal(undefined);
  });

  it('reads the same file with only its first section as it was before the update', function () {
    const before = new PdfFile(Buffer.from(first, 'latin1'));
    expect(text(before, 3)).to.equal('three, first');
    expect(before.object(8)).to.equal(undefined);
  });

  it('refuses an object that is not where its row says', function () {
    // A byte before object 9: its row (and the xref's position, moved along) now points at that byte.
    const shifted = updated
      .replace('\n9 0 obj', '\nX9 0 obj')
      .replace(/startxref\n(\d+)\n%%EOF\n$/, (_, at) => `startxref\n${Number(at) + 1}\n%%EOF\n`);
    const broken = new PdfFile(Buffer.from(shifted, 'latin1'));
    expect(text(broken, 8)).to.equal('eight');
    expect(() => broken.object(9)).to.throw(PdfStructureError, 'object 9 is not where the xref says');
  });
});
