// PDFs first (server/workers/print-first.ts): background pools held while renders are in flight, never longer than
// maxPauseMs at a time, then run at least minRunMs. Real timers and short settings, or mocked timers where the order
// and length of holds is the point; the pools record what they are told.
import { mock } from 'node:test';
import { expect } from 'chai';
import { PrintFirst, type Suspendable } from '../../../server/workers/print-first';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pool that records its suspensions as [held?, at ms] (by `now`: the clock, or a mocked one). */
function recording(now: () => number = () => performance.now()): Suspendable & { held: boolean; log: [boolean, number][] } {
  const t0 = now();
  const pool = {
    held: false,
    log: [] as [boolean, number][],
    suspend() {
      pool.held = true;
      pool.log.push([true, now() - t0]);
    },
    resume() {
      pool.held = false;
      pool.log.push([false, now() - t0]);
    },
  };
  return pool;
}

describe('PDFs first: background pools held while PDFs print', function () {
  it('holds every pool while renders are in flight and lets them go when the last ends', async function () {
    const first = new PrintFirst({ maxPauseMs: 10_000, minRunMs: 50 });
    const a = recording();
    const b = recording();
    first.add(a);
    first.add(b);
    const outer = performance.now();
    first.setPrinting(true);
    expect([a.held, b.held]).to.deep.equal([true, true]);
    first.setPrinting(true);
    expect(a.log.length, 'told once').to.equal(1);
    await sleep(30);
    first.setPrinting(false);
    const outerMs = performance.now() - outer;
    expect([a.held, b.held]).to.deep.equal([false, false]);
    expect(first.stats.holds).to.equal(1);
    // The hold counted is the time between the two calls: at least the 30 ms slept (a timer never fires early), at
    // most what this test measured around them (however long a loaded machine made that).
    expect(first.stats.heldMs).to.be.at.least(29).and.at.most(outerMs);
    first.close();
  });

  it('under a steady stream of PDFs: held at most maxPauseMs, then run minRunMs, again and again', function () {
    // On mocked timers and clock (node:test's MockTimers): 480 ms of a steady stream, exactly, however busy the machine.
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
    try {
      const first = new PrintFirst({ maxPauseMs: 100, minRunMs: 50 });
      const pool = recording(() => Date.now());
      first.add(pool);
      first.setPrinting(true);
      for (let ms = 0; ms < 480; ms += 10) mock.timers.tick(10);
      first.setPrinting(false);
      // Held 100 ms, run 50 ms, from 0 ms: holds at 0, 150, 300 and 450, the last ended when the stream stops.
      expect(pool.log).to.deep.equal([
        [true, 0],
        [false, 100],
        [true, 150],
        [false, 250],
        [true, 300],
        [false, 400],
        [true, 450],
        [false, 480],
      ]);
      expect(pool.held).to.equal(false);
      first.close();
    } finally {
      mock.timers.reset();
    }
  });

  it('a pool added while PDFs print is held at once; a pool removed is let go; close() lets every pool go', function () {
    const first = new PrintFirst({ maxPauseMs: 10_000 });
    first.setPrinting(true);
    const late = recording();
    const remove = first.add(late);
    expect(late.held).to.equal(true);
    remove();
    expect(late.held).to.equal(false);
    const other = recording();
    first.add(other);
    expect(other.held).to.equal(true);
    first.close();
    expect(other.held).to.equal(false);
  });

  it('holds nothing when no pool is added, and nothing before a render starts', function () {
    const first = new PrintFirst();
    first.setPrinting(true);
    first.setPrinting(false);
    expect(first.stats.holds).to.equal(0);
    const pool = recording();
    first.add(pool);
    expect(pool.log).to.deep.equal([]);
    first.close();
  });
});

describe('PDFs first switched off (RULES_HOLD_MS=0)', function () {
  it('holds no pool', function () {
    const first = new PrintFirst({ maxPauseMs: 0 });
    const pool = recording();
    first.add(pool);
    first.setPrinting(true);
    expect(pool.log).to.deep.equal([]);
    first.close();
  });
});
