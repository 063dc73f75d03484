// Fonts shipped with the project (@fontsource packages listed in themes/fonts.json), inlined into the page as data:
// URIs so that the printed page needs no network and no file, and output is the same on every machine.
// Each package is split into unicode-range subsets; a page gets only the subsets its text uses, which keeps a
// Latin invoice small while a Korean one still gets its glyphs. Must not know about documents.
import fs from 'node:fs';
import path from 'node:path';

interface Face {
  id: string;
  css: string;
  /** Inclusive code point ranges. */
  ranges: [number, number][];
  file: string;
}

export interface FontSet {
  /** The @font-face CSS for every subset needed by `text` (always includes the basic Latin subset). */
  cssFor(text: string): string;
}

export class FontLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(`The fonts could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'FontLoadError';
  }
}

function parseRanges(spec: string): [number, number][] {
  return spec.split(',').map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
    const start = parseInt(a!, 16);
    return [start, b ? parseInt(b, 16) : start];
  });
}

export function loadFonts(configFile: string, resolvePackage: (name: string) => string): FontSet {
  const problems: string[] = [];
  let config: { faces: { package: string; files: string[] }[] };
  try {
    config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  } catch (err) {
    throw new FontLoadError([`${configFile}: ${(err as Error).message}`]);
  }
  const faces: Face[] = [];
  for (const entry of config.faces ?? []) {
    let dir: string;
    try {
      dir = path.dirname(resolvePackage(`${entry.package}/package.json`));
    } catch {
      problems.push(`font package ${entry.package} is not installed (run npm ci)`);
      continue;
    }
    for (const file of entry.files) {
      let css: string;
      try {
        css = fs.readFileSync(path.join(dir, file), 'utf8');
      } catch {
        problems.push(`${entry.package}/${file} does not exist`);
        continue;
      }
      for (const block of css.match(/@font-face\s*{[^}]*}/g) ?? []) {
        const url = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(block);
        const range = /unicode-range:\s*([^;]+);/.exec(block);
        if (!url) continue;
        const fontFile = path.join(dir, 'files', url[1]!);
        if (!fs.existsSync(fontFile)) {
          problems.push(`${entry.package}: ${url[1]} is missing`);
          continue;
        }
        faces.push({
          id: `${entry.package}/${url[1]}`,
          css: block,
          ranges: range ? parseRanges(range[1]!) : [[0, 0x10ffff]],
          file: fontFile,
        });
      }
    }
  }
  if (problems.length > 0) throw new FontLoadError(problems);
  if (faces.length === 0) throw new FontLoadError([`${configFile} lists no font faces`]);

  const inlined = new Map<string, string>();
  const inline = (face: Face): string => {
    let css = inlined.get(face.id);
    if (css === undefined) {
      const data = fs.readFileSync(face.file).toString('base64');
      // Keep only the woff2 source, as a data: URI.
      css = face.css.replace(/src:[^;]+;/, `src: url(data:font/woff2;base64,${data}) format('woff2');`);
      inlined.set(face.id, css);
    }
    return css;
  };
  const cssCache = new Map<string, string>();

  return {
    cssFor(text: string): string {
      const points = new Set<number>([0x41]);
      for (const ch of text) points.add(ch.codePointAt(0)!);
      const chosen = faces.filter((f) => f.ranges.some(([a, b]) => { for (const p of points) if (p >= a && p <= b) return true; return false; }));
      const key = chosen.map((f) => f.id).join('|');
      let css = cssCache.get(key);
      if (css === undefined) {
        css = chosen.map(inline).join('\n');
        if (cssCache.size > 256) cssCache.clear();
        cssCache.set(key, css);
      }
      return css;
    },
  };
}
