// Fonts shipped with the project (@fontsource packages listed in themes/fonts.json), inlined into the page as data:
// URIs so that the printed page needs no network and no file, and output is the same on every machine.
// Each package is split into unicode-range subsets. For each character of a document, the first family (in
// fonts.json order) that covers it is chosen, and only the subset files holding the document's characters are
// inlined: a Latin invoice stays small, a Bengali one still gets its glyphs. A combining mark goes with its letter
// (Chromium draws the two in one font): in the letter's family when it draws the mark or the letter they compose,
// else in the first family drawing both (DejaVu Sans, last, for most marks Google's Noto subsets drop). The page's
// font stack lists every family in the same order (Chromium picks per character as we do), with the CJK family
// matching the text first.
// The faces and families are read at start-up by font-files.ts. Must not know about documents.
import fs from 'node:fs';
import * as fontkit from 'fontkit';
import { LRUCache } from 'lru-cache';
import { loadFontFiles, type Face, type FamilyConfig } from './font-files';
import { hanVariant, type HanVariant } from './han-variant';

export { FontLoadError } from './font-files';

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
  /** `only`: text a template sets in a family that is never a fallback (fonts.json `only`, e.g. `qr-bill`); `lead`:
   * a family (by name) put first, for the characters it draws (an account's brand font). */
  forText(text: string, only?: { use: string; text: string }, lead?: string): PageFonts;
  /** The families that draw Latin text, by name, in fonts.json order: what a brand may lead with. */
  latinFamilies: readonly string[];
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

/** Characters the shaper never draws (bidi marks, the word joiner, the combining grapheme joiner, a soft hyphen): they
 * choose no font, where asking for a family that has them inlined DejaVu Sans's 490 KB for an LRM. ZWJ and the
 * variation selectors are kept: they choose an emoji's presentation. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const neverDrawn = (ch: string, cp: number): boolean =>
  cp !== 0x200d && !(cp >= 0xfe00 && cp <= 0xfe0f) && !(cp >= 0xe0100 && cp <= 0xe01ef) && IGNORABLE.test(ch);

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

export function loadFonts(configFile: string, resolvePackage: (name: string) => string): FontSet {
  const { families, faces, names } = loadFontFiles(configFile, resolvePackage);
  const spans = familySpans(families, faces);
  const inFamily = (family: number, cp: number): Face[] => facesOf(spans[family]!, cp);
  const orderFor = fallbackOrders(families);
  const inline = faceInliner();
  const quote = (name: string): string => `'${name.replace(/'/g, "\\'")}'`;
  // The faces of each ASCII character, by fallback order: found once, then read by every document (a few orders in
  // all: the Han variants, each led by a theme's family).
  const asciiByOrder = new Map<string, (Face[] | undefined)[]>();
  return {
    // Those that draw every letter of a Western European text (Noto Sans, DejaVu Sans, Arimo: not the CJK families,
    // whose Latin is an afterthought, nor the math and symbol ones).
    latinFamilies: families.flatMap((entry, family) =>
      (!entry.subsets || entry.subsets.includes('latin')) &&
      !entry.han &&
      [...'AaéßøĄ€'].every((ch) => inFamily(family, ch.codePointAt(0)!).length > 0)
        ? [names[family]!]
        : [],
    ),
    forText(text: string, only?: { use: string; text: string }, lead?: string): PageFonts {
      const order = ledBy(orderFor(hanVariant(text)), lead === undefined ? -1 : names.indexOf(lead));
      const own = only && { families: families.flatMap((entry, family) => (entry.only === only.use ? [family] : [])), text: only.text };
      let ascii = asciiByOrder.get(order.key);
      if (!ascii) asciiByOrder.set(order.key, (ascii = new Array<Face[] | undefined>(128)));
      const chosen = chooseFaces(text, order, inFamily, ascii, own);
      const list = [...chosen].sort((a, b) => faces.indexOf(a) - faces.indexOf(b));
      return {
        faces: list.map((face) => ({ id: face.id, css: inline(face) })),
        stack: order.families.map((family) => quote(names[family]!)).join(', '),
      };
    },
  };
}

/** The faces of a family that draw a code point (facesOf on that family's spans). */
type FacesIn = (family: number, cp: number) => Face[];

/**
 * The faces `text` needs: the basic Latin one always; for each code point the faces of the first family in `order`
 * that draws it; for a joining character, those joiner chooses; and the faces of `own` (the families that are never
 * a fallback) for the text set in them.
 */
function chooseFaces(
  text: string,
  order: Order,
  inFamily: FacesIn,
  asciiFound: (Face[] | undefined)[],
  own?: { families: number[]; text: string },
): Set<Face> {
  const chosen = new Set<Face>(lookup(0x41, order, inFamily));
  if (own) {
    for (const ch of new Set(own.text))
      for (const family of own.families) for (const f of inFamily(family, ch.codePointAt(0)!)) chosen.add(f);
  }
  const join = joiner(order, askedOnce(inFamily), (faces) => faces.forEach((f) => chosen.add(f)));
  let previous: number | undefined;
  let base: number | undefined;
  // Each distinct code point is looked up once per document; ASCII (most of any long table, never joining) once per
  // order (`asciiFound`, this order's), its faces added at its first use in this text (`asciiSeen`).
  const firstOf = new Map<number, Face[]>();
  const asciiSeen = new Uint8Array(128);
  // By UTF-16 unit, not by iterator: a long document's text is mostly ASCII, answered without making a string.
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 128) {
      let ascii = asciiFound[unit];
      if (ascii === undefined) asciiFound[unit] = ascii = lookup(unit, order, inFamily);
      if (asciiSeen[unit] === 0) {
        asciiSeen[unit] = 1;
        for (const f of ascii) chosen.add(f);
      }
      previous = ascii[0]?.family;
      base = unit;
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    const ch = String.fromCodePoint(cp);
    if (JOINING.test(ch)) {
      if (!neverDrawn(ch, cp)) base = join(previous, base, cp);
      continue;
    }
    let found = firstOf.get(cp);
    if (!found) {
      found = lookup(cp, order, inFamily);
      firstOf.set(cp, found);
      for (const f of found) chosen.add(f);
    }
    previous = found[0]?.family;
    base = cp;
  }
  return chosen;
}

/** `drawing` asked once per family and code point, for the joining characters (a document of letters with marks
 * asks the same mark and letters again and again). Keys stay small integers: under 128 families, code points under
 * 0x110000. */
function askedOnce(drawing: FacesIn): FacesIn {
  const asked = new Map<number, Face[]>();
  return (family, cp) => {
    const key = cp * 128 + family;
    let faces = asked.get(key);
    if (faces === undefined) asked.set(key, (faces = drawing(family, cp)));
    return faces;
  };
}

/**
 * One document's joining characters: for a joining `cp` after `base` (which the family `previous` draws), hands the
 * faces not yet chosen to `choose` and returns the letter a next mark joins. A mark its letter's family draws stays
 * with that family (most of them: harakat, vowel signs, Vietnamese tones), answered once per family and mark; the
 * others once per letter and mark (joiningFaces).
 */
function joiner(
  order: Order,
  inFamily: FacesIn,
  choose: (faces: Face[]) => void,
): (previous: number | undefined, base: number | undefined, cp: number) => number | undefined {
  const withTheirLetter = new Set<number>();
  const byLetter = new Map<number, Map<number, Join>>();
  const drawers = new Map<number, number[]>();
  const familiesDrawing = (cp: number): number[] => {
    let families = drawers.get(cp);
    if (families === undefined) drawers.set(cp, (families = order.families.filter((family) => inFamily(family, cp).length > 0)));
    return families;
  };
  return (previous, base, cp) => {
    const own = previous === undefined ? [] : inFamily(previous, cp);
    const key = cp * 128 + (previous ?? 127);
    if (own.length > 0) {
      if (!withTheirLetter.has(key)) choose(own);
      withTheirLetter.add(key);
      return base;
    }
    const letter = base ?? 0x110000;
    let joins = byLetter.get(letter);
    if (joins === undefined) byLetter.set(letter, (joins = new Map()));
    let join = joins.get(key);
    if (join === undefined) {
      joins.set(key, (join = joiningFaces(previous, base, cp, familiesDrawing, inFamily)));
      choose(join.faces);
    }
    return join.base;
  };
}

/** A joining character's faces, and the letter a next mark joins (`base`, or the letter the two compose). */
interface Join {
  faces: Face[];
  base: number | undefined;
}

/**
 * The faces for a joining `cp` that the family `previous` of its letter `base` lacks: that family's, when the two
 * compose into a letter it draws (s + U+030C is š, which the shaper puts in their place); else clusterLookup's.
 */
function joiningFaces(
  previous: number | undefined,
  base: number | undefined,
  cp: number,
  familiesDrawing: (cp: number) => number[],
  inFamily: FacesIn,
): Join {
  const composed = previous === undefined || base === undefined ? [] : [...String.fromCodePoint(base, cp).normalize('NFC')];
  const letter = composed.length === 1 ? composed[0]!.codePointAt(0)! : undefined;
  const faces = letter === undefined ? [] : inFamily(previous!, letter);
  if (faces.length > 0) return { faces, base: letter };
  return { faces: clusterLookup(base, cp, familiesDrawing(cp), inFamily), base };
}

/** A joining `cp` its base's family lacks, drawn by `drawing` (families in fallback order): the faces of the first
 * of them that draws the base too (its face included: Chromium draws a cluster whole in one font, so x̂, which has no
 * precomposed form, goes to a family with both x and U+0302), else those of the first. */
function clusterLookup(base: number | undefined, cp: number, drawing: number[], inFamily: FacesIn): Face[] {
  for (const family of base === undefined ? [] : drawing) {
    const bases = inFamily(family, base!);
    if (bases.length > 0) return [...new Set([...bases, ...inFamily(family, cp)])];
  }
  return drawing.length > 0 ? inFamily(drawing[0]!, cp) : [];
}

/** Code point → the faces to inline for it (every weight of the first family covering it). */
function lookup(cp: number, order: Order, inFamily: FacesIn): Face[] {
  for (const family of order.families) {
    const found = inFamily(family, cp);
    if (found.length > 0) return found;
  }
  return [];
}

/** One family's faces' ranges sorted by start, with the largest end so far at each. */
interface FamilySpans {
  list: { start: number; end: number; face: Face }[];
  maxEnd: number[];
}

/** Per family, its spans: the faces whose range holds a code point are found by binary search (a document of 30,000
 * distinct characters asks ~26 families each). */
function familySpans(families: readonly FamilyConfig[], faces: readonly Face[]): FamilySpans[] {
  return families.map((_, family) => {
    const list = faces.filter((f) => f.family === family).flatMap((face) => face.ranges.map(([start, end]) => ({ start, end, face })));
    list.sort((x, y) => x.start - y.start);
    let max = -1;
    return { list, maxEnd: list.map((sp) => (max = Math.max(max, sp.end))) };
  });
}

/** The faces of one family whose range holds `cp` and whose file draws it (its cmap read the first time). */
function facesOf({ list, maxEnd }: FamilySpans, cp: number): Face[] {
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
}

/** Fallback order for a document: fonts.json order, the CJK family matching the text first among the CJK ones. */
function fallbackOrders(families: readonly FamilyConfig[]): (variant: HanVariant | undefined) => Order {
  const hanFamilies = families.flatMap((entry, family) => (entry.han ? [family] : []));
  return (variant) => {
    const order = families.flatMap((entry, family) => (entry.only ? [] : [family]));
    const preferred = variant === undefined ? -1 : families.findIndex((entry) => entry.han === variant);
    if (preferred >= 0) {
      const reordered = [preferred, ...hanFamilies.filter((f) => f !== preferred)];
      const positions = hanFamilies.map((family) => order.indexOf(family));
      positions.forEach((at, i) => (order[at] = reordered[i]!));
    }
    return { key: variant ?? '-', families: order };
  };
}

/** `order` with `family` first (a family kept for one use, Arimo, too): a brand's font draws what it can, the others
 * the rest. */
function ledBy(order: Order, family: number): Order {
  if (family < 0) return order;
  return { key: `${order.key}+${family}`, families: [family, ...order.families.filter((f) => f !== family)] };
}

/** One face as inlined CSS (its file in base64), bounded by bytes: every CJK slice at once would be about 100 MB. */
function faceInliner(): (face: Face) => string {
  const inlined = new LRUCache<string, string>({ maxSize: 48 * 1024 * 1024, sizeCalculation: (css) => css.length || 1 });
  return (face) => {
    let css = inlined.get(face.id);
    if (css === undefined) {
      const data = fs.readFileSync(face.file).toString('base64');
      css = face.css.replace(/src:[^;]+;/, `src: url(data:font/woff2;base64,${data}) format('woff2');`);
      inlined.set(face.id, css);
    }
    return css;
  };
}
