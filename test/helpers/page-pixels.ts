// A rendered page as greyscale pixels (pdftoppm -gray, a binary PGM), addressed in millimetres from the page's top
// left corner: for measuring what a drawing puts where (a QR code's edges, a dashed line, the Swiss cross's parts).
// Independent of the code that drew them; asserts nothing itself.
import { execFileSync } from 'node:child_process';

export interface PagePixels {
  width: number;
  height: number;
  dpi: number;
  /** Page size in millimetres. */
  widthMm: number;
  heightMm: number;
  /** Whether the pixel at (x, y) mm is dark (below mid-grey). */
  dark(xMm: number, yMm: number): boolean;
  /** The box in millimetres of the dark pixels inside the box given in millimetres (undefined: none). */
  darkBox(x0: number, y0: number, x1: number, y1: number): { x0: number; y0: number; x1: number; y1: number } | undefined;
  /** The share of dark pixels along a row (y mm) or a column (x mm), between two positions in millimetres. */
  darkShare(axis: 'row' | 'column', at: number, from: number, to: number): number;
}

/** Page `page` (1-based) of `pdf` at `dpi`. */
export function pagePixels(pdf: Uint8Array, page: number, dpi: number): PagePixels {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), '-'], {
    input: pdf,
    maxBuffer: 512 * 1024 * 1024,
  });
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'))!;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  const px = dpi / 25.4;
  const isDark = (x: number, y: number) => pixels[y * width + x]! < 128;
  const at = (mm: number, max: number) => Math.min(max - 1, Math.max(0, Math.round(mm * px)));
  return {
    width,
    height,
    dpi,
    widthMm: width / px,
    heightMm: height / px,
    dark: (xMm, yMm) => isDark(at(xMm, width), at(yMm, height)),
    darkBox(x0, y0, x1, y1) {
      let box: { x0: number; y0: number; x1: number; y1: number } | undefined;
      for (let y = at(y0, height); y <= at(y1, height); y++) {
        for (let x = at(x0, width); x <= at(x1, width); x++) {
          if (!isDark(x, y)) continue;
          box = box
            ? { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x + 1), y1: Math.max(box.y1, y + 1) }
            : { x0: x, y0: y, x1: x + 1, y1: y + 1 };
        }
      }
      return box && { x0: box.x0 / px, y0: box.y0 / px, x1: box.x1 / px, y1: box.y1 / px };
    },
    darkShare(axis, atMm, from, to) {
      let darkCount = 0;
      let all = 0;
      const fixed = at(atMm, axis === 'row' ? height : width);
      for (let i = at(from, axis === 'row' ? width : height); i < at(to, axis === 'row' ? width : height); i++, all++) {
        if (axis === 'row' ? isDark(i, fixed) : isDark(fixed, i)) darkCount++;
      }
      return all === 0 ? 0 : darkCount / all;
    },
  };
}
