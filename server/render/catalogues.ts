// Label catalogues in locales/, loaded once with the i18n package (decisions §3).
// Owns the lookup of a type's default label in a language. Start-up fails, listing every problem, when a catalogue
// is unreadable or does not have exactly the keys of en: no label may fall back to English silently.
import fs from 'node:fs';
import path from 'node:path';
import { I18n } from 'i18n';
import { DOCUMENT_TYPES, type DocumentType } from '../documents/model';

export class CatalogueError extends Error {
  constructor(readonly problems: string[]) {
    super(`The label catalogues could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'CatalogueError';
  }
}

interface Catalogue {
  labels: Record<string, string>;
  types: Record<string, Record<string, string>>;
  text: Record<string, string>;
}

export interface Catalogues {
  languages: readonly string[];
  /** The default label of `key` for `type` in `language` (per-type value, else the shared one). */
  label(language: string, type: DocumentType, key: string): string;
  /** A fixed text with {{placeholders}} filled in. */
  text(language: string, key: string, values?: Record<string, string>): string;
}

/** Every key path of a nested object: `labels.header`, `types.receipt.header`, … */
function keyPaths(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object') return [prefix];
  const entries = Object.entries(obj as Record<string, unknown>);
  if (entries.length === 0) return [`${prefix}{}`];
  return entries.flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k));
}

export function loadCatalogues(dir: string): Catalogues {
  const problems: string[] = [];
  let languages: string[];
  try {
    languages = fs
      .readdirSync(dir)
      .filter((f) => /^[a-z]{2,3}\.json$/.test(f))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch (err) {
    throw new CatalogueError([`cannot read ${dir}: ${(err as Error).message}`]);
  }
  if (!languages.includes('en')) throw new CatalogueError([`en.json is missing from ${dir}; it defines the keys every language must have`]);
  // i18n reads a broken file as empty and logs instead of failing, so parse each one first to report it.
  for (const lang of languages) {
    try {
      JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8'));
    } catch (err) {
      problems.push(`${lang}.json: ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) throw new CatalogueError(problems);

  const i18n = new I18n({
    locales: languages,
    directory: dir,
    defaultLocale: 'en',
    updateFiles: false,
    syncFiles: false,
    autoReload: false,
    objectNotation: true,
    retryInDefaultLocale: false,
    logWarnFn: () => undefined,
    logErrorFn: (msg: string) => problems.push(msg),
  });
  const catalogues = new Map<string, Catalogue>();
  for (const lang of languages) catalogues.set(lang, i18n.getCatalog(lang) as unknown as Catalogue);

  const en = catalogues.get('en')!;
  const enKeys = new Set(keyPaths(en));
  for (const type of DOCUMENT_TYPES) {
    if (!en.types?.[type]) problems.push(`en.json: types.${type} is missing`);
  }
  for (const lang of languages) {
    if (lang === 'en') continue;
    const keys = new Set(keyPaths(catalogues.get(lang)));
    const missing = [...enKeys].filter((k) => !keys.has(k));
    const extra = [...keys].filter((k) => !enKeys.has(k));
    if (missing.length) problems.push(`${lang}.json lacks ${missing.length} key(s) of en.json: ${missing.join(', ')}`);
    if (extra.length) problems.push(`${lang}.json has key(s) en.json does not: ${extra.join(', ')}`);
  }
  if (problems.length > 0) throw new CatalogueError(problems);

  return {
    languages,
    label(language, type, key) {
      const cat = catalogues.get(language) ?? en;
      return cat.types[type]?.[key] ?? cat.labels[key] ?? key;
    },
    text(language, key, values = {}) {
      const cat = catalogues.get(language) ?? en;
      const template = cat.text[key] ?? key;
      return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
    },
  };
}
