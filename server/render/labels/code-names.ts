// The names in words of the codes a received e-invoice prints (locales/code-names.json): VAT categories (UNCL5305),
// payment means (UNCL4461), VAT point date codes (UNTDID 2005), document types (UNTDID 1001), note subjects (UNTDID
// 4451) and France's billing frameworks (BT-23), each in every
// language there is a catalogue for.
// Read once with the label catalogues (render/labels/units.ts calls it), which report every problem found here with their
// own: a list missing, a code without a name in a language, a language without a catalogue. A code not listed
// prints as itself (the caller decides how). No I/O after loading.
import fs from 'node:fs';
import path from 'node:path';

export const CODE_NAME_LISTS = [
  'vat_category',
  'payment_means',
  'vat_point',
  'document_type',
  'note_subject',
  'billing_framework',
] as const;
export type CodeNameList = (typeof CODE_NAME_LISTS)[number];

export type CodeNameLookup = (language: string, list: CodeNameList, code: string) => string | undefined;

const FILE = 'code-names.json';

function read(file: string, problems: string[]): Record<string, unknown> {
  try {
    const parsed = (JSON.parse(fs.readFileSync(file, 'utf8')) as { lists?: unknown }).lists;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    problems.push(`${FILE}: "lists" must be an object of code lists`);
  } catch (err) {
    problems.push(`${FILE}: ${(err as Error).message}`);
  }
  return {};
}

/** One list's names by code and language; each problem of it added to `problems`. */
function checkList(name: string, codes: unknown, languages: readonly string[], problems: string[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  if (!codes || typeof codes !== 'object' || Array.isArray(codes)) {
    problems.push(`${FILE}: the list ${name} is missing or not an object of codes`);
    return out;
  }
  for (const [code, names] of Object.entries(codes as Record<string, unknown>)) {
    const given = names && typeof names === 'object' ? (names as Record<string, unknown>) : {};
    const missing = languages.filter((l) => typeof given[l] !== 'string' || given[l] === '');
    const extra = Object.keys(given).filter((l) => !languages.includes(l));
    if (missing.length) problems.push(`${FILE}: ${name} ${code} has no name in ${missing.join(', ')}`);
    if (extra.length) problems.push(`${FILE}: ${name} ${code} names a language without a catalogue: ${extra.join(', ')}`);
    out.set(code, new Map(Object.entries(given).filter((e): e is [string, string] => typeof e[1] === 'string')));
  }
  return out;
}

/** Reads `dir`/code-names.json; adds each problem to `problems` (the caller throws). */
export function loadCodeNameLists(dir: string, languages: readonly string[], problems: string[]): CodeNameLookup {
  const lists = read(path.join(dir, FILE), problems);
  const checked = new Map(CODE_NAME_LISTS.map((name) => [name, checkList(name, lists[name], languages, problems)]));
  return (language, list, code) => checked.get(list)?.get(code)?.get(language);
}
