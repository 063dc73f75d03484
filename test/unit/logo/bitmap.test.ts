// Bitmap logos decoded under a pixel budget: the GIF whose header says 1×1 and whose frame says 20000×20000 is refused
// by the frame walk, and libvips (sharp) refuses it too on its own (measured here: the service's RSS does not grow); a
// bomb in a later frame never gets decoded; every format is decoded and written again small, on libuv's thread pool
// (the event loop keeps ticking while a 4096×4096 logo is decoded).
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import sharp from 'sharp';
import { boundBitmap, gifProblem, LOGO_MAX_HEIGHT, LOGO_MAX_WIDTH, MAX_LOGO_PIXELS, sniffBitmap } from '../../../server/logo/bitmap';
import { lyingGif, pngBomb } from '../../helpers/logo-bombs';
import { turnsDuring } from '../../helpers/loop-turns';

const rssMiB = () => process.memoryUsage().rss / 1048576;

/** `work`'s result with the process's peak RSS growth over it (sampled every 2 ms) and its duration. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; grewMiB: number; ms: number }> {
  const before = rssMiB();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB())), 2);
  const started = Date.now();
  try {
    const result = await work();
    peak = Math.max(peak, rssMiB());
    return { result, grewMiB: peak - before, ms: Date.now() - started };
  } finally {
    clearInterval(timer);
  }
}

/** Writes a JPEG's frame size (SOF0/SOF2) as width × height: a header that lies. */
function jpegWithSize(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i + 9 < out.length;) {
    const marker = out[i + 1]!;
    if (marker === 0xc0 || marker === 0xc2) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
    i += 2 + out.readUInt16BE(i + 2);
  }
  throw new Error('no SOF');
}

describe('bitmap logos under a pixel budget (unit)', function () {
  this.timeout(60000);

  it('refuses the GIF whose header says 1×1 and whose frame is 20000×20000, without growing', async function () {
    const gif = lyingGif();
    expect(gifProblem(gif)).to.equal('image_refused: gif frame too large');
    const { result, grewMiB, ms } = await measured(() => boundBitmap(gif));
    expect(result).to.deep.equal({ ok: false, reason: 'image_refused: gif frame too large' });
    // libvips alone (without the frame walk): it grows its canvas to the frame, and its pixel limit refuses that.
    const vips = await measured(() =>
      sharp(gif, { limitInputPixels: MAX_LOGO_PIXELS, pages: 1 })
        .png()
        .toBuffer()
        .then(
          () => 'decoded',
          (e: Error) => e.message,
        ),
    );
    console.log(
      `      lying GIF (${gif.length} bytes): refused in ${ms} ms (RSS +${grewMiB.toFixed(0)} MiB); ` +
        `sharp alone: "${vips.result}" in ${vips.ms} ms (RSS +${vips.grewMiB.toFixed(0)} MiB)`,
    );
    expect(vips.result).to.match(/pixel limit/);
    expect(grewMiB).to.be.lessThan(50);
    expect(vips.grewMiB).to.be.lessThan(50);
  });

  it('decodes only the first frame: a bomb in the second frame of a GIF costs nothing', async function () {
    const gif = lyingGif(4000, 4000, { screen: 10, bombFrame: 1 });
    const { result, grewMiB } = await measured(() => boundBitmap(gif));
    expect(result.ok).to.equal(true);
    if (result.ok) expect(await sharp(result.bytes).metadata()).to.include({ width: 10, height: 10, format: 'png' });
    expect(grewMiB).to.be.lessThan(50);
  });

  it('refuses a PNG, JPEG or GIF over 4096×4096 pixels, whatever its size on the wire', async function () {
    expect(await boundBitmap(pngBomb())).to.deep.equal({ ok: false, reason: 'image_refused: too many pixels' });
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c33' } })
      .jpeg()
      .toBuffer();
    expect(await boundBitmap(jpegWithSize(jpeg, 30000, 30000))).to.deep.equal({ ok: false, reason: 'image_refused: too many pixels' });
    expect(await boundBitmap(lyingGif(4097, 4096, { screen: 4097 }))).to.deep.equal({
      ok: false,
      reason: 'image_refused: gif frame too large',
    });
  });

  it('reads only PNG, JPEG, GIF, WebP and AVIF, and only as what their bytes say they are', async function () {
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
      .tiff()
      .toBuffer();
    expect(await boundBitmap(tiff)).to.deep.equal({ ok: false, reason: 'image_refused: not a supported bitmap' });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(await boundBitmap(svg)).to.deep.equal({ ok: false, reason: 'image_refused: not a supported bitmap' });
    expect(await boundBitmap(Buffer.alloc(0))).to.deep.equal({ ok: false, reason: 'image_refused: not a supported bitmap' });
    // A PNG signature before other bytes: libvips would sniff something else, or nothing.
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100)]);
    expect((await boundBitmap(fake)).ok).to.equal(false);
  });

  for (const format of ['png', 'jpeg', 'gif', 'webp', 'avif'] as const) {
    it(`writes a ${format.toUpperCase()} logo again within ${LOGO_MAX_WIDTH}×${LOGO_MAX_HEIGHT}, keeping its aspect`, async function () {
      const big = await sharp({ create: { width: 2000, height: 500, channels: 4, background: { r: 10, g: 200, b: 10, alpha: 0.5 } } })
        .toFormat(format)
        .toBuffer();
      expect(sniffBitmap(big)).to.equal(`image/${format}`);
      const r = await boundBitmap(big);
      if (!r.ok) expect.fail(r.reason);
      const meta = await sharp(r.bytes).metadata();
      expect(r.type).to.equal(format === 'jpeg' ? 'image/jpeg' : 'image/png');
      expect(meta.format).to.equal(format === 'jpeg' ? 'jpeg' : 'png');
      expect([meta.width, meta.height]).to.deep.equal([880, 220]);
      const small = await boundBitmap(await sharp(big).resize(100, 25).toFormat(format).toBuffer());
      if (small.ok) expect(await sharp(small.bytes).metadata()).to.include({ width: 100, height: 25 }, 'never enlarged');
      else expect.fail(small.reason);
    });
  }

  it('decodes on the thread pool: the event loop keeps turning through a 4096×4096 decode', async function () {
    const noisy = await sharp(randomBytes(4096 * 4096 * 3), { raw: { width: 4096, height: 4096, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    // A decode on this thread (a synchronous decoder) would give the loop no pass until it ended: a handful of passes
    // for the awaits around it. On the thread pool, the loop goes round hundreds to thousands of times while 48 MiB
    // are decoded (fewer on a faster machine): at least 50 tells the two apart on any machine.
    const { result, turns } = await turnsDuring(() => boundBitmap(noisy));
    console.log(`      4096×4096 noisy PNG (${(noisy.length / 1048576).toFixed(1)} MiB): ${turns} passes of the event loop meanwhile`);
    expect(result.ok).to.equal(true);
    expect(turns, 'passes of the event loop during the decode').to.be.at.least(50);
  });
});
