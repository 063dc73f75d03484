// Logo fuzzing, property-based with fast-check on a fixed seed (reproducible: a failure prints its counterexample and
// path). Through the logo function itself (fetchLogo on a data: URI):
// - bitmaps of every supported format made by sharp, with random sizes, headers that lie about the size (PNG IHDR
//   with its CRC fixed, GIF logical screen, JPEG SOF, WebP VP8/VP8X, AVIF ispe), flipped bytes, truncation and a
//   declared type that may be another format's;
// - GIFs whose frame descriptor disagrees with their header, up to 20000 × 20000 real LZW data, the bomb first or
//   second;
// - SVGs from a grammar of allowed and forbidden elements under any prefix, references local and not, CSS, text with
//   markup, DTDs and entities, <use> fan-outs, then cut or spliced at random.
// Each case: no throw, the process's memory bounded (its work is bounded by the pixel and element budgets, which the
// sizes below check; its time is only printed); and either a bounded image (a PNG or JPEG within
// 880 × 360; an SVG of allowed elements and local references only, which the sanitizer gives back unchanged) or the
// logo left out with a reason made of the fetcher's words.
import { expect } from 'chai';
import fc from 'fast-check';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import sharp from 'sharp';
import { fetchLogo } from '../../../server/logo/fetch-logo';
import { ALLOWED_ELEMENTS, MAX_SVG_ELEMENTS, SVG_NS } from '../../../server/logo/svg/allowlists';
import { sanitizeSvg } from '../../../server/logo/svg/sanitize';
import { crc32, dataUri, lyingGif, svgUseFanout } from '../../helpers/logo-bombs';

const SEED = 20261124;
const params = (numRuns: number) => ({ numRuns, seed: SEED, endOnFailure: true });
const OPTS = { allowPrivate: false, timeoutMs: 1000, maxBytes: 2 * 1024 * 1024 };
const RSS_BOUND_MIB = 400;
const REASON = /^(image_refused: [a-z ]+|svg_refused: [A-Za-z ]+|data_uri_invalid|too_large)$/;
/** `arb` one time in `1 + weight`, else null (fc.option's freq gives null one time in freq). */
/** A share of a length, in (0, 1): a cut never leaves nothing (fc.double favours 0 and 1). */
const share = fc.integer({ min: 1, max: 999 }).map((n) => n / 1000);
const rare = <T>(arb: fc.Arbitrary<T>, weight = 3) => fc.oneof({ weight, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

const rssMiB = () => process.memoryUsage().rss / 1048576;

/** Runs the logo function on `uri` under the bounds; returns what it gave. */
async function logo(uri: string): Promise<{ ok: true; type: string; bytes: Buffer } | { ok: false; reason: string }> {
  const started = Date.now();
  const r = await fetchLogo(uri, OPTS);
  const ms = Date.now() - started;
  slowest = Math.max(slowest, ms);
  expect(rssMiB() - baseline, 'RSS growth').to.be.lessThan(RSS_BOUND_MIB);
  if (!r.ok) {
    expect(r.reason).to.match(REASON);
    return r;
  }
  expect('dataUri' in r).to.equal(true);
  const m = /^data:(image\/(?:png|jpeg|svg\+xml));base64,(.*)$/.exec('dataUri' in r ? r.dataUri : '');
  expect(m, 'a PNG, JPEG or SVG data: URI').not.to.equal(null);
  return { ok: true, type: m![1]!, bytes: Buffer.from(m![2]!, 'base64') };
}

let baseline = 0;
let slowest = 0;
let peak = 0;
let sampler: NodeJS.Timeout | undefined;

// --- bitmaps ---------------------------------------------------------------------------------------------------

type Format = 'png' | 'jpeg' | 'gif' | 'webp' | 'avif';
const TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'] as const;

/** The image with its header's size replaced by width × height (where the format has one this test knows). */
function lie(format: Format, image: Buffer, width: number, height: number): Buffer {
  const b = Buffer.from(image);
  if (format === 'png') {
    b.writeUInt32BE(width, 16);
    b.writeUInt32BE(height, 20);
    b.writeUInt32BE(crc32(b.subarray(12, 29)), 29);
  } else if (format === 'gif') {
    b.writeUInt16LE(width & 0xffff, 6);
    b.writeUInt16LE(height & 0xffff, 8);
  } else if (format === 'jpeg') {
    for (let i = 2; i + 9 < b.length;) {
      if (b[i + 1] === 0xc0 || b[i + 1] === 0xc2) {
        b.writeUInt16BE(height & 0xffff, i + 5);
        b.writeUInt16BE(width & 0xffff, i + 7);
        break;
      }
      i += 2 + b.readUInt16BE(i + 2);
    }
  } else if (format === 'webp') {
    const chunk = b.toString('latin1', 12, 16);
    if (chunk === 'VP8X') {
      b.writeUIntLE(Math.max(0, width - 1) & 0xffffff, 24, 3);
      b.writeUIntLE(Math.max(0, height - 1) & 0xffffff, 27, 3);
    } else if (chunk === 'VP8 ') {
      b.writeUInt16LE(width & 0x3fff, 26);
      b.writeUInt16LE(height & 0x3fff, 28);
    }
  } else {
    const at = b.indexOf('ispe');
    if (at > 0) {
      b.writeUInt32BE(width >>> 0, at + 8);
      b.writeUInt32BE(height >>> 0, at + 12);
    }
  }
  return b;
}

const bitmapCase = fc.record({
  format: fc.constantFrom<Format>('png', 'jpeg', 'gif', 'webp', 'avif'),
  width: fc.integer({ min: 1, max: 300 }),
  height: fc.integer({ min: 1, max: 300 }),
  alpha: fc.boolean(),
  colour: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)),
  lie: rare(
    fc.record({
      width: fc.oneof(fc.integer({ min: 0, max: 70000 }), fc.constantFrom(0, 1, 4096, 4097, 16384, 20000, 65535)),
      height: fc.oneof(fc.integer({ min: 0, max: 70000 }), fc.constantFrom(0, 1, 4096, 4097, 16384, 20000, 65535)),
    }),
  ),
  flips: fc.oneof(fc.constant([]), fc.array(fc.record({ at: fc.nat(), value: fc.nat(255) }), { minLength: 1, maxLength: 6 })),
  truncate: rare(share),
  declared: rare(fc.constantFrom(...TYPES), 2),
});

type BitmapCase = typeof bitmapCase extends fc.Arbitrary<infer T> ? T : never;

async function makeBitmap(c: BitmapCase): Promise<Buffer> {
  const [r, g, b] = c.colour;
  let image: Buffer = await sharp({
    create: { width: c.width, height: c.height, channels: c.alpha ? 4 : 3, background: { r, g, b, alpha: 0.6 } },
  })
    .toFormat(c.format, c.format === 'avif' ? { effort: 0 } : {})
    .toBuffer();
  if (c.lie) image = lie(c.format, image, c.lie.width, c.lie.height);
  for (const f of c.flips) image[8 + (f.at % Math.max(1, image.length - 8))] = f.value;
  if (c.truncate !== null) image = image.subarray(0, Math.floor(image.length * c.truncate));
  return image;
}

// --- SVG -------------------------------------------------------------------------------------------------------

const ELEMENTS = [
  ...ALLOWED_ELEMENTS,
  'image',
  'feImage',
  'filter',
  'foreignObject',
  'script',
  'pattern',
  'animate',
  'set',
  'a',
  'metadata',
  'madeUp',
];
const elementName = fc.tuple(fc.constantFrom('', '', 's:', 'x:'), fc.constantFrom(...ELEMENTS)).map(([p, n]) => p + n);
const attrValue = fc.oneof(
  fc.constantFrom(
    '#a',
    '#b',
    'a',
    'url(#a)',
    "url('#b')",
    'url(http://x.example/y.svg#p)',
    'url(data:image/png;base64,AAAA)',
    'image-set("x.png" 1x)',
    'red',
    'rgb(1, 2, 3)',
    'fill:red;stroke:url(#b)',
    'fill:url(x.svg#a)',
    '@import "x.css"',
    '\\75rl(x)',
    'data:image/png;base64,AAAA',
    'M0 0L10 10Z',
    'rotate(45 5 5)',
    'alert(1)',
    '1" onload="x',
  ),
  fc.string({ maxLength: 20 }),
);
const attrName = fc.constantFrom(
  'id',
  'id',
  'class',
  'fill',
  'style',
  'href',
  'xlink:href',
  's:href',
  'onload',
  'transform',
  'd',
  'x',
  'width',
  'clip-path',
  'mask',
  'x:foo',
);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const attribute = fc.tuple(attrName, attrValue).map(([n, v]) => ` ${n}="${esc(v)}"`);
const text = fc.oneof(
  fc.string({ maxLength: 20 }).map(esc),
  fc.constantFrom(
    '&amp;',
    '&lt;tag&gt;',
    '&#60;image href="x"/&#62;',
    '<![CDATA[ <script>x</script> ]]>',
    '&x;',
    ']]>',
    '.a { fill: url(#a) }',
  ),
);
const { svgNode } = fc.letrec<{ svgNode: string }>((tie) => ({
  svgNode: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc
      .tuple(elementName, fc.array(attribute, { maxLength: 4 }), fc.array(tie('svgNode'), { maxLength: 4 }))
      .map(([name, attrs, children]) =>
        children.length ? `<${name}${attrs.join('')}>${children.join('')}</${name}>` : `<${name}${attrs.join('')}/>`,
      ),
  ),
}));
const svgDocument = fc
  .record({
    prolog: fc.constantFrom(
      '',
      '<?xml version="1.0"?>',
      '<!-- c -->',
      '<!DOCTYPE svg>',
      '<!DOCTYPE svg [<!ENTITY x "&#60;image href=\'x\'/>">]>',
    ),
    body: fc.array(svgNode, { maxLength: 6 }),
    fanout: rare(fc.record({ levels: fc.integer({ min: 1, max: 9 }), fan: fc.integer({ min: 1, max: 12 }) }), 6),
    cut: rare(share, 6),
    splice: rare(
      fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('<', '>', '&', '"', "'", ']]>', '<image/>', '&x;')),
      6,
    ),
  })
  .map(({ prolog, body, fanout, cut, splice }) => {
    let s = fanout
      ? svgUseFanout(fanout.levels, fanout.fan)
      : `${prolog}<svg xmlns="${SVG_NS}" xmlns:s="${SVG_NS}" xmlns:x="urn:x" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
        `width="200" height="80">${body.join('')}</svg>`;
    if (cut !== null) s = s.slice(0, Math.floor(s.length * cut));
    if (splice !== null) {
      const at = Math.floor(s.length * splice[0]);
      s = s.slice(0, at) + splice[1] + s.slice(at);
    }
    return s;
  });

/** Checks an SVG the sanitizer kept: allowed elements of the SVG namespace, local references only, no handlers. */
function checkKeptSvg(svg: string): void {
  const parser = new SaxesParser({ xmlns: true });
  let elements = 0;
  parser.on('doctype', () => expect.fail('a doctype was written'));
  parser.on('opentag', (tag: SaxesTagNS) => {
    elements++;
    expect(tag.uri).to.equal(SVG_NS);
    expect(ALLOWED_ELEMENTS.has(tag.local), tag.local).to.equal(true);
    for (const a of Object.values(tag.attributes)) {
      expect(a.local.startsWith('on'), a.name).to.equal(false);
      if (a.local === 'href') expect(a.value).to.match(/^#[A-Za-z_][\w.:-]*$/);
    }
  });
  parser.write(svg).close();
  expect(elements).to.be.within(1, MAX_SVG_ELEMENTS);
  expect(svg).not.to.match(/url\(\s*(?!['"]?#)/i);
  expect(svg).not.to.match(/@import|image-set|\\/i);
  expect(sanitizeSvg(svg)).to.deep.equal({ ok: true, svg }, 'the sanitizer gives back what it wrote');
}

describe('logo fuzzing (fast-check, fixed seed)', function () {
  this.timeout(300000);
  const counts = { bitmapKept: 0, gifKept: 0, svgKept: 0 };
  const reasons: Record<string, number> = {};
  before(function () {
    baseline = rssMiB();
    peak = baseline;
    sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 5);
  });
  after(function () {
    clearInterval(sampler);
    console.log(
      `      kept ${JSON.stringify(counts)}, left out ${JSON.stringify(reasons)}; slowest ${slowest} ms; RSS ${baseline.toFixed(0)} MiB at start, peak ${peak.toFixed(0)} MiB`,
    );
    expect(peak - baseline).to.be.lessThan(RSS_BOUND_MIB);
  });

  it('bitmaps of every format, with lying headers, flipped bytes and cuts: a bounded image or left out (400 cases)', async function () {
    await fc.assert(
      fc.asyncProperty(bitmapCase, async (c) => {
        const image = await makeBitmap(c);
        const r = await logo(dataUri(c.declared ?? `image/${c.format}`, image));
        if (!r.ok) return void (reasons[r.reason] = (reasons[r.reason] ?? 0) + 1);
        counts.bitmapKept++;
        const meta = await sharp(r.bytes).metadata();
        expect(meta.format).to.be.oneOf(['png', 'jpeg']);
        expect(meta.width).to.be.at.most(880);
        expect(meta.height).to.be.at.most(360);
        expect(meta.pages ?? 1).to.equal(1);
      }),
      params(400),
    );
  });

  it('GIFs whose frames disagree with their header, up to 20000 × 20000: bounded or left out (40 cases)', async function () {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          width: fc.oneof(fc.integer({ min: 1, max: 20000 }), fc.constantFrom(4096, 4097, 20000)),
          height: fc.oneof(fc.integer({ min: 1, max: 20000 }), fc.constantFrom(1, 4096, 20000)),
          screen: fc.integer({ min: 1, max: 600 }),
          bombFrame: fc.integer({ min: 0, max: 2 }),
        }),
        async ({ width, height, screen, bombFrame }) => {
          const r = await logo(dataUri('image/gif', lyingGif(width, height, { screen, bombFrame })));
          if (!r.ok) {
            reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
            expect(width * height > 4096 * 4096 || r.reason !== 'image_refused: gif frame too large').to.equal(true);
            return;
          }
          counts.gifKept++;
          const meta = await sharp(r.bytes).metadata();
          expect(meta.width).to.be.at.most(880);
          expect(meta.height).to.be.at.most(360);
        },
      ),
      params(40),
    );
  });

  it('SVGs of allowed and forbidden elements, references, CSS, DTDs, fan-outs, cut and spliced (2,000 cases)', async function () {
    await fc.assert(
      fc.asyncProperty(svgDocument, async (source) => {
        const r = await logo(dataUri('image/svg+xml', source));
        if (!r.ok) {
          reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
          expect(r.reason).to.match(source === '' ? /^data_uri_invalid$/ : /^svg_refused: [A-Za-z ]+$/);
          return;
        }
        counts.svgKept++;
        expect(r.type).to.equal('image/svg+xml');
        checkKeptSvg(r.bytes.toString('utf8'));
      }),
      params(2000),
    );
  });
});
