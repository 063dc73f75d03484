// npm run code-lists: writes codes/en16931.json, the code lists the EN 16931 business rules check (BR-CL-*), read
// from the rules themselves (vendor/en16931/EN16931-UBL-validation.sch as the install step puts it there, release 1.3.16), so that a code
// the request may send is exactly a code the official rules accept. The file is derived data (lists of codes, no
// names); run this again when the rules are updated. server/documents/code-lists.ts loads it at start-up.
import fs from 'node:fs';
import path from 'node:path';

/** Our name of each list, the rule that holds it and what the list is. */
const LISTS = {
  unit: { rule: 'BR-CL-23', what: 'UN/ECE Recommendation 20 and 21 unit codes (BT-130, BT-150)' },
  icd: { rule: 'BR-CL-10', what: 'ISO/IEC 6523 ICD identifier schemes (BT-29, BT-30, BT-46, BT-47, BT-60, BT-61, BT-71)' },
  item_scheme: { rule: 'BR-CL-21', what: 'ISO/IEC 6523 ICD schemes of a standard item identifier (BT-157)' },
  classification: { rule: 'BR-CL-13', what: 'UNTDID 7143 item classification schemes (BT-158)' },
  object_scheme: { rule: 'BR-CL-07', what: 'UNTDID 1153 reference qualifiers (BT-18, BT-128)' },
  note_subject: { rule: 'BR-CL-08', what: 'UNTDID 4451 text subject qualifiers (BT-21)' },
  payment_means: { rule: 'BR-CL-16', what: 'UNTDID 4461 payment means codes (BT-81)' },
  allowance_reason: { rule: 'BR-CL-19', what: 'UNTDID 5189 allowance reason codes (BT-98, BT-140)' },
  charge_reason: { rule: 'BR-CL-20', what: 'UNTDID 7161 charge reason codes (BT-105, BT-145)' },
  vatex: { rule: 'BR-CL-22', what: 'CEF VATEX VAT exemption reason codes (BT-121)' },
} as const;

export function codeListsFrom(sch: string): Record<string, { rule: string; what: string; codes: string[] }> {
  const out: Record<string, { rule: string; what: string; codes: string[] }> = {};
  for (const [name, { rule, what }] of Object.entries(LISTS)) {
    const assert = new RegExp(`id="${rule}"[^>]*test="([^"]*)"`).exec(sch);
    if (!assert) throw new Error(`${rule} is not in the rules`);
    // The list is the longest quoted run of space-separated codes in the rule's test.
    const runs = [...assert[1]!.matchAll(/'\s([^']+)\s'/g)].map((m) => m[1]!.trim().split(/\s+/));
    const codes = runs.sort((a, b) => b.length - a.length)[0];
    if (!codes || codes.length < 3) throw new Error(`${rule} holds no list of codes`);
    out[name] = { rule, what, codes: [...new Set(codes)] };
  }
  return out;
}

if (require.main === module) {
  const standards = process.env.STANDARDS_DIR || path.join(__dirname, '..', 'vendor');
  const sch = fs.readFileSync(path.join(standards, 'en16931', 'EN16931-UBL-validation.sch'), 'utf8');
  const lists = codeListsFrom(sch);
  const file = {
    description:
      'Code lists the EN 16931 business rules (release 1.3.16) check, read from the rules by scripts/code-lists.ts. Derived data: do not edit.',
    lists,
  };
  fs.writeFileSync(path.join(__dirname, '..', 'codes', 'en16931.json'), `${JSON.stringify(file, null, 1)}\n`);
  for (const [name, l] of Object.entries(lists)) console.log(`${name}: ${l.codes.length} codes (${l.rule})`);
}
