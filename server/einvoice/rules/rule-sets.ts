// The official business rule sets a received e-invoice is checked with (POST /validate): each with the name and
// version the report gives it and its compiled form (SaxonJS SEF, in RULES_DIR, the standards folder vendor/ by
// default). The rows are standards/manifest.json's (`ruleSets`, with the version of the artefact each comes from), read
// once when this module loads: moving to a new release of the rules is a change of that file. Which rule sets apply
// to which specification is profiles.ts's table (`received`); this file only says what each rule set is and where it
// lives. No XML here.
import fs from 'node:fs';
import path from 'node:path';
import { artefactOf, loadManifest, type Manifest } from '../../standards/manifest';

/** The rule sets the code refers to (profiles.ts): the manifest must give each one, and no other. */
export const RULE_SET_IDS = [
  'en16931-ubl',
  'en16931-cii',
  'peppol-ubl',
  'xrechnung-ubl',
  'xrechnung-cii',
  'facturx-minimum',
  'facturx-basicwl',
  'facturx-basic',
  'facturx-en16931',
  'facturx-extended',
  'br-fr-ubl',
  'br-fr-cii',
  'extended-ctc-fr-ubl',
  'extended-ctc-fr-cii',
  'br-fr-cdar',
] as const;

/** What a rule set is written for: an invoice's syntax, or the CDAR lifecycle status message. */
export type RuleSyntax = 'ubl' | 'cii' | 'cdar';

export type RuleSetId = (typeof RULE_SET_IDS)[number];

export interface RuleSet {
  /** As the report names it. */
  name: string;
  /** The release of the rules. */
  version: string;
  /** The syntax it is written for (the warm-up document at start-up is an empty root of it). */
  syntax: RuleSyntax;
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

/** standards/manifest.json, loaded and checked once (with a row for every rule set above): start-up's check of the
 * standards folder and the install command read this one. */
export const STANDARDS_MANIFEST: Manifest = loadManifest(undefined, RULE_SET_IDS);

/** The rule sets of the manifest, by id. */
export const RULE_SETS: Record<RuleSetId, RuleSet> = Object.fromEntries(
  STANDARDS_MANIFEST.ruleSets.map(({ id, artefact, ...row }) => [
    id,
    { ...row, version: artefactOf(STANDARDS_MANIFEST, artefact).version },
  ]),
) as Record<RuleSetId, RuleSet>;

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
