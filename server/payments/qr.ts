// A QR code as vectors for the page: the matrix from the `qrcode` package (ISO/IEC 18004; error correction M, which
// the EPC and Swiss QR-bill guidelines prescribe; the payload as one byte segment of its UTF-8, as both ask), drawn
// as one SVG path of dark runs, row by row, with the quiet zone kept inside the drawing. Knows no
// payload and no layout.
import QRCode from 'qrcode';

export interface QrDrawing {
  /** Modules across, quiet zone included: the SVG's viewBox is `0 0 size size`. */
  size: number;
  /** The dark modules as one path (`M x y h w v 1 h -w z` per run), in module units. */
  path: string;
  /** The symbol's version (1-40). */
  version: number;
}

const QUIET_ZONE = 4;

/** The drawing of `text`'s QR code, error correction M, with `quiet` light modules around it (four, the standard's
 * quiet zone; none for the QR-bill, whose 5 mm margin is its quiet zone). */
export function qrDrawing(text: string, quiet = QUIET_ZONE): QrDrawing {
  const code = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const { size, data } = code.modules;
  const runs: string[] = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size;) {
      if (!data[y * size + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && data[y * size + x]) x++;
      runs.push(`M${start + quiet} ${y + quiet}h${x - start}v1h${start - x}z`);
    }
  }
  return { size: size + 2 * quiet, path: runs.join(''), version: code.version };
}
