// The standards manifest (standards/manifest.json, described by standards/manifest.schema.json and docs/standards.md):
// every public artefact the service uses (schemas, business rules, the tools that compile them), where its publisher
// publishes it, the files taken from it and their SHA-256, what is compiled from them, and the rule sets the service
// runs. Owns loading and checking it: the install step (install.ts) reads it to fetch and build, start-up to know each
// rule set's name, version and file and to check that what is installed is what it names. A broken manifest stops
// both with every problem listed. Knows nothing of HTTP, and reads no file but the manifest and its schema.
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { projectRoot } from '../config';

export interface Take {
  /** A folder of the archive, below its `strip` leading folders ('.' for the top). */
  from: string;
  /** The same folder in the standards folder (vendor/) and in a mirror. */
  to: string;
  /** Globs (picomatch) of the files taken, relative to `from` / `to`; absent, `from` and `to` name one file. */
  include?: string[];
  /** Line endings made LF when taken from an archive (a .gitattributes eol=crlf the archive applied). */
  lf?: boolean;
}

export interface Artefact {
  id: string;
  name: string;
  version: string;
  publisher: string;
  licence: string;
  /** The publisher's release archive (.zip, .tar.gz, .tgz). */
  url: string;
  /** Leading folders of the archive's paths to drop. */
  strip: number;
  take: Take[];
  /** SHA-256 of the files taken (tree.ts, treeDigest). */
  sha256: string;
}

export interface Compile {
  /** The SaxonJS SEF written, relative to the standards folder. */
  output: string;
  /** The Schematron or XSLT compiled, relative to the standards folder. */
  from: string;
  /** For a Schematron: SchXslt's pipeline stylesheet, relative to the standards folder. */
  schematronPipeline?: string;
}

export interface RuleSetRow {
  id: string;
  /** As the validation report names it. */
  name: string;
  /** An invoice's syntax, or `cdar` (the lifecycle status message). */
  syntax: 'ubl' | 'cii' | 'cdar';
  /** The artefact the rules come from: its version is the rule set's. */
  artefact: string;
  /** The compiled rules (a compile output); absent for a rule set that cannot run (`notRun` says why). */
  file?: string;
  /** Files the rules read with document(), parsed once with them. */
  reads?: string[];
  /** The assertions name the rule they check at the start of their text ('[BR-CO-16]-…'). */
  ruleInText?: boolean;
  notRun?: string;
}

export interface Manifest {
  artefacts: Artefact[];
  compile: Compile[];
  ruleSets: RuleSetRow[];
}

export class ManifestError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`The standards manifest ${file} is broken:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ManifestError';
  }
}

/** The manifest in the repository. */
export const MANIFEST_FILE = path.join(projectRoot(), 'standards', 'manifest.json');
const SCHEMA_FILE = path.join(projectRoot(), 'standards', 'manifest.schema.json');

/** Whether `file` (relative) lies in the folder `dir` (relative; '.' is every file). */
export function isUnder(file: string, dir: string): boolean {
  return dir === '.' || file === dir || file.startsWith(`${dir}/`);
}

/** The problems of references between the manifest's rows (the schema checked each row on its own). */
function crossProblems(m: Manifest, knownRuleSets: readonly string[] | undefined): string[] {
  const problems: string[] = [];
  const duplicates = (label: string, values: string[]): void => {
    const seen = new Set<string>();
    for (const v of values) {
      if (seen.has(v)) problems.push(`${label} '${v}' is given twice`);
      seen.add(v);
    }
  };
  duplicates(
    'the artefact id',
    m.artefacts.map((a) => a.id),
  );
  duplicates(
    'the compile output',
    m.compile.map((c) => c.output),
  );
  duplicates(
    'the rule set id',
    m.ruleSets.map((r) => r.id),
  );
  const taken = m.artefacts.flatMap((a) => a.take.map((t) => t.to));
  const takenFile = (f: string): boolean => taken.some((dir) => isUnder(f, dir));
  for (const c of m.compile) {
    if (!takenFile(c.from)) problems.push(`compile ${c.output}: its source ${c.from} is in no artefact's folders`);
    if (c.schematronPipeline && !takenFile(c.schematronPipeline)) {
      problems.push(`compile ${c.output}: its pipeline ${c.schematronPipeline} is in no artefact's folders`);
    }
    if (/\.sch$/i.test(c.from) && !c.schematronPipeline) problems.push(`compile ${c.output}: a Schematron needs schematronPipeline`);
    if (!/\.sef\.json$/.test(c.output)) problems.push(`compile ${c.output}: the output must be a .sef.json file`);
  }
  const outputs = new Set(m.compile.map((c) => c.output));
  const ids = new Set(m.artefacts.map((a) => a.id));
  for (const r of m.ruleSets) {
    if (!ids.has(r.artefact)) problems.push(`rule set ${r.id}: no artefact '${r.artefact}'`);
    if (r.file && !outputs.has(r.file)) problems.push(`rule set ${r.id}: ${r.file} is no compile output`);
    for (const f of r.reads ?? []) if (!takenFile(f)) problems.push(`rule set ${r.id}: ${f} is in no artefact's folders`);
  }
  if (knownRuleSets) {
    const given = new Set(m.ruleSets.map((r) => r.id));
    for (const id of knownRuleSets) if (!given.has(id)) problems.push(`the rule set '${id}' the service runs is missing`);
    for (const id of given) if (!knownRuleSets.includes(id)) problems.push(`the rule set '${id}' is not one the service knows`);
  }
  return problems;
}

/** Reads and checks a manifest; throws ManifestError naming every problem. `knownRuleSets`: the rule set ids the
 * code refers to (each must have a row, and no other). */
export function loadManifest(file: string = MANIFEST_FILE, knownRuleSets?: readonly string[]): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ManifestError(file, [(err as Error).message]);
  }
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  const validate = ajv.compile<Manifest>(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as object);
  if (!validate(value)) {
    throw new ManifestError(
      file,
      (validate.errors ?? []).map((e) => `${e.instancePath || '(top)'} ${e.message ?? 'is invalid'}`),
    );
  }
  const problems = crossProblems(value, knownRuleSets);
  if (problems.length > 0) throw new ManifestError(file, problems);
  return value;
}

/** The artefact `id` of `m` (which loadManifest checked exists). */
export function artefactOf(m: Manifest, id: string): Artefact {
  const a = m.artefacts.find((x) => x.id === id);
  if (!a) throw new Error(`no artefact ${id} in the standards manifest`);
  return a;
}
