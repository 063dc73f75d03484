// The official business rules (EN 16931, Peppol BIS 3.0, XRechnung), as the install step compiled them for SaxonJS
// into the standards folder (vendor/compiled/, npm run standards; docs/standards.md): one document takes a fraction of a second, where the .sch files
// run by a pure-JS schematron took about five. The compiled Peppol rules carry their own XSLT helper functions
// (u:gln, u:mod11, …), so nothing is re-implemented here. Each rule set is loaded once.
import fs from 'node:fs';
import path from 'node:path';
import SaxonJS from 'saxon-js';
import { projectRoot } from '../../server/config';

/** The standards folder the service reads too (STANDARDS_DIR, vendor/ by default): what the install step put there. */
export const STANDARDS_DIR = process.env.STANDARDS_DIR || path.join(projectRoot(), 'vendor');

export interface Failure {
  id: string;
  /** `fatal` (also when the rule has no flag), `warning` or `information`. */
  flag: string;
  message: string;
}

export interface Validator {
  validate(xml: string): Failure[];
}

const decode = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The failed assertions (and reports) of an SVRL result. */
export function svrlFailures(svrl: string): Failure[] {
  const out: Failure[] = [];
  for (const m of svrl.matchAll(/<svrl:(failed-assert|successful-report)\b([^>]*)>([\s\S]*?)<\/svrl:\1>/g)) {
    const attrs = m[2]!;
    const id = /\bid="([^"]*)"/.exec(attrs)?.[1] ?? '?';
    const flag = /\bflag="([^"]*)"/.exec(attrs)?.[1] ?? 'fatal';
    const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[3]!)?.[1] ?? '';
    out.push({ id, flag, message: decode(text).replace(/\s+/g, ' ').trim() });
  }
  return out;
}

export function loadRules(sefFile: string): Validator {
  const stylesheet = JSON.parse(fs.readFileSync(sefFile, 'utf8')) as object;
  return {
    validate(xml) {
      const result = SaxonJS.transform(
        { stylesheetInternal: stylesheet, stylesheetBaseURI: `file://${sefFile}`, sourceText: xml, destination: 'serialized' },
        'sync',
      ) as {
        principalResult: string;
      };
      return svrlFailures(result.principalResult);
    },
  };
}

type RuleSet =
  | 'en16931'
  | 'peppol'
  | 'en16931Cii'
  | 'xrechnungUbl'
  | 'xrechnungCii'
  | 'brFrUbl'
  | 'brFrCii'
  | 'extendedCtcFrUbl'
  | 'extendedCtcFrCii'
  | 'brFrCdar';
const FILES: Record<RuleSet, string> = {
  en16931: 'en16931-ubl.sef.json',
  peppol: 'peppol-ubl.sef.json',
  en16931Cii: 'en16931-cii.sef.json',
  xrechnungUbl: 'xrechnung-ubl.sef.json',
  xrechnungCii: 'xrechnung-cii.sef.json',
  brFrUbl: 'br-fr-ubl.sef.json',
  brFrCii: 'br-fr-cii.sef.json',
  extendedCtcFrUbl: 'extended-ctc-fr-ubl.sef.json',
  extendedCtcFrCii: 'extended-ctc-fr-cii.sef.json',
  brFrCdar: 'br-fr-cdar.sef.json',
};
const loaded = new Map<RuleSet, Validator>();

/** A compiled rule set, loaded on first use. */
export function rules(name: RuleSet): Validator {
  let v = loaded.get(name);
  if (!v) loaded.set(name, (v = loadRules(path.join(STANDARDS_DIR, 'compiled', FILES[name]))));
  return v;
}

/** The rules every /ubl output must pass. */
export function standards(): { en16931: Validator; peppol: Validator } {
  return { en16931: rules('en16931'), peppol: rules('peppol') };
}
