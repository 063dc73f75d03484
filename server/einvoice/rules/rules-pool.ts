// The official business rules, run in a pool of worker processes (rules-worker.ts on workers/pool.ts): every worker
// parses every rule set once at start-up, so any worker runs any rule set, and the rule sets of one document run in
// parallel when there are several workers. A missing or unreadable rule file stops start-up with every problem listed;
// a worker that crashes is replaced and its job fails; a rule set that runs past the deadline has its worker
// terminated and replaced (a SaxonJS transform cannot be interrupted otherwise). Checking a long invoice must not slow
// the PDFs of others: the workers run at a lower CPU priority than the rest of the process and Chromium, and are
// processes so that they can be stopped while PDFs print (suspend/resume, workers/print-first.ts).
// This is the main thread's only door to the rules; it knows where they are, not which apply to a document.
// One pool per configuration serves the whole process (acquireRulesPool() hands out references; the last release()
// stops it), as acquireXsdValidator() does for the schemas.
import path from 'node:path';
import { SharedInstances } from '../../workers/shared-instances';
import { WorkerPool, WorkerPoolError, type WorkerPoolStats } from '../../workers/pool';
import { RULE_SETS, ruleFileProblems, ruleSetFiles, type RuleSetId } from './rule-sets';
import type { RulesJob, RulesWorkerData } from './rules-worker';
import type { SvrlFailure } from './svrl';

export type { SvrlFailure } from './svrl';

/** The rules could not be loaded: every problem, one sentence each. */
export class RulesLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `the official rule sets could not be loaded (install them with npm run standards, or set RECEIVED_EINVOICES=false): ${problems.join('; ')}`,
    );
    this.name = 'RulesLoadError';
  }
}

export interface RulesPoolOptions {
  /** RULES_DIR: the standards folder (vendor/), with `compiled/` and `factur-x/`. */
  rulesDir: string;
  /** RULES_WORKERS. */
  workers: number;
  /** RULES_TIMEOUT_MS: the longest one rule set may run on one document. */
  timeoutMs: number;
  /** RULES_QUEUE_LIMIT: rule set runs that may wait for a worker; more are refused (busy). */
  queueLimit: number;
  /** Added to the workers' nice value (0: the process's own priority). */
  niceness?: number;
  /** A worker's heap limit (MiB): a document that needs more fails its check, the worker is replaced. */
  workerHeapMiB?: number;
  onEvent?: (event: string, detail: Record<string, unknown>) => void;
}

/** The workers' default nice increment: they get about a tenth of a core that Chromium or the event loop wants, and
 * every idle cycle (docs/operating.md, "Checking received e-invoices", for the measurements). */
export const RULES_NICENESS = 10;
/** The rules of a 10,000-line invoice take under 300 MiB besides the rule sets' own 100 MiB. */
export const RULES_WORKER_HEAP_MIB = 1024;

export class RulesPool {
  private readonly pool: WorkerPool<RulesJob, SvrlFailure[]>;
  private readonly started: Promise<void>;

  constructor(readonly opts: RulesPoolOptions) {
    const problems = ruleFileProblems(opts.rulesDir);
    if (problems.length > 0) throw new RulesLoadError(problems);
    const data: RulesWorkerData = {
      sets: ruleSetFiles(opts.rulesDir).map((f) => ({ ...f, name: RULE_SETS[f.id].name, syntax: RULE_SETS[f.id].syntax })),
      niceness: opts.niceness ?? RULES_NICENESS,
    };
    this.pool = new WorkerPool<RulesJob, SvrlFailure[]>({
      file: path.join(__dirname, 'rules-worker'),
      size: opts.workers,
      workerData: data,
      processes: true,
      announcesReady: true,
      timeoutMs: opts.timeoutMs,
      queueLimit: opts.queueLimit,
      resourceLimits: { maxOldGenerationSizeMb: opts.workerHeapMiB ?? RULES_WORKER_HEAP_MIB },
      onEvent: opts.onEvent,
    });
    this.started = this.pool.ready().catch((err: Error) => {
      throw err instanceof WorkerPoolError && err.reason === 'unavailable' ? new RulesLoadError(err.message.split('; ')) : err;
    });
    this.started.catch(() => undefined);
  }

  /** Resolves when every worker has loaded every rule set; rejects with a RulesLoadError listing what failed. */
  ready(): Promise<void> {
    return this.started;
  }

  /** The failures of `xml` under one rule set (its SVRL's failed assertions and successful reports). Fails with a
   * WorkerPoolError: `busy` (queue full), `timeout` (deadline), `crashed` (the worker died, out of memory, say),
   * `unavailable`, `closed`; with `signal`'s reason when it is aborted. */
  run(set: RuleSetId, xml: string | Uint8Array, signal?: AbortSignal): Promise<SvrlFailure[]> {
    if (!RULE_SETS[set].file) return Promise.reject(new Error(`the rule set ${set} has no compiled rules`));
    return this.pool.run({ set, xml }, { signal });
  }

  /** Stops the workers' checks where they are, and their deadlines (workers/print-first.ts: PDFs print). */
  suspend(): void {
    this.pool.suspend();
  }

  resume(): void {
    this.pool.resume();
  }

  stats(): WorkerPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

type PoolEvent = NonNullable<RulesPoolOptions['onEvent']>;

/** Who hears each pool's events, by key (a function is no part of the key): every holder that gave a listener, for as
 * long as it holds its reference. */
const listeners = new Map<string, Set<PoolEvent>>();

const shared = new SharedInstances<RulesPool>(
  (key) =>
    new RulesPool({
      ...(JSON.parse(key) as RulesPoolOptions),
      onEvent: (event, detail) => {
        for (const listener of listeners.get(key) ?? []) listener(event, detail);
      },
    }),
  (pool) => pool.close(),
);

export interface RulesPoolRef {
  pool: RulesPool;
  release(): Promise<void>;
}

/** The process's rules pool for these settings (started on first use, stopped when the last reference is released).
 * `config`: a Config (rulesDir, rulesWorkers, rulesTimeoutMs, rulesQueueLimit). Throws RulesLoadError at once for
 * missing files; await `pool.ready()` for the rest. `onEvent` hears the pool's events while this reference is held. */
export function acquireRulesPool(
  config: { rulesDir: string; rulesWorkers: number; rulesTimeoutMs: number; rulesQueueLimit: number },
  extra: Pick<RulesPoolOptions, 'niceness' | 'workerHeapMiB' | 'onEvent'> = {},
): RulesPoolRef {
  const { onEvent, ...rest } = extra;
  const opts = {
    rulesDir: path.resolve(config.rulesDir),
    workers: config.rulesWorkers,
    timeoutMs: config.rulesTimeoutMs,
    queueLimit: config.rulesQueueLimit,
    ...rest,
  };
  const key = JSON.stringify(opts);
  // Each holder's own listener (a function of its own, so that two holders giving the same one both count).
  const listener: PoolEvent | undefined = onEvent && ((event, detail) => onEvent(event, detail));
  if (listener) listeners.set(key, (listeners.get(key) ?? new Set()).add(listener));
  const ref = shared.acquire(key);
  return {
    pool: ref.instance,
    release: async () => {
      const held = listeners.get(key);
      if (listener && held?.delete(listener) && held.size === 0) listeners.delete(key);
      await ref.release();
    },
  };
}
