// The names of codes a document prints: the short name of a unit beside a quantity (UN/ECE Recommendation 20 codes,
// locales/units.json: "16 Std.", "16 h", "3 Tage") and the name of a standard item identifier's scheme
// (ISO/IEC 6523 ICD codes, locales/item-schemes.json: "GTIN"), and the codes of a received e-invoice in words
// (render/labels/code-names.ts, locales/code-names.json). Read once with the label catalogues
// (render/labels/catalogues.ts), which report every problem found here with their own: each unit needs a name in every
// language there is a catalogue for. A code not listed prints as itself.
import fs from 'node:fs';
import path from 'node:path';
import { loadCodeNameLists, type CodeNameList } from './code-names';

/** A unit's name in one language: one form, or its plural forms by Intl.PluralRules category (`other` required). */
type UnitName = string | Partial<Record<Intl.LDMLPluralRule, string>>;

export interface CodeNames {
  /** The short name of unit `code` in `language` for `quantity` ('' for a count such as C62); the code when unknown. */
  unit(language: string, code: string, quantity: number): string;
  /** The name of an item identifier scheme (`0160` → `GTIN`), or undefined when it has none. */
  itemScheme(code: string): string | undefined;
  /** The name of `code` of `list` in `language` (`vat_category` S → "Standard rate"), or undefined when unlisted. */
  codeName(language: string, list: CodeNameList, code: string): string | undefined;
}

const PLURAL_CATEGORIES: readonly string[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

function readJson(file: string, problems: string[]): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    problems.push(`${path.basename(file)}: not a JSON object`);
  } catch (err) {
    problems.push(`${path.basename(file)}: ${(err as Error).message}`);
  }
  return undefined;
}

function isName(value: unknown): value is UnitName {
  if (typeof value === 'string') return true;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    typeof (value as Record<string, unknown>).other === 'string' &&
    entries.every(([k, v]) => PLURAL_CATEGORIES.includes(k) && typeof v === 'string')
  );
}

/** Each problem of units.json: a code that is not a Recommendation 20 code's shape, a language missing or unknown,
 * a name that is neither a text nor plural forms with `other`. */
function checkUnits(units: unknown, languages: readonly string[], problems: string[]): Map<string, Map<string, UnitName>> {
  const out = new Map<string, Map<string, UnitName>>();
  if (!units || typeof units !== 'object' || Array.isArray(units)) {
    problems.push('units.json: "units" must be an object of unit codes');
    return out;
  }
  for (const [code, names] of Object.entries(units as Record<string, unknown>)) {
    if (!/^[A-Z0-9]{2,3}$/.test(code)) problems.push(`units.json: ${code} is not a UN/ECE Recommendation 20 code`);
    const byLanguage = new Map<string, UnitName>();
    const given = names && typeof names === 'object' ? (names as Record<string, unknown>) : {};
    const missing = languages.filter((l) => !(l in given));
    const extra = Object.keys(given).filter((l) => !languages.includes(l));
    if (missing.length) problems.push(`units.json: ${code} has no name in ${missing.join(', ')}`);
    if (extra.length) problems.push(`units.json: ${code} names a language without a catalogue: ${extra.join(', ')}`);
    for (const [language, name] of Object.entries(given)) {
      if (isName(name)) byLanguage.set(language, name);
      else problems.push(`units.json: ${code}.${language} must be a text or plural forms with "other"`);
    }
    out.set(code, byLanguage);
  }
  return out;
}

function checkSchemes(schemes: unknown, problems: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!schemes || typeof schemes !== 'object' || Array.isArray(schemes)) {
    problems.push('item-schemes.json: "schemes" must be an object of ICD codes');
    return out;
  }
  for (const [code, name] of Object.entries(schemes as Record<string, unknown>)) {
    if (!/^\d{4}$/.test(code) || typeof name !== 'string' || name === '')
      problems.push(`item-schemes.json: ${code} must be a four-digit ICD code with a name`);
    else out.set(code, name);
  }
  return out;
}

/** Reads `dir`/units.json and `dir`/item-schemes.json; adds each problem to `problems` (the caller throws). */
export function loadCodeNames(dir: string, languages: readonly string[], problems: string[]): CodeNames {
  const units = checkUnits(readJson(path.join(dir, 'units.json'), problems)?.units, languages, problems);
  const schemes = checkSchemes(readJson(path.join(dir, 'item-schemes.json'), problems)?.schemes, problems);
  const codeNames = loadCodeNameLists(dir, languages, problems);
  // One set of plural rules per catalogue language (a handful), not per client tag.
  const plurals = new Map(languages.map((l) => [l, new Intl.PluralRules(l)]));
  return {
    unit(language, code, quantity) {
      const name = units.get(code)?.get(language);
      if (name === undefined) return code;
      if (typeof name === 'string') return name;
      const category = plurals.get(language)?.select(quantity) ?? 'other';
      return name[category] ?? name.other!;
    },
    itemScheme: (code) => schemes.get(code),
    codeName: codeNames,
  };
}
