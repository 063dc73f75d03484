// An e-invoice read into the EN 16931 semantic model by KoSIT's official mapping (xrechnung-visualization, compiled
// for SaxonJS by the install step into vendor/): each business term as `BG-…/BT-…=value`, with its scheme or file
// attributes as `BT-…@scheme_identifier=…`. Tests compare two documents term by term this way, whatever their syntax:
// an official example against the document this service writes from a JSON request that restates it.
import fs from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import SaxonJS from 'saxon-js';
import { STANDARDS_DIR } from './schematron';

const MAPPINGS = {
  Invoice: 'ubl-invoice-xr.sef.json',
  CreditNote: 'ubl-creditnote-xr.sef.json',
  CrossIndustryInvoice: 'cii-xr.sef.json',
} as const;

const loaded = new Map<string, object>();

function stylesheet(file: string): object {
  let s = loaded.get(file);
  if (!s) {
    s = JSON.parse(fs.readFileSync(path.join(STANDARDS_DIR, 'xrechnung-visualization', 'compiled', file), 'utf8')) as object;
    loaded.set(file, s);
  }
  return s;
}

/** The root element's local name (Invoice, CreditNote, CrossIndustryInvoice). */
function rootName(xml: string): keyof typeof MAPPINGS {
  const m = /<(?:[A-Za-z0-9_-]+:)?(Invoice|CreditNote|CrossIndustryInvoice)[\s>]/.exec(xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''));
  if (!m) throw new Error('not a UBL Invoice, CreditNote or CII CrossIndustryInvoice');
  return m[1] as keyof typeof MAPPINGS;
}

/** One business term or group of a document: its id (BT-…, BG-…), its value and attributes, its members. */
export interface Term {
  id: string;
  value?: string;
  attrs: Record<string, string>;
  members: Term[];
}

/** KoSIT's semantic XML of `xml` (UBL or CII). */
function mapped(xml: string): string {
  const file = MAPPINGS[rootName(xml)];
  const result = SaxonJS.transform(
    {
      stylesheetInternal: stylesheet(file),
      stylesheetBaseURI: `file://${path.join(STANDARDS_DIR, 'xrechnung-visualization', 'compiled', file)}`,
      sourceText: xml,
      destination: 'serialized',
    },
    'sync',
  ) as { principalResult: string };
  return result.principalResult;
}

/** The business terms of `xml` (UBL or CII) as KoSIT's mapping reads them: a tree under a root with id `BG-0`. */
export function semanticModel(xml: string): Term {
  const root: Term = { id: 'BG-0', attrs: {}, members: [] };
  const stack: Term[] = [];
  let text = '';
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', (tag) => {
    const id = String(tag.attributes['xr:id'] ?? '');
    const attrs: Record<string, string> = {};
    for (const [name, value] of Object.entries(tag.attributes)) {
      if (name !== 'xr:id' && name !== 'xr:src' && !name.startsWith('xmlns')) attrs[name.replace(/^xr:/, '')] = String(value);
    }
    const term: Term = { id, attrs, members: [] };
    const parent = [...stack].reverse().find((t) => t.id !== '') ?? root;
    if (id) parent.members.push(term);
    stack.push(term);
    text = '';
  });
  parser.on('text', (t) => {
    text += t;
  });
  parser.on('closetag', () => {
    const term = stack.pop()!;
    if (term.id && text.trim() !== '') term.value = text.trim();
    text = '';
  });
  parser.write(mapped(xml)).close();
  return root;
}

/** A value as compared: a number without trailing zeros (100.00 and 100 are one amount), else the text with its
 * white space collapsed. */
export function comparable(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/^[-+]?\d+(\.\d+)?$/.test(value.trim())) return String(Number(value));
  return value.replace(/\s+/g, ' ').trim();
}

function holds(actual: Term, expected: Term): boolean {
  if (actual.id !== expected.id || comparable(actual.value) !== comparable(expected.value)) return false;
  if (Object.entries(expected.attrs).some(([k, v]) => actual.attrs[k] !== v)) return false;
  const used = new Set<Term>();
  return expected.members.every((e) => {
    const match = actual.members.find((a) => !used.has(a) && holds(a, e));
    if (match) used.add(match);
    return Boolean(match);
  });
}

/** Every term of `expected` that `actual` does not carry at the same place (a group matches a group of the same id
 * that holds all its terms, in any order), as `BG-25 > BT-131=100.11`. */
export function missingTerms(expected: Term, actual: Term, where = ''): string[] {
  const out: string[] = [];
  const used = new Set<Term>();
  for (const e of expected.members) {
    const match = actual.members.find((a) => !used.has(a) && holds(a, e));
    if (match) {
      used.add(match);
      continue;
    }
    const here = `${where}${e.id}`;
    const sameGroup = actual.members.filter((a) => a.id === e.id && !used.has(a));
    if (e.members.length > 0 && sameGroup.length === 1) out.push(...missingTerms(e, sameGroup[0]!, `${here} > `));
    else {
      const attrs = Object.entries(e.attrs)
        .map(([k, v]) => `@${k}=${v}`)
        .join(' ');
      out.push(
        `${here}${e.value !== undefined ? `=${e.value}` : ''}${attrs ? ` ${attrs}` : ''}${e.members.length ? ` (group of ${e.members.length})` : ''}`,
      );
    }
  }
  return out;
}

/** Every value at `path` (`BG-13 > BG-15 > BT-75`, or `BG-4 > BT-29@scheme_identifier` for an attribute), across
 * every instance of each group on the way. */
export function termValues(model: Term, path: string): string[] {
  const [steps, attr] = ((): [string[], string | undefined] => {
    const [p, a] = path.split('@');
    return [p!.split('>').map((s) => s.trim()), a];
  })();
  let level: Term[] = [model];
  for (const step of steps) level = level.flatMap((t) => t.members.filter((m) => m.id === step));
  return level.map((t) => (attr ? t.attrs[attr] : t.value)).filter((v): v is string => v !== undefined);
}

/** Empty terms pruned: KoSIT's mapping makes a term of an empty element (`<ram:Description/>`, `<cbc:LineID/>`), which
 * carries nothing and which no writer of the service writes (PEPPOL-EN16931-R008). */
export function pruned(t: Term): Term {
  const members = t.members.map(pruned).filter((m) => m.value !== undefined || m.members.length > 0 || Object.keys(m.attrs).length > 0);
  return { ...t, members };
}

/** KoSIT's model of `xml` (UBL or CII) as a received document is compared with what the service writes from it: empty
 * terms pruned, and xs:boolean's 1 and 0 spelled true and false in an allowance's or charge's indicator (the mapping
 * tests the text 'true' or 'false', the EN 16931 rules and the readers the boolean). */
export function comparedModel(xml: string): Term {
  const spelled = xml.replace(
    /(<(?:cbc:ChargeIndicator|udt:Indicator)>\s*)([01])(\s*<\/(?:cbc:ChargeIndicator|udt:Indicator)>)/g,
    (_, a: string, b: string, c: string) => (b === '1' ? `${a}true${c}` : `${a}false${c}`),
  );
  return pruned(semanticModel(spelled));
}

const lineId = (line: Term): string | undefined => line.members.find((m) => m.id === 'BT-126')?.value;

/** missingTerms, each line (BG-25) compared with the line of the same identifier (BT-126), so that a difference in a
 * line is named term by term rather than as the whole group. */
export function differences(expected: Term, actual: Term): string[] {
  const document = (t: Term): Term => ({ ...t, members: t.members.filter((m) => m.id !== 'BG-25') });
  const out = missingTerms(document(expected), document(actual));
  const lines = actual.members.filter((m) => m.id === 'BG-25');
  for (const line of expected.members.filter((m) => m.id === 'BG-25')) {
    const i = lines.findIndex((l) => lineId(l) === lineId(line));
    const wrap = (l: Term): Term => ({ id: 'BG-0', attrs: {}, members: [l] });
    out.push(...missingTerms(wrap(line), wrap(i >= 0 ? lines.splice(i, 1)[0]! : { id: 'none', attrs: {}, members: [] })));
  }
  return out;
}
