// Worker process that runs the official business rules (rules-pool.ts starts a few of them). At start-up it parses
// every rule set it is given once (SaxonJS SEF, JSON) with the code list files the rules read, warms each with one
// transform, and lowers its own thread's CPU priority; then it runs one rule set on one document per job and answers
// the SVRL failures. It must not know which rule sets apply to which document, nor change a document.
import fs from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import SaxonJS from 'saxon-js';
import { serveJobsWhenLoaded } from '../../workers/jobs';
import { workerInput } from '../../workers/port';
import type { RuleSetFiles, RuleSyntax } from './rule-sets';
import { textOf } from '../shared-text';
import { svrlFailures, type SvrlFailure } from './svrl';

export interface RulesWorkerData {
  sets: (RuleSetFiles & { name: string; syntax: RuleSyntax })[];
  /** Added to this worker's nice value (Linux: per thread), so that Chromium and the event loop go first. */
  niceness: number;
}

export interface RulesJob {
  set: string;
  /** The document, as a string or as shared UTF-8 bytes (shared-text.ts). */
  xml: string | Uint8Array;
}

interface Loaded {
  stylesheet: object;
  baseUri: string;
  documentPool: Record<string, unknown>;
}

const EMPTY: Record<RuleSyntax, string> = {
  ubl: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
  cii: '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>',
  cdar: '<rsm:CrossDomainAcknowledgementAndResponse xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100"/>',
};

function transform(set: Loaded, xml: string): string {
  const result = SaxonJS.transform(
    {
      stylesheetInternal: set.stylesheet,
      stylesheetBaseURI: set.baseUri,
      documentPool: set.documentPool,
      sourceText: xml,
      destination: 'serialized',
    },
    'sync',
  ) as { principalResult: string };
  return result.principalResult;
}

/** This thread's nice value raised by `by` (Linux reads the thread's id from /proc/thread-self; elsewhere nothing);
 * in a worker process, the process's main thread. */
function lowerPriority(by: number): void {
  if (by <= 0) return;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + by));
  } catch {
    // Not Linux, or not allowed: the rules run at the process's priority.
  }
}

async function load(): Promise<Map<string, Loaded>> {
  const data = workerInput<RulesWorkerData>();
  lowerPriority(data.niceness);
  const loaded = new Map<string, Loaded>();
  const problems: string[] = [];
  for (const set of data.sets) {
    try {
      const stylesheet = JSON.parse(fs.readFileSync(set.file, 'utf8')) as object;
      const documentPool: Record<string, unknown> = {};
      for (const file of set.reads) {
        // The URI document('…') resolves to against the stylesheet's base URI: read once here, never per document.
        documentPool[pathToFileURL(file).href] = await SaxonJS.getResource({ file, type: 'xml' });
      }
      const entry = { stylesheet, baseUri: pathToFileURL(set.file).href, documentPool };
      // Warm: SaxonJS primes a stylesheet on its first transform (checksum, tree links), and the JIT gets going.
      svrlFailures(transform(entry, EMPTY[set.syntax]));
      loaded.set(set.id, entry);
    } catch (err) {
      problems.push(`${set.name} (${set.file}): ${(err as Error).message.split('\n')[0]!.slice(0, 300)}`);
    }
  }
  if (problems.length > 0) throw new Error(problems.join('; '));
  return loaded;
}

serveJobsWhenLoaded(load, (loaded, job: RulesJob): SvrlFailure[] => {
  const set = loaded.get(job.set);
  if (!set) throw new Error(`no rule set ${job.set} in this worker`);
  return svrlFailures(transform(set, textOf(job.xml)));
});
