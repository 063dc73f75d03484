// Logo bombs that once got past the logo guards: small on the wire, gigabytes once a renderer decodes or expands them.
// Each is made here from its bytes, so a test can send it as a `data:` URI or serve it from a URL.
import zlib from 'node:zlib';

/** CRC-32 (as PNG chunks carry it). */
export function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A PNG chunk with its length and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** A valid PNG of width × height one-bit pixels, all zero: 48 KB for 20000 × 20000. */
export function pngBomb(width = 20000, height = 20000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function dataUri(type: string, bytes: Buffer | string): string {
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** (a) An SVG whose image element has a namespace prefix bound to the SVG namespace: `<s:image>`. */
export function svgPrefixedImage(png = pngBomb()): string {
  return (
    `<svg xmlns="${SVG_NS}" xmlns:s="${SVG_NS}" width="200" height="80" viewBox="0 0 200 80">` +
    `<s:image href="${dataUri('image/png', png)}" width="200" height="80"/></svg>`
  );
}

/** (b) An SVG whose internal DTD entity expands into an image element (its `<` a character reference). */
export function svgEntityImage(png = pngBomb()): string {
  return (
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "&#60;image href='${dataUri('image/png', png)}' width='200' height='80'/>">]>` +
    `<svg xmlns="${SVG_NS}" width="200" height="80" viewBox="0 0 200 80">&x;</svg>`
  );
}

/** (c) Billion laughs by `<use>`: `levels` levels of groups of `fan` uses of the level below. */
export function svgUseFanout(levels = 7, fan = 10): string {
  const defs = ['<g id="l0"><rect width="1" height="1" fill="#c00"/></g>'];
  for (let l = 1; l <= levels; l++) {
    defs.push(`<g id="l${l}">${Array.from({ length: fan }, () => `<use href="#l${l - 1}"/>`).join('')}</g>`);
  }
  return `<svg xmlns="${SVG_NS}" width="200" height="80" viewBox="0 0 200 80"><defs>${defs.join('')}</defs><use href="#l${levels}"/></svg>`;
}

/** LZW codes (GIF variant, minimum code size 2, deferred clear) for `pixels` pixels of colour 0, packed in bytes. */
function lzwZeros(pixels: number): Buffer {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let width = 3;
  let next = 6; // 4 colours, clear = 4, end = 5
  const emit = (code: number) => {
    acc |= code << bits;
    bits += width;
    while (bits >= 8) {
      out.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  };
  emit(4); // clear
  // Code 0 is one pixel; each code emitted after it is the longest run known (the run before it plus one pixel).
  let left = pixels;
  let longest = 0; // code of the longest run of zeros known (0: one pixel)
  let longestLength = 1;
  while (left > 0) {
    let code: number;
    let length: number;
    if (left >= longestLength) {
      code = longest;
      length = longestLength;
    } else {
      length = left;
      code = length === 1 ? 0 : length + 4; // run code c is (c − 4) pixels long
    }
    emit(code);
    left -= length;
    if (next < 4096) {
      // The table gains "this run + one pixel" (decoders add it on reading the next code; width grows the same way).
      if (next >= 1 << width && width < 12) width++;
      if (code === longest) {
        longest = next;
        longestLength = length + 1;
      }
      next++;
    }
  }
  emit(5);
  if (bits > 0) out.push(acc & 0xff);
  return Buffer.from(out);
}

function subBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const part = data.subarray(i, i + 255);
    parts.push(Buffer.from([part.length]), part);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/**
 * (d) A GIF whose header (logical screen) says `screen` × `screen` while its frame descriptor says width × height:
 * 150 KB for a 20000 × 20000 frame of real LZW data. `bombFrame` small frames of the screen's size come first.
 */
export function lyingGif(width = 20000, height = 20000, opts: { screen?: number; bombFrame?: number } = {}): Buffer {
  const screen = opts.screen ?? 1;
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(screen, 6);
  header.writeUInt16LE(screen, 8);
  header[10] = 0x81; // global colour table of 4 entries
  const palette = Buffer.from([0, 0, 0, 255, 255, 255, 200, 30, 30, 30, 30, 200]);
  const frame = (w: number, h: number) => {
    const desc = Buffer.alloc(10);
    desc[0] = 0x2c;
    desc.writeUInt16LE(w, 5);
    desc.writeUInt16LE(h, 7);
    return Buffer.concat([desc, Buffer.from([2]), subBlocks(lzwZeros(w * h))]);
  };
  const frames: Buffer[] = [];
  for (let i = 0; i < (opts.bombFrame ?? 0); i++) frames.push(frame(screen, screen));
  frames.push(frame(width, height));
  return Buffer.concat([header, palette, ...frames, Buffer.from([0x3b])]);
}
