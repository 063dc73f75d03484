// Flate in one call (server/pdf/flate.ts): what node:zlib's one-shot calls give, and no output buffer kept past the
// call. The second is counted in bytes: array buffers before and after hundreds of calls and young-generation
// collections (V8's gc, reached as node:vm exposes it once --expose-gc is set).
import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { deflate, inflate } from '../../../server/pdf/flate';

/** A page's content stream as Chromium writes them: operators and numbers, `lines` lines (about 34 bytes each). */
const content = (lines: number) =>
  Buffer.from(Array.from({ length: lines }, (_, i) => `${(i * 7.31) % 612} ${(i * 3.17) % 792} m ${i % 97} ${i % 13} l S\n`).join(''));

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major'; execution?: 'sync' }) => void;

describe('Flate in one call', function () {
  it("inflates what deflate made, as node:zlib's own calls do, whether the result fits one output buffer or not", function () {
    for (const lines of [0, 1, 400, 5000]) {
      const bytes = content(lines);
      const packed = deflate(bytes, 1);
      expect(zlib.inflateSync(packed).equals(bytes), `${lines} lines`).to.equal(true);
      for (const chunkSize of [1024, 32 * 1024])
        expect(inflate(packed, chunkSize).equals(bytes), `${lines} lines, ${chunkSize}`).to.equal(true);
      expect(inflate(zlib.deflateSync(bytes, { level: 9 }), 32 * 1024).equals(bytes)).to.equal(true);
    }
  });

  it('keeps no output buffer past the call: 400 inflates and deflates, then young-generation collections, leave under 2 MB', function () {
    const packed = deflate(content(400), 1);
    const page = content(400);
    gc({ type: 'major', execution: 'sync' });
    const before = process.memoryUsage().arrayBuffers;
    let length = 0;
    for (let i = 0; i < 400; i++) length += inflate(packed, 32 * 1024).length + deflate(page, 1).length;
    for (let i = 0; i < 3; i++) gc({ type: 'minor', execution: 'sync' });
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(length).to.be.above(400 * page.length);
    // Each engine's own buffer kept would be 400 × (32 + 16) KiB = 18.75 MiB.
    expect(grown, `${(grown / 1048576).toFixed(1)} MiB of array buffers left`).to.be.below(2 * 1048576);
  });
});
