// How long a part of a long text sent to a print page is (server/pdf/print-page.ts partLength): about SEND_PART_BYTES
// of UTF-8 whatever the script, so that a part of Chinese is not three times the size the parts are tuned for.
import { expect } from 'chai';
import { partLength, SEND_PART_BYTES } from '../../../server/pdf/print-page';

describe('the parts of a long text sent to a print page', function () {
  it('holds SEND_PART_BYTES characters of ASCII (HTML, base64 font faces)', function () {
    expect(partLength('<td class="x">a</td>'.repeat(20000))).to.equal(SEND_PART_BYTES);
  });

  it('holds a third as many characters of Chinese, three bytes each', function () {
    const text = '统一发票'.repeat(50000);
    expect(partLength(text)).to.equal(SEND_PART_BYTES / 3);
    expect(Buffer.byteLength(text.slice(0, partLength(text)))).to.equal(SEND_PART_BYTES);
  });

  it('averages over a mixed text, and is never 0', function () {
    const mixed = `${'a'.repeat(60000)}${'é'.repeat(60000)}`;
    expect(partLength(mixed)).to.equal(Math.floor((SEND_PART_BYTES * 120000) / 180000));
    expect(partLength('')).to.equal(1);
  });
});
