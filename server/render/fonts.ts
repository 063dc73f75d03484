// Fonts shipped with the project (@fontsource packages listed in themes/fonts.json), inlined into the page as data:
// URIs so that the printed page needs no network and no file, and output is the same on every machine.
// Each package is split into unicode-range subsets. For each character of a document, the first family (in
// fonts.json order) that covers it is chosen, and only the subset files holding the document's characters are
// inlined: a Latin invoice stays small, a Bengali one still gets its glyphs. The page's font stack lists every
// family in the same order (Chromium picks per character as we do), with the CJK family matching the text first.
// Must not know about documents.
import fs from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { LRUCache } from 'lru-cache';
import { hanVariant, type HanVariant } from './han-variant';

interface Face {
  family: number;
  /** The CSS family name, e.g. `Noto Sans Bengali`. */
  name: string;
  id: string;
  css: string;
  /** Inclusive code point ranges (the @font-face unicode-range, which Chromium goes by). */
  ranges: [number, number][];
  /** The code points the file has glyphs for (see cmapOf), read when the face is first considered. */
  cmap?: Set<number>;
  file: string;
}

/** One inlined font file: its @font-face rule, named by the file (a page that has loaded it keeps it). */
export interface InlineFace {
  id: string;
  css: string;
}

export interface PageFonts {
  /** The @font-face rules for the subsets `text` needs (the basic Latin subset always), in fonts.json order. */
  faces: InlineFace[];
  /** The CSS font-family list for the page, every family in fallback order. */
  stack: string;
}

export interface FontSet {
  /** `only`: text a template sets in a family that is never a fallback (fonts.json `only`, e.g. `qr-bill`). */
  forText(text: string, only?: { use: string; text: string }): PageFonts;
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
  /** A CJK family: which variant of Han type it draws. */
  han?: HanVariant;
  /** Never a fallback: inlined only for the text a template sets in it by name (`qr-bill`: the QR-bill's Arimo). */
  only?: string;
}

/** Families in fallback order for one kind of document, and a key naming that order. */
interface Order {
  key: string;
  families: number[];
}

/** Combining marks and format characters (ZWJ, ZWNJ, variation selectors) belong to the cluster they join: they are
 * drawn by the font of the character before them, so they must not pull in a family of their own when that one
 * covers them (ZWJ is in the Arabic, Bengali and emoji subsets alike). */
const JOINING = /[\p{M}\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/u;

/**
 * The code points a font file draws. A subset's unicode-range is not the font's coverage: Noto Sans Arabic's
 * `symbols` subset claims ★ and 📦 and has neither, a Noto Sans SC slice claims ✅; a face chosen for a character it
 * lacks prints a box where a later family had the glyph. So a face is also asked its cmap, the first time it is
 * considered (most documents consider a handful of the ~1,000 faces). The WOFF (1) beside each WOFF2 is read: its
 * tables inflate one by one, so reading the cmap costs about a millisecond, where a WOFF2 must be decompressed whole.
 * An unreadable file covers nothing (start-up has checked that every file exists).
 */
function cmapOf(woff2File: string): Set<number> {
  const woff = woff2File.replace(/\.woff2$/, '.woff');
  // fontkit cannot read a few of the WOFF files (Noto Sans TC slice 119 and SC slice 101, which hold the most common
  // Han characters): their WOFF2 is read instead, more slowly, rather than the slice covering nothing.
  for (const file of fs.existsSync(woff) ? [woff, woff2File] : [woff2File]) {
    try {
      const font = fontkit.create(fs.readFileSync(file));
      return new Set('characterSet' in font ? font.characterSet : []);
    } catch {
      // The next file, if any.
    }
  }
  return new Set();
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
  const families = config.families ?? [];
  families.forEach((entry, family) => {
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
        const name = /font-family:\s*'([^']+)'/.exec(block)?.[1];
        if (!name) {
          problems.push(`${entry.package}/${file}: a @font-face without a font-family`);
          continue;
        }
        faces.push({
          family,
          name,
          id: `${entry.package}/${url[1]}`,
          css: block,
          ranges: range ? parseRanges(range[1]!) : [[0, 0x10ffff]],
          file: fontFile,
        });
      }
    }
  });
  if (problems.length > 0) throw new FontLoadError(problems);
  if (faces.length === 0) throw new FontLoadError([`${configFile} lists no font faces`]);

  const names = families.map((_, family) => faces.find((f) => f.family === family)?.name);
  families.forEach((entry, family) => {
    if (!names[family]) problems.push(`${entry.package}: none of its subsets (${entry.subsets?.join(', ') ?? 'all'}) was found`);
  });
  if (problems.length > 0) throw new FontLoadError(problems);

  // Per family, its faces' ranges sorted by start, with the largest end so far: the faces whose range holds a code
  // point are found by binary search (a document of 30,000 distinct characters asks ~26 families each).
  interface Span {
    start: number;
    end: number;
    face: Face;
  }
  const spans: { list: Span[]; maxEnd: number[] }[] = families.map((_, family) => {
    const list = faces.filter((f) => f.family === family).flatMap((face) => face.ranges.map(([start, end]) => ({ start, end, face })));
    list.sort((x, y) => x.start - y.start);
    let max = -1;
    return { list, maxEnd: list.map((sp) => (max = Math.max(max, sp.end))) };
  });
  const facesOf = (family: number, cp: number): Face[] => {
    const { list, maxEnd } = spans[family]!;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.start <= cp) lo = mid + 1;
      else hi = mid;
    }
    const found: Face[] = [];
    for (let i = lo - 1; i >= 0 && maxEnd[i]! >= cp; i--) {
      const { end, face } = list[i]!;
      if (end >= cp && !found.includes(face) && (face.cmap ??= cmapOf(face.file)).has(cp)) found.push(face);
    }
    return found;
  };
  /** Code point → the faces to inline for it (every weight of the first family covering it). */
  const lookup = (cp: number, order: Order): Face[] => {
    for (const family of order.families) {
      const found = facesOf(family, cp);
      if (found.length > 0) return found;
    }
    return [];
  };
  /** Fallback order for a document: fonts.json order, the CJK family matching the text first among the CJK ones. */
  const hanFamilies = families.flatMap((entry, family) => (entry.han ? [family] : []));
  const orderFor = (variant: HanVariant | undefined): Order => {
    const order = families.flatMap((entry, family) => (entry.only ? [] : [family]));
    const preferred = variant === undefined ? -1 : families.findIndex((entry) => entry.han === variant);
    if (preferred >= 0) {
      const reordered = [preferred, ...hanFamilies.filter((f) => f !== preferred)];
      const positions = hanFamilies.map((family) => order.indexOf(family));
      positions.forEach((at, i) => (order[at] = reordered[i]!));
    }
    return { key: variant ?? '-', families: order };
  };
  const quote = (name: string): string => `'${name.replace(/'/g, "\\'")}'`;

  // One face as inlined CSS (its file in base64), bounded by bytes: every CJK slice at once would be about 100 MB.
  const inlined = new LRUCache<string, string>({ maxSize: 48 * 1024 * 1024, sizeCalculation: (css) => css.length || 1 });
  const inline = (face: Face): string => {
    let css = inlined.get(face.id);
    if (css === undefined) {
      const data = fs.readFileSync(face.file).toString('base64');
      css = face.css.replace(/src:[^;]+;/, `src: url(data:font/woff2;base64,${data}) format('woff2');`);
      inlined.set(face.id, css);
    }
    return css;
  };
  return {
    forText(text: string, only?: { use: string; text: string }): PageFonts {
      const order = orderFor(hanVariant(text));
      const chosen = new Set<Face>(lookup(0x41, order));
      if (only) {
        const own = families.flatMap((entry, family) => (entry.only === only.use ? [family] : []));
        for (const ch of new Set(only.text)) for (const family of own) for (const f of facesOf(family, ch.codePointAt(0)!)) chosen.add(f);
      }
      let previous: number | undefined;
      // Each distinct code point is looked up once per document (and each joining one once per family before it).
      const firstOf = new Map<number, Face[]>();
      const seenJoining = new Set<string>();
      // ASCII, most of any long table, answered from an array before the regex and the map (never joining).
      const asciiFound: (Face[] | undefined)[] = new Array<Face[] | undefined>(128);
      for (const ch of text) {
        const cp = ch.codePointAt(0)!;
        const ascii = cp < 128 ? asciiFound[cp] : undefined;
        if (ascii) {
          previous = ascii[0]?.family;
          continue;
        }
        if (JOINING.test(ch)) {
          const key = `${previous}:${cp}`;
          if (seenJoining.has(key)) continue;
          seenJoining.add(key);
          const own = previous === undefined ? [] : facesOf(previous, cp);
          for (const f of own.length > 0 ? own : lookup(cp, order)) chosen.add(f);
          continue;
        }
        let found = firstOf.get(cp);
        if (!found) {
          found = lookup(cp, order);
          firstOf.set(cp, found);
          if (cp < 128) asciiFound[cp] = found;
          for (const f of found) chosen.add(f);
        }
        previous = found[0]?.family;
      }
      const list = [...chosen].sort((a, b) => faces.indexOf(a) - faces.indexOf(b));
      return {
        faces: list.map((face) => ({ id: face.id, css: inline(face) })),
        stack: order.families.map((family) => quote(names[family]!)).join(', '),
      };
    },
  };
}
