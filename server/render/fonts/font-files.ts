// The font files as start-up finds them: themes/fonts.json's families (@fontsource packages) and the @font-face rules
// of the stylesheets each names, one face per subset file kept, with its unicode-range. Every package, stylesheet or
// font file missing stops start-up, all listed at once. Reads no glyph and chooses no face for a text (fonts.ts does).
import fs from 'node:fs';
import path from 'node:path';
import type { HanVariant } from './han-variant';

export interface Face {
  family: number;
  /** The CSS family name, e.g. `Noto Sans Bengali`. */
  name: string;
  id: string;
  css: string;
  /** Inclusive code point ranges (the @font-face unicode-range, which Chromium goes by). */
  ranges: [number, number][];
  /** The code points the file has glyphs for (see fonts.ts, cmapOf), read when the face is first considered. */
  cmap?: Set<number>;
  file: string;
}

export interface FamilyConfig {
  package: string;
  files: string[];
  /** Subset names to keep (`latin`, `thai`, …; `numbered` for the CJK slices `[0]`…). All when absent. */
  subsets?: string[];
  /** A CJK family: which variant of Han type it draws. */
  han?: HanVariant;
  /** Never a fallback: inlined only for the text a template sets in it by name (`qr-bill`: the QR-bill's Arimo). */
  only?: string;
}

export class FontLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(`The fonts could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'FontLoadError';
  }
}

/** What start-up found: the families in fonts.json order, their faces, and each family's CSS name. */
export interface FontFiles {
  families: FamilyConfig[];
  faces: Face[];
  names: string[];
}

export function loadFontFiles(configFile: string, resolvePackage: (name: string) => string): FontFiles {
  let config: { families?: FamilyConfig[] };
  try {
    config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  } catch (err) {
    throw new FontLoadError([`${configFile}: ${(err as Error).message}`]);
  }
  const families = config.families ?? [];
  const faces = readFaces(families, resolvePackage);
  if (faces.length === 0) throw new FontLoadError([`${configFile} lists no font faces`]);
  return { families, faces, names: familyNames(families, faces) };
}

/** Every face of every family, in fonts.json order; each package, stylesheet or font file missing listed. */
function readFaces(families: readonly FamilyConfig[], resolvePackage: (name: string) => string): Face[] {
  const problems: string[] = [];
  const faces: Face[] = [];
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
      faces.push(...stylesheetFaces(css, { entry, family, dir, file }, problems));
    }
  });
  if (problems.length > 0) throw new FontLoadError(problems);
  return faces;
}

/** The faces one stylesheet of a package declares, for the subsets its family keeps. */
function stylesheetFaces(css: string, at: { entry: FamilyConfig; family: number; dir: string; file: string }, problems: string[]): Face[] {
  const { entry, family, dir, file } = at;
  const faces: Face[] = [];
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
  return faces;
}

/** Each family's CSS name, from its first face; a family none of whose subsets was found stops start-up. */
function familyNames(families: readonly FamilyConfig[], faces: readonly Face[]): string[] {
  const names = families.map((_, family) => faces.find((f) => f.family === family)?.name);
  const problems: string[] = [];
  families.forEach((entry, family) => {
    if (!names[family]) problems.push(`${entry.package}: none of its subsets (${entry.subsets?.join(', ') ?? 'all'}) was found`);
  });
  if (problems.length > 0) throw new FontLoadError(problems);
  return names as string[];
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
