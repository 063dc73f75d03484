// The code lists of EN 16931 (codes/en16931.json, read from the official rules by scripts/code-lists.ts): which unit,
// scheme, reason and subject codes a request may send. Loaded once at start-up; a missing or broken file stops it.
// Used by the schemas' formats (schema-registry.ts). No I/O after loading.
import fs from 'node:fs';

/** Our name of each list (the file's keys), and the schema format that checks it. */
export const CODE_LIST_FORMATS = {
  unit: 'unit-code',
  icd: 'icd',
  item_scheme: 'item-scheme',
  classification: 'classification',
  object_scheme: 'object-scheme',
  note_subject: 'note-subject',
  payment_means: 'payment-means',
  allowance_reason: 'allowance-reason',
  charge_reason: 'charge-reason',
  vatex: 'vatex',
} as const;

export type CodeListName = keyof typeof CODE_LIST_FORMATS;

export interface CodeLists {
  has(list: CodeListName, code: string): boolean;
}

export class CodeListError extends Error {
  constructor(readonly problems: string[]) {
    super(`The code lists could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'CodeListError';
  }
}

export function loadCodeLists(file: string): CodeLists {
  let parsed: { lists?: Record<string, { codes?: unknown }> };
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof parsed;
  } catch (err) {
    throw new CodeListError([`${file}: ${(err as Error).message}`]);
  }
  const problems: string[] = [];
  const sets = new Map<CodeListName, ReadonlySet<string>>();
  for (const name of Object.keys(CODE_LIST_FORMATS) as CodeListName[]) {
    const codes = parsed.lists?.[name]?.codes;
    if (!Array.isArray(codes) || codes.length === 0 || !codes.every((c) => typeof c === 'string')) {
      problems.push(`${file}: the list ${name} is missing or not a list of codes (run npm run code-lists)`);
    } else sets.set(name, new Set(codes as string[]));
  }
  if (problems.length > 0) throw new CodeListError(problems);
  return {
    // VATEX codes are compared in upper case by the rules (BR-CL-22); every other list exactly.
    has: (list, code) => sets.get(list)!.has(list === 'vatex' ? code.toUpperCase() : code),
  };
}
