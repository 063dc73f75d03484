// The worker pool (server/workers/pool.ts) under everything that can go wrong: a job past its deadline, a worker that
// crashes or runs out of memory, a cancelled job, a full queue, workers that cannot load. Each time the job fails
// cleanly, with a reason, and the next job works.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { WorkerDeadlineError, WorkerPool, WorkerPoolError } from '../../../server/workers/pool';
import type { PoolJob } from '../../fixtures/workers/pool-worker';

const FILE = path.join(__dirname, '..', '..', 'fixtures', 'workers', 'pool-worker');
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
    const jobs = [p.run({ op: 'spin', ms: 300 }), p.run({ op: 'spin', ms: 300 })];
    // In parallel: both workers hold a job at once, none waits in the queue.
    expect(p.stats(), 'in parallel').to.deep.equal({ size: 2, ready: 2, busy: 2, queued: 0 });
    const outs = await Promise.all(jobs);
    expect(new Set(outs.map((o) => o.thread)).size).to.equal(2);
    expect((await p.run({ op: 'echo', value: { a: [1] } })).value).to.deep.equal({ a: [1] });
  });

  it('stops a job past its deadline (terminating its worker), and the next job runs on a fresh worker', async function () {
    const p = pool({ size: 1, timeoutMs: 300 });
    await p.ready();
    const before = (await p.run({ op: 'echo', value: 1 })).thread;
    // A job of a minute: only the deadline ends it within the test's time.
    const err = await failure(p.run({ op: 'spin', ms: 60_000 }));
    expect(err).to.be.instanceOf(WorkerDeadlineError);
    expect((err as WorkerPoolError).reason).to.equal('timeout');
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
    const before = p.stats();
    stop.abort(new Error('client left'));
    expect((await running).message).to.equal('client left');
    expect((await queued).message).to.equal('client left');
    // The running job's worker replaced at once: the other job runs on the new one, not after the minute of spinning.
    expect(before).to.include({ busy: 1, queued: 2 });
    expect((await other).value).to.equal('other');
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

/** The process of a pool of one process worker. */
function workerPid(p: WorkerPool<PoolJob, Out>): number {
  const [pid] = p.processIds();
  if (pid === undefined) throw new Error('no worker process');
  return pid;
}

/** The scheduler state of a process (`T`: stopped), from /proc. */
function processState(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0]!;
}

describe('the worker pool, workers as child processes', function () {
  this.timeout(60_000);
  const pools: WorkerPool<PoolJob, Out>[] = [];
  const pool = (opts: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}) => {
    const p = new WorkerPool<PoolJob, Out>({ file: FILE, size: 1, announcesReady: true, processes: true, ...opts });
    pools.push(p);
    return p;
  };
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('runs jobs in processes of their own, with their data; a crash, a deadline and a failure as with threads', async function () {
    const p = pool({ size: 2, workerData: { loadMs: 100 } });
    await p.ready();
    const outs = await Promise.all([p.run({ op: 'echo', value: { a: [1, new Uint8Array([7])] } }), p.run({ op: 'spin', ms: 100 })]);
    expect(outs[0]!.value).to.deep.equal({ a: [1, new Uint8Array([7])] });
    const pids = new Set(outs.map((o) => o.thread));
    expect(pids.size).to.equal(2);
    expect(pids.has(process.pid)).to.equal(false);
    expect((await failure(p.run({ op: 'exit' }))).message).to.match(/exited \(3\)/);
    expect(await failure(p.run({ op: 'spin', ms: 60_000 }, { timeoutMs: 200 }))).to.be.instanceOf(WorkerDeadlineError);
    expect((await failure(p.run({ op: 'throw' }))).message).to.equal('the job failed');
    expect((await p.run({ op: 'echo', value: 2 })).value).to.equal(2);
    expect(await failure(pool({ workerData: { failLoad: 'no rules here' } }).ready())).to.have.property('message', 'no rules here');
  });

  it('suspend() stops a running job where it is (the process stopped), and its deadline with it; resume() lets it finish', async function () {
    const p = pool({ timeoutMs: 1500 });
    await p.ready();
    // 400 ms of the worker's CPU within a deadline of 1.5 s, held for 2 s in the middle: it still finishes.
    let done = false;
    const job = p.run({ op: 'cpu', ms: 400 }).then((out) => ((done = true), out));
    await new Promise((r) => setTimeout(r, 100));
    const pid = workerPid(p);
    p.suspend();
    await new Promise((r) => setTimeout(r, 100));
    expect(processState(pid), 'stopped').to.equal('T');
    await new Promise((r) => setTimeout(r, 1900));
    expect(processState(pid)).to.equal('T');
    // Held, not finished nor failed while stopped: it finishes after the resume.
    expect(done, 'finished while stopped').to.equal(false);
    p.resume();
    expect((await job).value).to.equal('worked');
  });

  it('a job started while suspended waits stopped; suspensions nest (the pool goes on with the last resume)', async function () {
    const p = pool({ timeoutMs: 5000 });
    await p.ready();
    p.suspend();
    p.suspend();
    let done = false;
    const job = p.run({ op: 'cpu', ms: 50 }).then((out) => ((done = true), out));
    await new Promise((r) => setTimeout(r, 400));
    expect(done).to.equal(false);
    expect(processState(workerPid(p))).to.equal('T');
    p.resume();
    await new Promise((r) => setTimeout(r, 400));
    expect(done, 'one suspension left').to.equal(false);
    p.resume();
    expect((await job).value).to.equal('worked');
  });

  it('a stopped worker dies with its pool’s process, even one killed at once (SIGKILL: no exit handler runs)', async function () {
    const parent = spawn(
      process.execPath,
      ['--require', 'tsx/cjs', path.join(__dirname, '..', '..', 'fixtures', 'workers', 'pool-parent.ts')],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
    await new Promise((r) => setTimeout(r, 100));
    expect(processState(pid)).to.equal('T');
    parent.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    // Gone, or a zombie until its new parent reaps it: never stopped, holding its memory.
    const state = fs.existsSync(`/proc/${pid}`) ? processState(pid) : 'gone';
    if (state === 'T') process.kill(pid, 'SIGKILL'); // the failure below must not leave it behind
    expect(state).to.be.oneOf(['gone', 'Z']);
  });

  it('a stopped worker is killed all the same: cancelled, past its deadline on resume, or closed', async function () {
    const p = pool({ timeoutMs: 300 });
    await p.ready();
    const controller = new AbortController();
    const cancelled = failure(p.run({ op: 'cpu', ms: 60_000 }, { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 100));
    p.suspend();
    const pid = workerPid(p);
    controller.abort(new Error('client gone'));
    expect((await cancelled).message).to.equal('client gone');
    for (let i = 0; i < 200 && fs.existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(`/proc/${pid}`), 'the stopped process is gone').to.equal(false);
    p.resume();
    // Run 200 ms of its 300 ms deadline, then held far longer: once resumed, it fails with the time it had left. In
    // order (timers run in the order they are due, however busy the machine): not while held, and before a timer of
    // the whole deadline started at the resume (a deadline started again would come after it).
    await p.run({ op: 'echo', value: 'replacement loaded' });
    let failed = false;
    const late = failure(p.run({ op: 'cpu', ms: 60_000 })).then((err) => ((failed = true), err));
    await new Promise((r) => setTimeout(r, 200));
    p.suspend();
    await new Promise((r) => setTimeout(r, 600));
    expect(failed, 'failed while held').to.equal(false);
    p.resume();
    const first = await Promise.race([late, new Promise<string>((r) => setTimeout(() => r('the whole deadline'), 300))]);
    expect(first, 'failed with the time it had left').to.be.instanceOf(WorkerDeadlineError);
    p.suspend();
    const last = failure(p.run({ op: 'cpu', ms: 60_000 }));
    await new Promise((r) => setTimeout(r, 200));
    const stopped = workerPid(p);
    await p.close();
    expect(((await last) as WorkerPoolError).reason).to.equal('closed');
    expect(fs.existsSync(`/proc/${stopped}`)).to.equal(false);
  });
});
