// Reads QR codes back as a phone's banking app would, with ZXingReader (Debian's zxing-cpp-tools): from a PNG (a
// rendered page, or a drawing rasterised here), the payload's bytes exactly as encoded. Independent of the code
// that drew them; asserts nothing itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { QrDrawing } from '../../server/payments/qr';
import { grayPng } from './png';
import { tempDir } from './service';

/** The bytes of the QR code ZXingReader finds in `png` as UTF-8 text, or undefined when it finds none. */
export function readQr(png: Buffer): string | undefined {
  const file = path.join(tempDir('qr-read'), 'code.png');
  fs.writeFileSync(file, png);
  const out = execFileSync('ZXingReader', ['-format', 'QRCode', '-bytes', file]);
  return out.length === 0 ? undefined : out.toString('utf8');
}

/** A drawing's path rasterised at `scale` pixels a module, read from its own runs (`M x y h w v1 h-w z`). */
export function rasterise(drawing: QrDrawing, scale = 4): Buffer {
  const side = drawing.size * scale;
  const pixels = new Uint8Array(side * side).fill(255);
  for (const m of drawing.path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const [x, y, w] = [Number(m[1]), Number(m[2]), Number(m[3])];
    for (let row = y * scale; row < (y + 1) * scale; row++) pixels.fill(0, row * side + x * scale, row * side + (x + w) * scale);
  }
  return grayPng(side, side, pixels);
}
