// PDFs first (server/workers/print-first.ts): background pools held while renders are in flight, never longer than
// maxPauseMs at a time, then run at least minRunMs. Real timers, short settings; the pools record what they are told.
import { expect } from 'chai';
import { PrintFirst, type Suspendable } from '../../../server/workers/print-first';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pool that records its suspensions as [held?, at ms]. */
function recording(): Suspendable & { held: boolean; log: [boolean, number][] } {
  const t0 = performance.now();
  const pool = {
    held: false,
    log: [] as [boolean, number][],
    suspend() {
      pool.held = true;
      pool.log.push([true, performance.now() - t0]);
    },
    resume() {
      pool.held = false;
      pool.log.push([false, performance.now() - t0]);
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
    first.setPrinting(true);
    expect([a.held, b.held]).to.deep.equal([true, true]);
    first.setPrinting(true);
    expect(a.log.length, 'told once').to.equal(1);
    await sleep(30);
    first.setPrinting(false);
    expect([a.held, b.held]).to.deep.equal([false, false]);
    expect(first.stats.holds).to.equal(1);
    expect(first.stats.heldMs).to.be.within(25, 200);
    first.close();
  });

  it('under a steady stream of PDFs: held at most maxPauseMs, then run minRunMs, again and again', async function () {
    const first = new PrintFirst({ maxPauseMs: 100, minRunMs: 50 });
    const pool = recording();
    first.add(pool);
    first.setPrinting(true);
    await sleep(480);
    first.setPrinting(false);
    const holds = pool.log.filter(([held]) => held).length;
    expect(holds).to.be.within(3, 4);
    for (let i = 1; i < pool.log.length; i++) {
      const [held, at] = pool.log[i]!;
      const span = at - pool.log[i - 1]![1];
      if (held) expect(span, `run ${i}`).to.be.at.least(45);
      else expect(span, `hold ${i}`).to.be.below(180);
    }
    expect(pool.held).to.equal(false);
    first.close();
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
