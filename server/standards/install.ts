// The install step: puts every artefact of the manifest into the standards folder (vendor/) from its publisher or a
// mirror, checks each one's SHA-256 before copying anything of it, and compiles the rule sets for SaxonJS. What is
// already there for the same digests is left alone (the record, installed.ts, says what is there); a compiled rule set
// may be taken from the mirror's own copy (its cache) unless told to compile everything from the sources. A wrong
// digest or a missing artefact stops the step naming it, before any rule set is compiled. Run by scripts/start,
// .ci/run and the Dockerfile alike (npm run standards, server/cli/standards.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileRules, xslt3 } from './compile';
import { readRecord, sourcesOf, writeRecord, type InstallRecord } from './installed';
import type { Artefact, Compile, Manifest } from './manifest';
import { fromMirror, fromPublisher, type Obtained } from './obtain';
import { contentOf, fileDigest, takenFiles, treeDigest } from './tree';

export interface InstallOptions {
  manifest: Manifest;
  /** The standards folder written (vendor/). */
  dest: string;
  /** A folder holding the artefacts' files where the standards folder will (STANDARDS_MIRROR); else the network. */
  mirror?: string;
  /** Compile every rule set from its sources, never taking the mirror's compiled copy. */
  fromSources?: boolean;
  /** Compilations at once (default: the cores, at most 4). */
  concurrency?: number;
  log: (line: string) => void;
}

export class InstallError extends Error {
  constructor(readonly problems: string[]) {
    super(`The standards could not be installed:\n  - ${problems.join('\n  - ')}`);
    this.name = 'InstallError';
  }
}

export interface InstallSummary {
  /** Artefact ids by what happened to them. */
  artefacts: { kept: string[]; installed: string[] };
  /** Compile outputs by what happened to them. */
  compiled: { kept: string[]; compiled: string[]; fromMirror: string[] };
}

const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Whether `dest` holds `a` as the record says, unchanged. */
function artefactCurrent(a: Artefact, dest: string, record: InstallRecord): boolean {
  if (record.artefacts[a.id]?.sha256 !== a.sha256) return false;
  const problems: string[] = [];
  const files = takenFiles(a, dest, 'mirror', problems);
  return problems.length === 0 && treeDigest(files) === a.sha256;
}

/** Replaces what `dest` holds of an artefact (the files the record lists) with `got`'s files. */
function putArtefact(a: Artefact, got: Obtained, dest: string, record: InstallRecord): void {
  for (const rel of record.artefacts[a.id]?.files ?? []) fs.rmSync(path.join(dest, rel), { force: true });
  for (const f of got.files) {
    const to = path.join(dest, f.rel);
    if (path.resolve(f.abs) === path.resolve(to)) continue;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, contentOf(f));
  }
  record.artefacts[a.id] = { version: a.version, sha256: a.sha256, source: got.source, files: got.files.map((f) => f.rel) };
}

async function installArtefacts(o: InstallOptions, record: InstallRecord, work: string, summary: InstallSummary): Promise<string[]> {
  const problems: string[] = [];
  for (const a of o.manifest.artefacts) {
    if (artefactCurrent(a, o.dest, record)) {
      record.artefacts[a.id]!.version = a.version; // the same files under a label the manifest corrected
      summary.artefacts.kept.push(a.id);
      continue;
    }
    const started = Date.now();
    const got = o.mirror ? fromMirror(a, o.mirror) : await fromPublisher(a, fs.mkdtempSync(path.join(work, `${a.id}-`)));
    if (got.problems.length > 0) {
      problems.push(...got.problems.map((p) => `${p} (${a.name} ${a.version})`));
      continue;
    }
    const digest = treeDigest(got.files);
    if (digest !== a.sha256) {
      problems.push(
        `${a.id} (${a.name} ${a.version}): the ${got.files.length} files from ${got.source} have SHA-256 ${digest}, the manifest says ${a.sha256}`,
      );
      continue;
    }
    putArtefact(a, got, o.dest, record);
    summary.artefacts.installed.push(a.id);
    o.log(`${a.id} ${a.version}: ${got.files.length} files from ${got.source}, SHA-256 checked (${seconds(started)})`);
  }
  return problems;
}

/** Runs `jobs` at most `n` at a time; every job's error is collected. */
async function pooled(jobs: (() => Promise<void>)[], n: number): Promise<Error[]> {
  const errors: Error[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      await job().catch((err: unknown) => errors.push(err as Error));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, n) }, lane));
  return errors;
}

function compileKey(m: Manifest, c: Compile, xslt3Version: string): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify({ c, sources: sourcesOf(m, c), xslt3: xslt3Version }))
    .digest('hex');
}

async function compileAll(o: InstallOptions, record: InstallRecord, work: string, summary: InstallSummary): Promise<string[]> {
  const m = o.manifest;
  const version = m.compile.length > 0 ? xslt3().version : '';
  const current = new Set(m.compile.map((c) => c.output));
  for (const out of Object.keys(record.compiled)) {
    if (!current.has(out)) {
      fs.rmSync(path.join(o.dest, out), { force: true });
      delete record.compiled[out];
    }
  }
  const jobs: (() => Promise<void>)[] = [];
  for (const c of m.compile) {
    const key = compileKey(m, c, version);
    const file = path.join(o.dest, c.output);
    const had = record.compiled[c.output];
    if (had?.key === key && fs.existsSync(file) && fileDigest(file) === had.sha256) {
      summary.compiled.kept.push(c.output);
      continue;
    }
    const cached = o.mirror && !o.fromSources ? path.join(o.mirror, c.output) : undefined;
    if (cached && fs.existsSync(cached)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.copyFileSync(cached, file);
      record.compiled[c.output] = { key, sources: sourcesOf(m, c), sha256: fileDigest(file), how: 'mirror' };
      summary.compiled.fromMirror.push(c.output);
      o.log(`${c.output}: the mirror's compiled copy`);
      continue;
    }
    jobs.push(async () => {
      const started = Date.now();
      delete record.compiled[c.output];
      try {
        await compileRules(c, o.dest, fs.mkdtempSync(path.join(work, 'compile-')));
      } catch (err) {
        throw new Error(`${c.output} could not be compiled from ${c.from}: ${(err as Error).message}`, { cause: err });
      }
      record.compiled[c.output] = { key, sources: sourcesOf(m, c), sha256: fileDigest(file), how: 'compiled' };
      summary.compiled.compiled.push(c.output);
      o.log(`${c.output}: compiled from ${c.from} (${seconds(started)})`);
    });
  }
  const errors = await pooled(jobs, o.concurrency ?? Math.min(4, os.availableParallelism()));
  return errors.map((e) => e.message);
}

/** Installs the manifest's artefacts and compiles its rule sets into `dest`; throws InstallError naming every
 * problem (the record keeps what did get installed, so a second run takes up where this one stopped). */
export async function installStandards(o: InstallOptions): Promise<InstallSummary> {
  fs.mkdirSync(o.dest, { recursive: true });
  const record = readRecord(o.dest) ?? { artefacts: {}, compiled: {} };
  const summary: InstallSummary = { artefacts: { kept: [], installed: [] }, compiled: { kept: [], compiled: [], fromMirror: [] } };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'standards-'));
  try {
    const problems = await installArtefacts(o, record, work, summary);
    if (problems.length > 0) {
      writeRecord(o.dest, record);
      throw new InstallError(problems);
    }
    const compileProblems = await compileAll(o, record, work, summary);
    writeRecord(o.dest, record);
    if (compileProblems.length > 0) throw new InstallError(compileProblems);
    return summary;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
