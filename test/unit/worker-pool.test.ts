// The worker pool (server/worker-pool.ts) under everything that can go wrong: a job past its deadline, a worker that
// crashes or runs out of memory, a cancelled job, a full queue, workers that cannot load. Each time the job fails
// cleanly, with a reason, and the next job works.
import path from 'node:path';
import { expect } from 'chai';
import { WorkerDeadlineError, WorkerPool, WorkerPoolError } from '../../server/worker-pool';
import type { PoolJob } from '../fixtures/workers/pool-worker';

const FILE = path.join(__dirname, '..', 'fixtures', 'workers', 'pool-worker');
type Out = { value: unknown; thread: number };

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

describe('the worker pool', function () {
  this.timeout(60_000);
  const pools: WorkerPool<PoolJob, Out>[] = [];
  const pool = (opts: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}) => {
    const p = new WorkerPool<PoolJob, Out>({ file: FILE, size: 2, announcesReady: true, ...opts });
    pools.push(p);
    return p;
  };
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('runs jobs on every worker once they have loaded, two at a time on two workers', async function () {
    const p = pool({ workerData: { loadMs: 200 } });
    await p.ready();
    expect(p.stats()).to.deep.equal({ size: 2, ready: 2, busy: 0, queued: 0 });
    const started = Date.now();
    const outs = await Promise.all([p.run({ op: 'spin', ms: 300 }), p.run({ op: 'spin', ms: 300 })]);
    expect(Date.now() - started, 'in parallel').to.be.below(580);
    expect(new Set(outs.map((o) => o.thread)).size).to.equal(2);
    expect((await p.run({ op: 'echo', value: { a: [1] } })).value).to.deep.equal({ a: [1] });
  });

  it('stops a job past its deadline (terminating its worker), and the next job runs on a fresh worker', async function () {
    const p = pool({ size: 1, timeoutMs: 300 });
    await p.ready();
    const before = (await p.run({ op: 'echo', value: 1 })).thread;
    const started = Date.now();
    const err = await failure(p.run({ op: 'spin', ms: 60_000 }));
    expect(err).to.be.instanceOf(WorkerDeadlineError);
    expect((err as WorkerPoolError).reason).to.equal('timeout');
    expect(Date.now() - started).to.be.below(2000);
    const after = await p.run({ op: 'echo', value: 2 });
    expect(after.value).to.equal(2);
    expect(after.thread).to.not.equal(before);
  });

  it('a job’s own deadline wins over the pool’s', async function () {
    const p = pool({ size: 1, timeoutMs: 60_000 });
    expect(await failure(p.run({ op: 'spin', ms: 60_000 }, { timeoutMs: 200 }))).to.be.instanceOf(WorkerDeadlineError);
  });

  it('a crashed worker fails its job only; the queued jobs run on its replacement', async function () {
    const p = pool({ size: 1 });
    await p.ready();
    const crash = failure(p.run({ op: 'exit' }));
    const queued = p.run({ op: 'echo', value: 'after' });
    const err = await crash;
    expect(err).to.be.instanceOf(WorkerPoolError);
    expect((err as WorkerPoolError).reason).to.equal('crashed');
    expect((await queued).value).to.equal('after');
  });

  it('a worker out of memory fails its job with ERR_WORKER_OUT_OF_MEMORY and is replaced', async function () {
    const p = pool({ size: 1, resourceLimits: { maxOldGenerationSizeMb: 64 } });
    await p.ready();
    const err = (await failure(p.run({ op: 'oom' }))) as WorkerPoolError;
    expect(err.reason).to.equal('crashed');
    expect(err.code).to.equal('ERR_WORKER_OUT_OF_MEMORY');
    expect((await p.run({ op: 'echo', value: 'alive' })).value).to.equal('alive');
  });

  it("a job's own error is its error, and the worker goes on", async function () {
    const p = pool({ size: 1, expectedError: (m) => new RangeError(m) });
    const err = await failure(p.run({ op: 'throw' }));
    expect(err.message).to.equal('the job failed');
    expect(err).to.not.be.instanceOf(WorkerPoolError);
    expect((await p.run({ op: 'echo', value: 3 })).value).to.equal(3);
  });

  it('cancels: a queued job is dropped, a running one has its worker replaced', async function () {
    const p = pool({ size: 1 });
    await p.ready();
    const stop = new AbortController();
    const running = failure(p.run({ op: 'spin', ms: 60_000 }, { signal: stop.signal }));
    const queued = failure(p.run({ op: 'echo', value: 'never' }, { signal: stop.signal }));
    const other = p.run({ op: 'echo', value: 'other' });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    stop.abort(new Error('client left'));
    expect((await running).message).to.equal('client left');
    expect((await queued).message).to.equal('client left');
    expect((await other).value).to.equal('other');
    expect(Date.now() - started).to.be.below(10_000);
  });

  it('refuses a job at once when the queue is full (busy), and takes it again when there is room', async function () {
    const p = pool({ size: 1, queueLimit: 1 });
    await p.ready();
    const running = p.run({ op: 'spin', ms: 300 });
    const waiting = p.run({ op: 'echo', value: 'waits' });
    const err = (await failure(p.run({ op: 'echo', value: 'refused' }))) as WorkerPoolError;
    expect(err.reason).to.equal('busy');
    await running;
    expect((await waiting).value).to.equal('waits');
    expect((await p.run({ op: 'echo', value: 'again' })).value).to.equal('again');
  });

  it('workers that cannot load: ready() rejects with the reason, and jobs fail instead of waiting', async function () {
    const p = pool({ workerData: { failLoad: 'rules.sef.json is not JSON' } });
    const err = (await failure(p.ready())) as WorkerPoolError;
    expect(err.reason).to.equal('unavailable');
    expect(err.message).to.contain('rules.sef.json is not JSON');
    const job = (await failure(p.run({ op: 'echo', value: 1 }))) as WorkerPoolError;
    expect(job.reason).to.equal('unavailable');
  });

  it('closing fails what waits and runs, and refuses what comes after', async function () {
    const p = pool({ size: 1 });
    await p.ready();
    const running = failure(p.run({ op: 'spin', ms: 60_000 }));
    const queued = failure(p.run({ op: 'echo', value: 1 }));
    await new Promise((r) => setTimeout(r, 50));
    await p.close();
    for (const err of [await running, await queued, await failure(p.run({ op: 'echo', value: 2 }))]) {
      expect((err as WorkerPoolError).reason).to.equal('closed');
    }
  });
});
