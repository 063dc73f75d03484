// Which themes a request may name: the folders of themes/ that hold a theme.css (render/themes.ts loads and checks
// them), the default first, and the paper each prefers (its theme.json's page_size). At start-up the schemas (the
// `theme` enum, `x-themes`) take the themes render/themes.ts loaded (assets.ts), so the folder is read once; these
// listings serve a schema registry loaded alone (tools, tests). Knows nothing else of a theme's content.
import fs from 'node:fs';
import path from 'node:path';

/** The theme of a request that names none. */
export const DEFAULT_THEME = 'classic';

/** A theme's id: what a request sends, its folder's name. */
export const THEME_ID = /^[a-z][a-z0-9-]{0,31}$/;

/** `ids` sorted, the default first. */
export function orderedThemeIds(ids: readonly string[]): string[] {
  return [...ids].sort((a, b) => Number(b === DEFAULT_THEME) - Number(a === DEFAULT_THEME) || a.localeCompare(b));
}

/** The theme ids of `themesDir`: its folders with a theme.css, the default first; the default alone when unreadable. */
export function themeIdsIn(themesDir: string): string[] {
  try {
    const ids = fs
      .readdirSync(themesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && THEME_ID.test(d.name) && fs.existsSync(path.join(themesDir, d.name, 'theme.css')))
      .map((d) => d.name);
    return orderedThemeIds(ids);
  } catch {
    return [DEFAULT_THEME];
  }
}

/** Each theme's preferred paper (`page_size` of its theme.json), where it names one it may. */
export function themePapersIn(themesDir: string, ids: readonly string[]): Map<string, 'letter' | 'a4'> {
  const out = new Map<string, 'letter' | 'a4'>();
  for (const id of ids) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(themesDir, id, 'theme.json'), 'utf8')) as { page_size?: unknown };
      if (manifest.page_size === 'letter' || manifest.page_size === 'a4') out.set(id, manifest.page_size);
    } catch {
      // render/themes.ts reports a manifest it cannot read, and start-up stops.
    }
  }
  return out;
}
