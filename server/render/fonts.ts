// Fonts shipped with the project (@fontsource packages listed in themes/fonts.json), inlined into the page as data:
// URIs so that the printed page needs no network and no file, and output is the same on every machine.
// Each package is split into unicode-range subsets. For each character of a document, the first family (in
// fonts.json order) that covers it is chosen, and only the subset files holding the document's characters are
// inlined: a Latin invoice stays small, a Korean one still gets its glyphs. Must not know about documents.
import fs from 'node:fs';
import path from 'node:path';

interface Face {
  family: number;
  id: string;
  css: string;
  /** Inclusive code point ranges. */
  ranges: [number, number][];
  file: string;
}

export interface FontSet {
  /** The @font-face CSS for the subsets needed by `text` (the basic Latin subset always). */
  cssFor(text: string): string;
}

export class FontLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(`The fonts could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'FontLoadError';
  }
}

interface FamilyConfig {
  package: string;
  files: string[];
  /** Subset names to keep (`latin`, `thai`, …; `numbered` for the CJK slices `[0]`…). All when absent. */
  subsets?: string[];
}

function parseRanges(spec: string): [number, number][] {
  return spec.split(',').map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
    const start = parseInt(a!, 16);
    return [start, b ? parseInt(b, 16) : start];
  });
}

/** `noto-sans-jp-12-400-normal.woff2` → `numbered`; `noto-sans-thai-thai-400-normal.woff2` → `thai`. */
function subsetName(packageName: string, fileName: string): string {
  const base = packageName.replace(/^@[^/]+\//, '');
  const name = fileName.slice(base.length + 1).replace(/-\d+-(normal|italic)\.woff2$/, '');
  return /^\d+$/.test(name) ? 'numbered' : name;
}

export function loadFonts(configFile: string, resolvePackage: (name: string) => string): FontSet {
  const problems: string[] = [];
  let config: { families?: FamilyConfig[] };
  try {
    config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  } catch (err) {
    throw new FontLoadError([`${configFile}: ${(err as Error).message}`]);
  }
  const faces: Face[] = [];
  (config.families ?? []).forEach((entry, family) => {
    let dir: string;
    try {
      dir = path.dirname(resolvePackage(`${entry.package}/package.json`));
    } catch {
      problems.push(`font package ${entry.package} is not installed (run npm ci)`);
      return;
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
        if (entry.subsets && !entry.subsets.includes(subsetName(entry.package, url[1]!))) continue;
        const fontFile = path.join(dir, 'files', url[1]!);
        if (!fs.existsSync(fontFile)) {
          problems.push(`${entry.package}: ${url[1]} is missing`);
          continue;
        }
        faces.push({ family, id: `${entry.package}/${url[1]}`, css: block, ranges: range ? parseRanges(range[1]!) : [[0, 0x10ffff]], file: fontFile });
      }
    }
  });
  if (problems.length > 0) throw new FontLoadError(problems);
  if (faces.length === 0) throw new FontLoadError([`${configFile} lists no font faces`]);

  const covers = (face: Face, cp: number): boolean => face.ranges.some(([a, b]) => cp >= a && cp <= b);
  /** Code point → the faces to inline for it (every weight of the first family covering it). Memoized. */
  const facesFor = new Map<number, Face[]>();
  const lookup = (cp: number): Face[] => {
    let found = facesFor.get(cp);
    if (!found) {
      const first = faces.find((f) => covers(f, cp));
      found = first ? faces.filter((f) => f.family === first.family && covers(f, cp)) : [];
      facesFor.set(cp, found);
    }
    return found;
  };

  const inlined = new Map<string, string>();
  const inline = (face: Face): string => {
    let css = inlined.get(face.id);
    if (css === undefined) {
      const data = fs.readFileSync(face.file).toString('base64');
      css = face.css.replace(/src:[^;]+;/, `src: url(data:font/woff2;base64,${data}) format('woff2');`);
      inlined.set(face.id, css);
    }
    return css;
  };
  const cssCache = new Map<string, string>();

  return {
    cssFor(text: string): string {
      const chosen = new Set<Face>(lookup(0x41));
      const seen = new Set<number>();
      for (const ch of text) {
        const cp = ch.codePointAt(0)!;
        if (seen.has(cp)) continue;
        seen.add(cp);
        for (const f of lookup(cp)) chosen.add(f);
      }
      const list = [...chosen].sort((a, b) => faces.indexOf(a) - faces.indexOf(b));
      const key = list.map((f) => f.id).join('|');
      let css = cssCache.get(key);
      if (css === undefined) {
        css = list.map(inline).join('\n');
        if (cssCache.size > 256) cssCache.clear();
        cssCache.set(key, css);
      }
      return css;
    },
  };
}
