// Turns of the event loop for synchronous steps (cpu-turns.ts): at most one step per pass of the loop, in the order
// asked, and a step that fails takes nothing from the others.
import { expect } from 'chai';
import { inTurn, turnsWaiting } from '../../server/cpu-turns';

describe('turns of the event loop', function () {
  it('runs one step per pass of the loop, in order: what else the loop has to do runs between any two', async function () {
    // A pass counter: an immediate that queues itself again runs once in every pass of the loop.
    let pass = 0;
    let counting = true;
    const count = (): void => {
      pass++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const seen: { step: number; pass: number }[] = [];
    const steps = Array.from({ length: 20 }, (_, step) => inTurn(() => seen.push({ step, pass })));
    expect(turnsWaiting()).to.equal(20);
    await Promise.all(steps);
    counting = false;
    expect(seen.map((s) => s.step)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.pass, `step ${i}`).to.be.greaterThan(seen[i - 1]!.pass);
    expect(turnsWaiting()).to.equal(0);
  });

  it("a step's value and error are its caller's; the steps after a failed one run", async function () {
    const outcomes = await Promise.allSettled([
      inTurn(() => 1),
      inTurn(() => {
        throw new Error('step failed');
      }),
      inTurn(() => 3),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).to.deep.equal([1, 'step failed', 3]);
  });
});
