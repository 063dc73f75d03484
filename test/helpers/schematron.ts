// EN 16931 and Peppol BIS 3.0 schematron rules, run in the tests with node-schematron (fontoxpath). The Peppol file
// declares XSLT helper functions (u:…); the ones the rules need for the parties we test are registered here as
// custom XPath functions. The country-specific ones (Italian, Swedish, Greek, Australian identifiers) throw if
// ever reached, so that a test can never pass by accident through a stub.
import fs from 'node:fs';
import path from 'node:path';
import { registerCustomXPathFunction } from 'fontoxpath';
import { Schema } from 'node-schematron';
import { projectRoot } from '../../server/config';

export const STANDARDS_DIR = process.env.STANDARDS_DIR ?? path.join(projectRoot(), '..', 'shared', 'standards');

export interface Failure {
  id: string;
  flag: string;
  message: string;
}

const U = 'utils';
let registered = false;

function digitsOf(val: string): number[] {
  return [...val].map((c) => c.charCodeAt(0) - 48);
}

function registerUtils(): void {
  if (registered) return;
  registered = true;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const reg = (name: string, args: string[], ret: string, fn: (...a: any[]) => unknown) =>
    registerCustomXPathFunction({ namespaceURI: U, localName: name }, args, ret, (_ctx: unknown, ...a: unknown[]) => fn(...a));
  reg('slack', ['xs:anyAtomicType', 'xs:anyAtomicType', 'xs:anyAtomicType'], 'xs:boolean', (exp: number, val: number, slack: number) => {
    // Compare in integer millionths: the inputs are decimals with few places.
    const s = (x: number) => Math.round(Number(x) * 1e6);
    return s(exp) + s(slack) >= s(val) && s(exp) - s(slack) <= s(val);
  });
  reg('gln', ['xs:string?'], 'xs:boolean', (val: string | null) => {
    const v = val ?? '';
    const body = digitsOf(v.slice(0, -1)).reverse();
    const sum = body.reduce((acc, d, i) => acc + d * (1 + ((i + 1) % 2) * 2), 0);
    return (10 - (sum % 10)) % 10 === Number(v.slice(-1));
  });
  reg('mod11', ['xs:string?'], 'xs:boolean', (val: string | null) => {
    const v = val ?? '';
    const body = digitsOf(v.slice(0, -1)).reverse();
    const sum = body.reduce((acc, d, i) => acc + d * ((i % 6) + 2), 0);
    return Number(v) > 0 && (11 - (sum % 11)) % 11 === Number(v.slice(-1));
  });
  reg('mod97-0208', ['xs:string?'], 'xs:boolean', (val: string | null) => {
    const v = val ?? '';
    return Number(v.slice(8, 10)) === 97 - (Number(v.slice(0, 8)) % 97);
  });
  reg('checkCodiceIPA', ['xs:string?'], 'xs:boolean', (val: string | null) => /^[A-Za-z0-9]{6}$/.test(val ?? ''));
  for (const [name, arity] of [['checkCF', 1], ['checkCF16', 1], ['checkPIVAseIT', 1], ['abn', 1], ['TinVerification', 1], ['checkSEOrgnr', 1]] as const) {
    reg(name, Array(arity).fill('item()*'), 'xs:boolean', () => {
      throw new Error(`u:${name} is not implemented in the test harness`);
    });
  }
  for (const name of ['checkPIVA', 'addPIVA']) {
    reg(name, ['item()*', 'item()*'], 'xs:integer', () => {
      throw new Error(`u:${name} is not implemented in the test harness`);
    });
  }
}

export interface Validator {
  validate(xml: string): Failure[];
}

export function loadSchematron(file: string): Validator {
  registerUtils();
  let text = fs.readFileSync(file, 'utf8');
  // The XSLT function declarations are replaced by the registrations above.
  text = text.replace(/<function\b[\s\S]*?<\/function>/g, '');
  const flags = new Map<string, string>();
  for (const tag of text.match(/<assert\b[^>]*>/g) ?? []) {
    const id = /\bid="([^"]+)"/.exec(tag)?.[1];
    if (id) flags.set(id, /\bflag="([^"]+)"/.exec(tag)?.[1] ?? 'fatal');
  }
  const schema = Schema.fromString(text);
  return {
    validate(xml) {
      return schema.validateString(xml).map((r) => {
        const id = (r as { assertId?: string }).assertId ?? '?';
        return { id, flag: flags.get(id) ?? 'fatal', message: String(r.message).replace(/\s+/g, ' ').trim() };
      });
    },
  };
}

let cached: { en16931: Validator; peppol: Validator } | undefined;

export function standards(): { en16931: Validator; peppol: Validator } {
  cached ??= {
    en16931: loadSchematron(path.join(STANDARDS_DIR, 'en16931', 'EN16931-UBL-validation.sch')),
    peppol: loadSchematron(path.join(STANDARDS_DIR, 'peppol-bis-3', 'PEPPOL-EN16931-UBL.sch')),
  };
  return cached;
}
