// A bitmap logo decoded under a pixel budget and written again small. Reading the header (image-size) was not enough: a
// GIF whose logical screen says 1×1 while its frame says 20000×20000 took a renderer to 1.5 GB, and every format has
// its own ways to lie. So the service decodes every bitmap itself, with sharp (libvips), and Chromium only ever sees
// the small PNG (or JPEG) made here:
// - the format is sniffed from the bytes (PNG, JPEG, GIF, WebP, AVIF) and must be the one libvips finds: nothing else
//   reaches a loader (libvips would also read SVG, TIFF, …);
// - GIF frame descriptors are walked first: a frame over MAX_LOGO_PIXELS refuses the GIF, whatever the header says
//   (libvips grows its canvas to such a frame, and its limit refuses it too: both, so neither is relied on alone);
// - `limitInputPixels` = MAX_LOGO_PIXELS, first frame only, a deadline, no libvips cache (client images are not kept);
// - downscaled to fit LOGO_MAX_WIDTH × LOGO_MAX_HEIGHT (4× the printed box of themes/base.css, `.doc-logo`, 220 × 90
//   CSS px) and re-encoded: JPEG stays JPEG, everything else becomes PNG (alpha kept), EXIF orientation applied.
// sharp runs on libuv's thread pool (the event loop goes on); at most MAX_DECODES decode at once, so memory stays
// bounded by a few 64 MiB bitmaps whatever arrives.
// Reasons are this module's words (they go to the log). Must not know about documents or fetching.
import sharp from 'sharp';

/** The largest bitmap decoded: 4096 × 4096 pixels (16.8 megapixels, a 64 MiB RGBA bitmap). */
export const MAX_LOGO_PIXELS = 4096 * 4096;
/** 4 × the printed box (`.doc-logo { max-width: 220px; max-height: 90px }`): sharp at any zoom a reader uses. */
export const LOGO_MAX_WIDTH = 880;
export const LOGO_MAX_HEIGHT = 360;
/** Decodes at once (the rest wait their turn). */
const MAX_DECODES = 2;
const DECODE_SECONDS = 5;

// Client images are decoded once and never looked at again: libvips' operation cache would only hold their memory.
// One libvips thread per decode (at most MAX_DECODES at once): a logo is small work, and the cores are Chromium's.
sharp.cache(false);
sharp.concurrency(1);

export type Bitmap = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif';
export type BitmapResult = { ok: true; type: 'image/png' | 'image/jpeg'; bytes: Buffer } | { ok: false; reason: string };

/** The bitmap format of `bytes` by its signature, or undefined. */
export function sniffBitmap(bytes: Uint8Array): Bitmap | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (b.length >= 16 && b.toString('latin1', 4, 8) === 'ftyp') {
    const size = Math.min(b.readUInt32BE(0), b.length, 256);
    for (let i = 8; i + 4 <= size; i += 4) {
      if (i === 12) continue; // minor version
      const brand = b.toString('latin1', i, i + 4);
      if (brand === 'avif' || brand === 'avis') return 'image/avif';
    }
  }
  return undefined;
}

/** The sharp format name of each type (AVIF is read by libvips' HEIF loader). */
const SHARP_FORMAT: Record<Bitmap, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'heif',
};

/**
 * Why a GIF may not be decoded, or undefined: every image descriptor is read (extensions and image data skipped by
 * their sub-block lengths), and a frame of more than MAX_LOGO_PIXELS, or a GIF that ends before its first frame,
 * refuses it. The logical screen is not trusted.
 */
export function gifProblem(b: Buffer): string | undefined {
  if (b.length < 13) return 'image_refused: truncated';
  let i = 13;
  const flags = b[10]!;
  if (flags & 0x80) i += 3 * (2 << (flags & 7));
  const skipSubBlocks = () => {
    while (i < b.length) {
      const n = b[i]!;
      i += 1 + n;
      if (n === 0) return;
    }
  };
  let frames = 0;
  while (i < b.length) {
    const block = b[i]!;
    if (block === 0x3b) break;
    if (block === 0x21) {
      i += 2;
      skipSubBlocks();
    } else if (block === 0x2c) {
      if (i + 10 > b.length) break;
      const width = b.readUInt16LE(i + 5);
      const height = b.readUInt16LE(i + 7);
      const local = b[i + 9]!;
      if (width * height > MAX_LOGO_PIXELS) return 'image_refused: gif frame too large';
      frames++;
      i += 10;
      if (local & 0x80) i += 3 * (2 << (local & 7));
      i += 1; // LZW minimum code size
      skipSubBlocks();
    } else {
      break; // not GIF: what follows is not read by anyone
    }
  }
  return frames === 0 ? 'image_refused: no frame' : undefined;
}

let decoding = 0;
const waiting: (() => void)[] = [];

async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (decoding >= MAX_DECODES) await new Promise<void>((resolve) => waiting.push(resolve));
  else decoding++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else decoding--;
  }
}

/**
 * `bytes` as a small PNG (or JPEG) of at most LOGO_MAX_WIDTH × LOGO_MAX_HEIGHT, decoded under the pixel budget, or
 * the reason it is left out (`image_refused: …`). Never throws.
 */
export async function boundBitmap(bytes: Buffer): Promise<BitmapResult> {
  const format = sniffBitmap(bytes);
  if (!format) return { ok: false, reason: 'image_refused: not a supported bitmap' };
  if (format === 'image/gif') {
    const problem = gifProblem(bytes);
    if (problem) return { ok: false, reason: problem };
  }
  return turn(async () => {
    try {
      const input = sharp(bytes, { limitInputPixels: MAX_LOGO_PIXELS, pages: 1, failOn: 'error', sequentialRead: true }).timeout({
        seconds: DECODE_SECONDS,
      });
      const meta = await input.metadata();
      if (meta.format !== SHARP_FORMAT[format] || (format === 'image/avif' && meta.compression !== 'av1')) {
        return { ok: false, reason: 'image_refused: format mismatch' };
      }
      const out = format === 'image/jpeg' ? 'image/jpeg' : 'image/png';
      const pipeline = input
        .autoOrient()
        .resize({ width: LOGO_MAX_WIDTH, height: LOGO_MAX_HEIGHT, fit: 'inside', withoutEnlargement: true });
      const encoded = out === 'image/jpeg' ? pipeline.jpeg({ quality: 90 }) : pipeline.png({ compressionLevel: 6 });
      return { ok: true, type: out, bytes: await encoded.toBuffer() };
    } catch (err) {
      const message = (err as Error).message ?? '';
      if (/pixel limit/i.test(message)) return { ok: false, reason: 'image_refused: too many pixels' };
      if (/timeout/i.test(message)) return { ok: false, reason: 'image_refused: decode timeout' };
      return { ok: false, reason: 'image_refused: undecodable' };
    }
  });
}
