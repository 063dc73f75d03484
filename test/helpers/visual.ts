// Visual regression: PNG renders (pdftoppm) of each example type × theme compared with committed baselines
// (test/visual/baselines) by pixelmatch, with a tolerance; a failure writes a diff image to test/.artifacts/visual/.
// `npm run visual:update` rewrites the baselines after an intended change.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { projectRoot } from '../../server/config';

export const BASELINES = path.join(projectRoot(), 'test', 'visual', 'baselines');
export const ARTIFACTS = path.join(projectRoot(), 'test', '.artifacts', 'visual');
/** Resolution of the comparison images: enough to see a colour, a moved block or a lost line. */
export const DPI = 40;
/** Share of pixels that may differ (anti-aliasing between rasterizer builds) before a render counts as changed. */
export const TOLERANCE = 0.002;

/** First page of a PDF as PNG bytes. */
export function pdfToPng(pdf: Uint8Array): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-png-'));
  try {
    fs.writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      String(DPI),
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      path.join(dir, 'doc.pdf'),
      path.join(dir, 'page'),
    ]);
    return fs.readFileSync(path.join(dir, 'page.png'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface Comparison {
  name: string;
  differing: number;
  ratio: number;
  passed: boolean;
  diffFile?: string;
}

export function compareWithBaseline(name: string, png: Buffer, baselineDir = BASELINES): Comparison {
  const file = path.join(baselineDir, `${name}.png`);
  if (!fs.existsSync(file)) throw new Error(`no baseline ${file}: run npm run visual:update`);
  const expected = PNG.sync.read(fs.readFileSync(file));
  const actual = PNG.sync.read(png);
  if (expected.width !== actual.width || expected.height !== actual.height) {
    return { name, differing: Infinity, ratio: 1, passed: false };
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const differing = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, { threshold: 0.1 });
  const ratio = differing / (actual.width * actual.height);
  const passed = ratio <= TOLERANCE;
  let diffFile: string | undefined;
  if (!passed) {
    diffFile = path.join(ARTIFACTS, `${name}-diff.png`);
    fs.mkdirSync(path.dirname(diffFile), { recursive: true });
    fs.writeFileSync(diffFile, PNG.sync.write(diff));
    fs.writeFileSync(path.join(ARTIFACTS, `${name}-actual.png`), png);
  }
  return { name, differing, ratio, passed, diffFile };
}
