// The official business rule sets a received e-invoice is checked with (POST /validate): each with the name and
// version the report gives it and its compiled form (SaxonJS SEF, in RULES_DIR, laid out as ../shared/standards:
// see its README for how each was compiled). Which rule sets apply to which specification is profiles.ts's table
// (`received`); this file only says what each rule set is and where it lives. No XML here.
import fs from 'node:fs';
import path from 'node:path';

export type RuleSetId =
  | 'en16931-ubl'
  | 'en16931-cii'
  | 'peppol-ubl'
  | 'xrechnung-ubl'
  | 'xrechnung-cii'
  | 'facturx-minimum'
  | 'facturx-basicwl'
  | 'facturx-basic'
  | 'facturx-en16931'
  | 'facturx-extended';

export interface RuleSet {
  /** As the report names it. */
  name: string;
  /** The release of the rules. */
  version: string;
  /** The syntax it is written for (the warm-up document at start-up is an empty root of it). */
  syntax: 'ubl' | 'cii';
  /** The compiled rules, relative to RULES_DIR; absent for a rule set that cannot run (`notRun` says why). */
  file?: string;
  /** Files the rules read with document(), relative to RULES_DIR: parsed once, with the rules. */
  reads?: string[];
  /** Why the rule set is not run (the report lists it with this reason). */
  notRun?: string;
  /** The assertions have ids of their own (Factur-X: `FX-SCH-A-000122`) and name the rule they check at the start
   * of their text (`[BR-CO-16]-Amount due …`): the report's rule is the latter. */
  ruleInText?: boolean;
}

const facturX = (level: string, folder: string, file: string, codes: string): RuleSet => ({
  name: `Factur-X ${level}`,
  version: '1.09',
  syntax: 'cii',
  file: `factur-x/${folder}/Factur-X_1.09_${file}.sef.json`,
  reads: [`factur-x/${folder}/${codes}`],
  ruleInText: true,
});

export const RULE_SETS: Record<RuleSetId, RuleSet> = {
  'en16931-ubl': { name: 'EN 16931 UBL', version: '1.3.16', syntax: 'ubl', file: 'compiled/en16931-ubl.sef.json' },
  'en16931-cii': { name: 'EN 16931 CII', version: '1.3.16', syntax: 'cii', file: 'compiled/en16931-cii.sef.json' },
  'peppol-ubl': { name: 'Peppol BIS Billing', version: '3.0.19', syntax: 'ubl', file: 'compiled/peppol-ubl.sef.json' },
  'xrechnung-ubl': { name: 'XRechnung 3.0 UBL', version: '2.5.0', syntax: 'ubl', file: 'compiled/xrechnung-ubl.sef.json' },
  'xrechnung-cii': { name: 'XRechnung 3.0 CII', version: '2.5.0', syntax: 'cii', file: 'compiled/xrechnung-cii.sef.json' },
  'facturx-minimum': facturX('MINIMUM', 'facturx-minimum', 'MINIMUM', 'FACTUR-X_MINIMUM_codedb.xml'),
  'facturx-basicwl': facturX('BASIC WL', 'facturx-basicwl', 'BASICWL', 'FACTUR-X_BASIC-WL_codedb.xml'),
  'facturx-basic': facturX('BASIC', 'facturx-basic', 'BASIC', 'FACTUR-X_BASIC_codedb.xml'),
  'facturx-en16931': facturX('EN 16931', 'facturx-en16931', 'EN16931', 'FACTUR-X_EN16931_codedb.xml'),
  'facturx-extended': {
    name: 'Factur-X EXTENDED',
    version: '1.09',
    syntax: 'cii',
    notRun:
      'not run: its published XSLT stops SaxonJS with a type error (XPTY0004) on every document, so EXTENDED is checked with its own XSD and the EN 16931 CII rules',
  },
};

/** A rule set's files, absolute. */
export interface RuleSetFiles {
  id: RuleSetId;
  file: string;
  reads: string[];
}

/** The files of every rule set that runs, under `rulesDir`. */
export function ruleSetFiles(rulesDir: string): RuleSetFiles[] {
  return Object.entries(RULE_SETS).flatMap(([id, set]) =>
    set.file
      ? [{ id: id as RuleSetId, file: path.join(rulesDir, set.file), reads: (set.reads ?? []).map((r) => path.join(rulesDir, r)) }]
      : [],
  );
}

/** Every rule file that is missing or unreadable, one sentence each (empty when all are there). */
export function ruleFileProblems(rulesDir: string): string[] {
  return ruleSetFiles(rulesDir).flatMap(({ id, file, reads }) =>
    [file, ...reads].flatMap((f) => {
      try {
        fs.accessSync(f, fs.constants.R_OK);
        return fs.statSync(f).isFile() ? [] : [`${RULE_SETS[id].name}: ${f} is not a file`];
      } catch (err) {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        return [`${RULE_SETS[id].name}: ${f} is ${missing ? 'missing' : 'unreadable'}`];
      }
    }),
  );
}

/** Whether RULES_DIR holds none of the rule files at all (not installed, rather than broken). */
export function rulesAbsent(rulesDir: string): boolean {
  return ruleSetFiles(rulesDir).every(({ file }) => !fs.existsSync(file));
}
