// The themes: every folder of themes/ is one, found at start-up. A theme is `themes/<id>/theme.css` (its tokens and
// rules of its own voice, over the shared themes/base.css), `theme.json` (its name, a description and, optionally, the
// paper it prefers) and, optionally, `partials/<name>.hbs` replacing shared partials of templates/partials/ for that
// theme only. The id is the folder's name, what clients send as `theme`.
// Each theme is checked and every problem listed (ThemeLoadError): a token base.css uses that it does not set, a
// partial the shared set does not have or that does not parse, CSS or markup that reaches beyond the page (the
// page may load only its own inline styles and data: URLs; fonts come from themes/fonts.json), a manifest that is not
// what it must be. The one list of themes: the schema's `theme` enum, the OpenAPI description, the studio, the gallery
// and the tests take it from here. Must not render.
import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { DEFAULT_THEME, THEME_ID, orderedThemeIds } from '../documents/theme-ids';

export { DEFAULT_THEME };

export interface Theme {
  id: string;
  name: string;
  description: string;
  /** The paper the theme is designed for, when a request names none. */
  pageSize?: 'letter' | 'a4';
  /** theme.css as written. */
  css: string;
  /** Its partials by name, replacing the shared ones of that name. */
  partials: ReadonlyMap<string, string>;
}

export interface ThemeSet {
  /** themes/base.css: the structure every theme shares. */
  base: string;
  /** In the order of their ids, the default first. */
  themes: Theme[];
}

export class ThemeLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(`The themes could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ThemeLoadError';
  }
}

/** Set per page by templates/document-style.hbs, or by the print page itself (pdf/page-scripts.ts), not by a theme. */
const PAGE_TOKENS = new Set(['--font-stack', '--page-margin-right', '--page-margin-bottom', '--page-margin-left', '--doc-totals-room']);
const MANIFEST_KEYS = new Set(['name', 'description', 'page_size']);

/** The tokens base.css uses (`var(--name)`) that it does not set itself: every theme must set them. */
export function requiredTokens(base: string): string[] {
  const used = new Set([...base.matchAll(/var\(\s*(--[\w-]+)/g)].map((m) => m[1]!));
  const set = new Set([...base.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]!));
  return [...used].filter((t) => !set.has(t) && !PAGE_TOKENS.has(t)).sort();
}

/** What in CSS would reach beyond the page: @import, a url() that is not data:, a font face of its own. */
export function cssReaches(css: string): string[] {
  const found: string[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  if (/@import\b/i.test(text)) found.push('@import (a theme is one file: put the rules in it)');
  for (const m of text.matchAll(/url\(\s*(['"]?)\s*([^'")\s]*)/gi)) {
    if (!/^data:/i.test(m[2]!)) found.push(`url(${m[2]}) (only data: URLs: the page loads nothing)`);
  }
  if (/@font-face\b/i.test(text)) found.push('@font-face (fonts come from themes/fonts.json, inlined per page)');
  return found;
}

/** What in a partial would reach beyond the page: scripts, and sources or links to other addresses. */
export function markupReaches(source: string): string[] {
  const found: string[] = [];
  if (/<script\b/i.test(source)) found.push('<script> (documents run no scripts)');
  if (/<link\b/i.test(source)) found.push('<link> (styles belong in theme.css)');
  for (const m of source.matchAll(/\b(?:src|href|srcset)\s*=\s*["']?\s*((?:https?:)?\/\/[^"'\s>]*)/gi))
    found.push(`${m[1]} (the page loads nothing)`);
  for (const m of source.matchAll(/url\(\s*['"]?\s*((?:https?:)?\/\/[^'")\s]*)/gi)) found.push(`url(${m[1]}) (the page loads nothing)`);
  return found;
}

function readText(file: string, problems: string[], what: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problems.push(code === 'ENOENT' ? `${what} is missing` : `${what} cannot be read: ${code ?? (err as Error).message}`);
    return undefined;
  }
}

/** theme.json: name and description required (text), page_size letter or a4, nothing else. */
function manifestOf(dir: string, id: string, problems: string[]): Pick<Theme, 'name' | 'description' | 'pageSize'> {
  const fallback = { name: id, description: '' };
  const text = readText(path.join(dir, 'theme.json'), problems, `themes/${id}/theme.json`);
  if (text === undefined) return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    problems.push(`themes/${id}/theme.json is not JSON: ${(err as Error).message}`);
    return fallback;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push(`themes/${id}/theme.json must hold an object {name, description, page_size?}`);
    return fallback;
  }
  const m = parsed as Record<string, unknown>;
  for (const key of Object.keys(m))
    if (!MANIFEST_KEYS.has(key)) problems.push(`themes/${id}/theme.json: unknown key "${key}" (name, description, page_size)`);
  for (const key of ['name', 'description'] as const)
    if (typeof m[key] !== 'string' || !(m[key] as string).trim()) problems.push(`themes/${id}/theme.json: "${key}" must be a text`);
  if (m.page_size !== undefined && m.page_size !== 'letter' && m.page_size !== 'a4')
    problems.push(`themes/${id}/theme.json: "page_size" must be "letter" or "a4"`);
  return {
    name: typeof m.name === 'string' ? m.name : id,
    description: typeof m.description === 'string' ? m.description : '',
    pageSize: m.page_size === 'letter' || m.page_size === 'a4' ? m.page_size : undefined,
  };
}

/** partials/*.hbs of a theme: each the name of a shared partial, compiling, reaching nothing. */
function partialsOf(dir: string, id: string, shared: ReadonlySet<string>, problems: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const folder = path.join(dir, 'partials');
  if (!fs.existsSync(folder)) return out;
  let files: string[];
  try {
    files = fs.readdirSync(folder);
  } catch (err) {
    problems.push(`themes/${id}/partials cannot be read: ${(err as Error).message}`);
    return out;
  }
  for (const file of files.sort()) {
    const where = `themes/${id}/partials/${file}`;
    const name = file.replace(/\.hbs$/, '');
    if (!file.endsWith('.hbs')) {
      problems.push(`${where}: only .hbs partials belong here`);
      continue;
    }
    if (!shared.has(name)) {
      problems.push(`${where} replaces no shared partial (templates/partials/ has ${[...shared].sort().join(', ')})`);
      continue;
    }
    const source = readText(path.join(folder, file), problems, where);
    if (source === undefined) continue;
    try {
      Handlebars.parse(source); // parsed only: render/html.ts compiles it with the helpers
    } catch (err) {
      problems.push(`${where}: ${(err as Error).message.split('\n')[0]}`);
      continue;
    }
    for (const reach of markupReaches(source)) problems.push(`${where} reaches beyond the page: ${reach}`);
    out.set(name, source);
  }
  return out;
}

/** One theme folder, every problem added to `problems`. */
function loadTheme(
  themesDir: string,
  id: string,
  tokens: readonly string[],
  shared: ReadonlySet<string>,
  problems: string[],
): Theme | undefined {
  const dir = path.join(themesDir, id);
  const before = problems.length;
  const css = readText(path.join(dir, 'theme.css'), problems, `themes/${id}/theme.css`);
  const manifest = manifestOf(dir, id, problems);
  const partials = partialsOf(dir, id, shared, problems);
  if (css !== undefined) {
    const set = new Set([...css.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]!));
    const missing = tokens.filter((t) => !set.has(t));
    if (missing.length > 0) problems.push(`themes/${id}/theme.css does not set ${missing.join(', ')} (themes/README.md lists the tokens)`);
    for (const reach of cssReaches(css)) problems.push(`themes/${id}/theme.css reaches beyond the page: ${reach}`);
  }
  if (problems.length > before || css === undefined) return undefined;
  return { id, ...manifest, css, partials };
}

/** Every theme of `themesDir` (each folder), checked against base.css's tokens and the shared partial names. */
export function loadThemes(themesDir: string, sharedPartials: ReadonlySet<string>): ThemeSet {
  const problems: string[] = [];
  const base = readText(path.join(themesDir, 'base.css'), problems, 'themes/base.css') ?? '';
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(themesDir, { withFileTypes: true });
  } catch (err) {
    throw new ThemeLoadError([`cannot read the themes folder ${themesDir}: ${(err as Error).message}`]);
  }
  const tokens = requiredTokens(base);
  const themes: Theme[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (!THEME_ID.test(entry.name)) {
      problems.push(`themes/${entry.name}/: a theme's folder name is its id: lower-case letters, digits and -, at most 32`);
      continue;
    }
    const theme = loadTheme(themesDir, entry.name, tokens, sharedPartials, problems);
    if (theme) themes.push(theme);
  }
  for (const stray of entries.filter((e) => e.isFile() && e.name.endsWith('.css') && e.name !== 'base.css'))
    problems.push(`themes/${stray.name}: a theme is a folder now (themes/${stray.name.replace(/\.css$/, '')}/theme.css)`);
  if (!entries.some((e) => e.isDirectory() && e.name === DEFAULT_THEME))
    problems.push(`themes/${DEFAULT_THEME}/ is missing: it is the theme of a request that names none`);
  if (problems.length > 0) throw new ThemeLoadError(problems);
  const byId = new Map(themes.map((t) => [t.id, t]));
  return { base, themes: orderedThemeIds([...byId.keys()]).map((id) => byId.get(id)!) };
}
