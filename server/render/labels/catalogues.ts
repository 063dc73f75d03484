// Label catalogues in locales/, loaded once with the i18n package (docs/decisions.md §3), which does every lookup and fills
// in the {{{placeholders}}} of fixed texts. Owns which label a document type gets in a language (its own value, else
// the shared one) and each language's default regional tag. Start-up fails, listing every problem, when a catalogue
// is unreadable or does not have exactly the keys of en: no label may fall back to English silently. The names of
// units and item identifier schemes (render/labels/units.ts) and the QR-bill's headings (render/labels/qr-bill-labels.ts) are loaded and checked with them.
import fs from 'node:fs';
import path from 'node:path';
import { openI18n } from './i18n-files';
import { DOCUMENT_TYPES, type DocumentType } from '../../documents/model';
import { loadCodeNames, type CodeNames } from './units';
import { loadQrBillLabels, type QrBillLabels, type QrBillLanguage } from './qr-bill-labels';

export class CatalogueError extends Error {
  constructor(readonly problems: string[]) {
    super(`The label catalogues could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'CatalogueError';
  }
}

export interface Catalogues extends CodeNames {
  languages: readonly string[];
  /** Each language's regional tag for numbers, money and dates when a client names only the language (`fr` → `fr-FR`). */
  defaultTags: Readonly<Record<string, string>>;
  /** The default label of `key` for `type` in `language` (per-type value, else the shared one). */
  label(language: string, type: DocumentType, key: string): string;
  /** A fixed text with its placeholders filled in. */
  text(language: string, key: string, values?: Record<string, string>): string;
  /** The Swiss QR-bill's headings in one of its four languages (locales/qr-bill.json). */
  qrBill(language: QrBillLanguage): QrBillLabels;
}

/** Every key path of a nested object: `labels.header`, `types.receipt.header`, … */
function keyPaths(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object') return [prefix];
  const entries = Object.entries(obj as Record<string, unknown>);
  if (entries.length === 0) return [`${prefix}{}`];
  return entries.flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k));
}

export function loadCatalogues(dir: string): Catalogues {
  const languages = catalogueLanguages(dir);
  const parsed = parseCatalogues(dir, languages);
  const problems: string[] = [];
  const defaultTags = checkCatalogues(parsed, problems);
  const codeNames = loadCodeNames(dir, languages, problems);
  const qrBill = loadQrBillLabels(dir, problems);
  if (problems.length > 0) throw new CatalogueError(problems);

  // Every catalogue has every key (checked above): a lookup that misses is a defect, not a reason to show English.
  const i18n = openI18n(dir, languages);
  const lookup = (locale: string, phrase: string, values?: Record<string, string>): string | undefined => {
    const out = values ? i18n.__({ phrase, locale }, values) : i18n.__({ phrase, locale });
    // i18n answers a key it does not have with the key itself.
    return typeof out === 'string' && out !== phrase ? out : undefined;
  };
  // A label or a text without placeholders is the same for every document of a language: looked up through i18n
  // once (about a tenth of a one-page document's HTML), then from here. Bounded: the keys are the code's own, the
  // languages the catalogues'.
  const known = new Map<string, string | undefined>();
  const plain = (locale: string, phrase: string, values?: Record<string, string>): string | undefined => {
    const id = `${locale}\u0000${phrase}`;
    const out = known.get(id);
    if (out !== undefined || known.has(id)) return out;
    const found = lookup(locale, phrase, values);
    known.set(id, found);
    return found;
  };

  return {
    languages,
    defaultTags,
    label(language, type, key) {
      return plain(language, `types.${type}.${key}`) ?? plain(language, `labels.${key}`) ?? key;
    },
    text(language, key, values = {}) {
      const phrase = `text.${key}`;
      return (Object.keys(values).length > 0 ? lookup(language, phrase, values) : plain(language, phrase, values)) ?? key;
    },
    qrBill,
    unit: (language, code, quantity) => codeNames.unit(language, code, quantity),
    itemScheme: (code) => codeNames.itemScheme(code),
    codeName: (language, list, code) => codeNames.codeName(language, list, code),
  };
}

/** The languages there is a catalogue for (`xx.json`), sorted; en.json must be one of them. */
function catalogueLanguages(dir: string): string[] {
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
  return languages;
}

/** Each catalogue parsed, by language; every file that is not JSON named at once. */
function parseCatalogues(dir: string, languages: readonly string[]): Map<string, unknown> {
  // i18n reads a broken file as empty and logs instead of failing, so parse each one first to report it.
  const problems: string[] = [];
  const parsed = new Map<string, unknown>();
  for (const lang of languages) {
    try {
      parsed.set(lang, JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8')));
    } catch (err) {
      problems.push(`${lang}.json: ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) throw new CatalogueError(problems);
  return parsed;
}

/** en.json has a section for every document type; every other catalogue exactly en.json's keys; each language its
 * default regional tag (returned). */
function checkCatalogues(parsed: ReadonlyMap<string, unknown>, problems: string[]): Record<string, string> {
  const enKeys = new Set(keyPaths(parsed.get('en')));
  for (const type of DOCUMENT_TYPES) {
    if (![...enKeys].some((k) => k === `types.${type}{}` || k.startsWith(`types.${type}.`)))
      problems.push(`en.json: types.${type} is missing`);
  }
  const defaultTags: Record<string, string> = {};
  for (const [lang, catalogue] of parsed) {
    if (lang !== 'en') {
      const keys = new Set(keyPaths(catalogue));
      const missing = [...enKeys].filter((k) => !keys.has(k));
      const extra = [...keys].filter((k) => !enKeys.has(k));
      if (missing.length) problems.push(`${lang}.json lacks ${missing.length} key(s) of en.json: ${missing.join(', ')}`);
      if (extra.length) problems.push(`${lang}.json has key(s) en.json does not: ${extra.join(', ')}`);
    }
    const tag = defaultTagOf(lang, catalogue);
    if (tag) defaultTags[lang] = tag;
    else problems.push(`${lang}.json: locale.default_tag must be a tag of ${lang}, such as ${lang}-XX`);
  }
  return defaultTags;
}

/** A catalogue's locale.default_tag made canonical, or undefined when it is not a tag of its language. */
function defaultTagOf(lang: string, catalogue: unknown): string | undefined {
  const tag = (catalogue as { locale?: { default_tag?: unknown } }).locale?.default_tag;
  let canonical: string | undefined;
  try {
    canonical = typeof tag === 'string' ? Intl.getCanonicalLocales(tag)[0] : undefined;
  } catch {
    canonical = undefined;
  }
  return canonical && canonical.split('-')[0]!.toLowerCase() === lang ? canonical : undefined;
}
