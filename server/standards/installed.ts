// The install step's record (installed.json in the standards folder): which release of each artefact is there, with
// its digest and files, and each compiled rule set with the artefacts it was compiled from. install.ts writes it;
// start-up reads it to refuse a standards folder that does not hold what the manifest names (a manifest moved to a new
// release without the install step run again). Knows nothing of HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { isUnder, type Compile, type Manifest } from './manifest';

export const RECORD_FILE = 'installed.json';

export interface InstalledArtefact {
  version: string;
  sha256: string;
  /** The archive's URL or the mirror folder. */
  source: string;
  /** Paths in the standards folder. */
  files: string[];
}

export interface InstalledCompile {
  /** What the output was made from: the digests of the artefacts holding its sources, xslt3's version, the row. */
  key: string;
  /** The artefacts holding its sources, with their digests then. */
  sources: Record<string, string>;
  sha256: string;
  how: 'compiled' | 'mirror';
}

export interface InstallRecord {
  artefacts: Record<string, InstalledArtefact>;
  compiled: Record<string, InstalledCompile>;
}

/** The record in `dir`, or undefined when there is none (or it cannot be read). */
export function readRecord(dir: string): InstallRecord | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(path.join(dir, RECORD_FILE), 'utf8')) as Partial<InstallRecord>;
    return { artefacts: r.artefacts ?? {}, compiled: r.compiled ?? {} };
  } catch {
    return undefined;
  }
}

export function writeRecord(dir: string, record: InstallRecord): void {
  const file = path.join(dir, RECORD_FILE);
  fs.writeFileSync(`${file}.partial`, `${JSON.stringify(record, null, 2)}\n`);
  fs.renameSync(`${file}.partial`, file);
}

/** The artefacts whose files a compile row reads (its source and SchXslt's pipeline), by id. */
export function sourcesOf(m: Manifest, c: Compile): Record<string, string> {
  const paths = [c.from, c.schematronPipeline].filter((p): p is string => p !== undefined);
  const holders = m.artefacts.filter((a) => a.take.some((t) => paths.some((p) => isUnder(p, t.to))));
  return Object.fromEntries(holders.map((a) => [a.id, a.sha256]));
}

/** What `dir` lacks of what the manifest names, one sentence each: an artefact of another release (or none), a rule
 * set compiled from other sources (or not at all). Empty when there is no record: the files' own checks then speak. */
export function installedProblems(m: Manifest, dir: string): string[] {
  const record = readRecord(dir);
  if (!record) return [];
  const problems: string[] = [];
  for (const a of m.artefacts) {
    const had = record.artefacts[a.id];
    if (!had) problems.push(`${a.name} ${a.version} is not installed in ${dir}`);
    else if (had.sha256 !== a.sha256) {
      problems.push(`${dir} holds ${a.name} ${had.version}, the manifest names ${a.version} (SHA-256 ${a.sha256.slice(0, 12)}…)`);
    }
  }
  for (const c of m.compile) {
    const had = record.compiled[c.output];
    const want = sourcesOf(m, c);
    if (!had) problems.push(`${c.output} is not compiled in ${dir}`);
    else if (Object.entries(want).some(([id, sha]) => had.sources[id] !== sha)) {
      problems.push(`${c.output} in ${dir} was compiled from other releases than the manifest names`);
    }
  }
  return problems;
}
