// Logo bombs end to end, against the shared service and real Chromium: an SVG with a prefixed <s:image>, an SVG whose
// DTD entity expands into an <image>, a <use> fan-out and a GIF whose header says 1×1 while its frame is 20000×20000.
// Each once took a renderer to 1.2-1.5 GB and ended 503; now each answers 200 with a PDF without the logo, left out by
// the bound it breaks (the service's log says which; never the logo deadline), no renderer grows, and four at once
// beside a normal request leave it printed. How long they take is printed, not bounded (speed: npm run bench).
// Ordinary logos of every supported format (made here with sharp) and an SVG with gradients and a <use> still print,
// bitmaps at most ~4× the printed box.
import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { rendererMemory } from '../../server/pdf/process-memory';
import { dataUri, lyingGif, svgEntityImage, svgPrefixedImage, svgUseFanout } from '../helpers/logo-bombs';
import { isPdf, pdfFlatText } from '../helpers/pdf';
import { post, sharedService, startTestService, type TestService } from '../helpers/service';
import { pdfToPng } from '../helpers/visual';

/** Width and height of each image in a PDF (pdfimages -list). */
function pdfImages(pdf: Uint8Array): { width: number; height: number }[] {
  const lines = execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString('utf8').trim().split('\n').slice(2);
  return lines.map((l) => {
    const cols = l.trim().split(/\s+/);
    return { width: Number(cols[3]), height: Number(cols[4]) };
  });
}

/** The largest resident size of the service's renderers while `work` runs (sampled every 50 ms), in MiB. */
async function peakRendererMiB<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = 0;
  const sample = () => {
    for (const r of rendererMemory(process.pid)) peak = Math.max(peak, r.rssMiB);
  };
  sample();
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

const BOMBS: [string, string][] = [
  ['(a) SVG with a prefixed <s:image> of a 20000×20000 PNG', dataUri('image/svg+xml', svgPrefixedImage())],
  ['(b) SVG whose DTD entity expands into an <image>', dataUri('image/svg+xml', svgEntityImage())],
  ['(c) SVG <use> fan-out (10^7 rects)', dataUri('image/svg+xml', svgUseFanout())],
  ['(d) GIF: header 1×1, frame 20000×20000', dataUri('image/gif', lyingGif())],
];

const doc = (logo?: string) => ({ from: 'Logo Test Ltd', to: 'Client', logo, items: [{ name: 'Widget', quantity: 1, unit_cost: 5 }] });

describe('logo bombs are left out and the document printed (real Chromium)', function () {
  this.timeout(180000);
  let service: TestService;
  // The service's log, captured: why each logo was left out.
  const lines: string[] = [];
  before(async function () {
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    service = await startTestService({}, { logger: pino({ level: 'info' }, sink) });
  });
  after(async function () {
    await service?.close();
  });

  let seq = 0;
  const timed = async (logo?: string) => {
    const requestId = `logo-bomb-${++seq}`;
    const started = Date.now();
    const res = await post(service, doc(logo), { headers: { 'x-request-id': requestId } });
    const body = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, body, ms: Date.now() - started, requestId };
  };
  /** Why the logo of a request was left out, as the service logged it. */
  const leftOut = (requestId: string): unknown =>
    lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.requestId === requestId && e.msg === 'logo not used')?.reason;
  /** A bound's reason (the SVG sanitizer's, the bitmap's pixel and frame checks): never the deadline's. */
  const BOUND = /^(svg_refused|image_refused): (?!.*timeout)/;

  for (const [name, logo] of BOMBS) {
    it(`${name}: 200 with a PDF without the logo, left out by a bound, no renderer grows`, async function () {
      const { result, peak } = await peakRendererMiB(() => timed(logo));
      const reason = leftOut(result.requestId);
      console.log(
        `      ${name}: ${result.status} in ${result.ms} ms (${String(reason)}), ${logo.length} bytes sent, peak renderer ${peak.toFixed(0)} MiB`,
      );
      expect(result.status).to.equal(200);
      expect(isPdf(result.body)).to.equal(true);
      expect(pdfFlatText(result.body)).to.contain('Widget');
      expect(pdfImages(result.body), 'no bitmap in the PDF').to.deep.equal([]);
      expect(logoPixels(result.body), 'nothing of the logo printed').to.equal(0);
      expect(reason, 'why the logo was left out').to.match(BOUND);
      expect(peak).to.be.lessThan(600);
    });
  }

  it('four bombs at once beside a normal request: it prints, they are left out by their bounds, no renderer grows', async function () {
    const alone: number[] = [];
    for (let i = 0; i < 5; i++) alone.push((await timed()).ms);
    const baseline = alone.sort((a, b) => a - b)[2]!;
    const { result, peak } = await peakRendererMiB(async () => {
      const bombs = BOMBS.map(([, logo]) => timed(logo));
      await new Promise((r) => setTimeout(r, 20));
      const normal = await timed();
      return { normal, bombs: await Promise.all(bombs) };
    });
    console.log(
      `      normal request alone ${baseline} ms (median of 5), beside 4 bombs ${result.normal.ms} ms; ` +
        `bombs ${result.bombs.map((b) => `${b.status} ${b.ms} ms`).join(', ')}; peak renderer ${peak.toFixed(0)} MiB`,
    );
    expect(result.normal.status).to.equal(200);
    for (const b of result.bombs) expect(b.status).to.equal(200);
    // Four more documents print beside it, each without its logo for the bound it breaks (no decode or fetch left to
    // run out its deadline), and no renderer grows: nothing there to delay it by more than their printing.
    for (const b of result.bombs) expect(leftOut(b.requestId), b.requestId).to.match(BOUND);
    expect(isPdf(result.normal.body)).to.equal(true);
    expect(peak).to.be.lessThan(600);
  });
});

/** Pixels of the test SVG's colours (pure green gradient end, cyan <use>) on the first page at 40 dpi. */
function logoPixels(pdf: Uint8Array): number {
  const png = PNG.sync.read(pdfToPng(pdf));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (r < 90 && g > 140 && b < 90) n++; // green
    if (r < 90 && g > 140 && b > 140) n++; // cyan
  }
  return n;
}

const NORMAL_SVG =
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: a drawing program -->\n' +
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
  'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="200" height="80" viewBox="0 0 200 80">' +
  '<title>Acme</title><metadata><rdf xmlns="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>' +
  '<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#00c000"/><stop offset="1" style="stop-color:#00a000"/></linearGradient>' +
  '<circle id="dot" r="15" fill="#00c8c8"/><style>.bar { fill: url(#g); }</style></defs>' +
  '<rect class="bar" x="0" y="0" width="120" height="80" inkscape:label="bar"/>' +
  '<use xlink:href="#dot" x="150" y="40"/></svg>';

describe('ordinary logos still print (real Chromium)', function () {
  this.timeout(120000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  const print = async (logo: string) => {
    const res = await post(service, doc(logo));
    expect(res.status).to.equal(200);
    return new Uint8Array(await res.arrayBuffer());
  };

  const picture = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } }).composite([
      { input: { create: { width: Math.floor(width / 2), height, channels: 3, background: { r: 20, g: 40, b: 220 } } }, left: 0, top: 0 },
    ]);

  for (const [format, type] of [
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['gif', 'image/gif'],
    ['webp', 'image/webp'],
    ['avif', 'image/avif'],
  ] as const) {
    it(`a ${format.toUpperCase()} logo prints as one image`, async function () {
      const bytes = await picture(300, 120).toFormat(format).toBuffer();
      const images = pdfImages(await print(dataUri(type, bytes)));
      expect(images).to.have.length(1);
      expect(images[0]).to.deep.equal({ width: 300, height: 120 });
    });
  }

  it('a large bitmap logo prints downscaled to at most 4× the printed box (880 × 360)', async function () {
    const bytes = await picture(4000, 1000).png().toBuffer();
    const images = pdfImages(await print(dataUri('image/png', bytes)));
    console.log(`      a 4000×1000 PNG logo is embedded as ${images.map((i) => `${i.width}×${i.height}`).join(', ')}`);
    expect(images).to.have.length(1);
    expect(images[0]!.width).to.be.at.most(880);
    expect(images[0]!.height).to.be.at.most(360);
    expect(images[0]!.width / images[0]!.height).to.be.closeTo(4, 0.05);
  });

  it('an SVG logo with a gradient, a class style and a <use> prints as vectors', async function () {
    const pdf = await print(dataUri('image/svg+xml', NORMAL_SVG));
    expect(pdfImages(pdf), 'drawn as vectors, not a bitmap').to.deep.equal([]);
    expect(logoPixels(pdf)).to.be.greaterThan(100);
    const png = PNG.sync.read(pdfToPng(pdf));
    let cyan = 0;
    for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! < 90 && png.data[i + 1]! > 140 && png.data[i + 2]! > 140) cyan++;
    expect(cyan, 'the <use> of the circle printed').to.be.greaterThan(10);
  });

  it('an SVG logo with only a viewBox (no width or height, as most exported logos) prints at its box', async function () {
    // Before: an <img> of it had no intrinsic size and the logo box drew it 0 pixels wide (0 logo pixels).
    const viewBoxOnly = NORMAL_SVG.replace(' width="200" height="80"', '');
    expect(viewBoxOnly).not.to.equal(NORMAL_SVG);
    expect(logoPixels(await print(dataUri('image/svg+xml', viewBoxOnly)))).to.be.greaterThan(100);
    const percent = NORMAL_SVG.replace(' width="200" height="80"', ' width="100%" height="100%"');
    expect(logoPixels(await print(dataUri('image/svg+xml', percent)))).to.be.greaterThan(100);
  });
});
