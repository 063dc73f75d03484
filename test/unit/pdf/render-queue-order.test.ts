// The render queue's bounds and order (server/pdf/render-queue.ts): at most `concurrency` renders at once, waiters
// served first come first served, a full line refused at once with renderer_busy and the seconds to wait, a waiter
// leaving at its deadline (render_timeout) or when its client goes away (client_closed_request) without taking a
// place, and a closing queue waking every waiter with a 503. The Retry-After arithmetic is render-queue.test.ts's.
import { expect } from 'chai';
import fc from 'fast-check';
import { DomainError } from '../../../server/errors';
import { RenderQueue } from '../../../server/pdf/render-queue';

const FAR = Date.now() + 3_600_000;
const tick = () => new Promise((resolve) => setImmediate(resolve));

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  return promise.then(
    () => {
      throw new Error('the queue gave a place');
    },
    (err: unknown) => {
      expect(err).to.be.instanceOf(DomainError);
      return err as DomainError;
    },
  );
}

describe('RenderQueue bounds and order', function () {
  it('serves waiters in the order they came, each when a place is freed, never more than `concurrency` at once', async function () {
    const queue = new RenderQueue(2, 10);
    const order: number[] = [];
    const releases = [await queue.acquire(FAR), await queue.acquire(FAR)];
    const waiting = [0, 1, 2, 3].map((i) =>
      queue.acquire(FAR).then((release) => {
        order.push(i);
        return release;
      }),
    );
    await tick();
    expect([queue.running, queue.waiting, order]).to.deep.equal([2, 4, []]);
    releases[0]!();
    await tick();
    expect([queue.running, queue.waiting, order]).to.deep.equal([2, 3, [0]]);
    releases[1]!();
    (await waiting[0]!)();
    await tick();
    expect(order).to.deep.equal([0, 1, 2]);
    expect(queue.running).to.equal(2);
    for (const w of waiting.slice(1)) (await w)();
    expect(order).to.deep.equal([0, 1, 2, 3]);
    expect([queue.running, queue.waiting]).to.deep.equal([0, 0]);
  });

  it('a newcomer does not pass a waiter: a place freed goes to the waiter, and one that comes in the same tick waits', async function () {
    const queue = new RenderQueue(1, 10);
    const first = await queue.acquire(FAR);
    const order: string[] = [];
    const waiter = queue.acquire(FAR).then((release) => (order.push('waiter'), release));
    first();
    const newcomer = queue.acquire(FAR).then((release) => (order.push('newcomer'), release));
    const releaseWaiter = await waiter;
    expect(queue.running, 'never more than one render at once').to.equal(1);
    expect(queue.waiting).to.equal(1);
    releaseWaiter();
    (await newcomer)();
    expect(order).to.deep.equal(['waiter', 'newcomer']);
    expect(queue.running).to.equal(0);
  });

  it('a full line: renderer_busy at once, with the seconds to wait, and nothing taken', async function () {
    const queue = new RenderQueue(1, 2);
    await queue.acquire(FAR);
    const waiting = [queue.acquire(FAR), queue.acquire(FAR)];
    // At once: refused before the loop's next pass (an immediate), not after any wait.
    const answer = await Promise.race([
      failure(queue.acquire(FAR)),
      new Promise<'a later pass'>((resolve) => setImmediate(() => resolve('a later pass'))),
    ]);
    expect(answer, 'refused before the next pass of the loop').to.not.equal('a later pass');
    const busy = answer as DomainError;
    expect(busy.code).to.equal('renderer_busy');
    expect(busy.facts.retryAfterSeconds).to.be.a('number').and.to.be.at.least(1);
    expect([queue.running, queue.waiting]).to.deep.equal([1, 2]);
    queue.close();
    await Promise.allSettled(waiting);
  });

  it('a waiter leaves at its deadline with render_timeout and its place in line goes to the next', async function () {
    const queue = new RenderQueue(1, 4);
    const held = await queue.acquire(FAR);
    // Not before its deadline: a timer due before it fires first (timers run in the order they are due, however
    // busy the machine), and the waiter is still in line then.
    let left = false;
    const early = failure(queue.acquire(Date.now() + 80)).then((err) => ((left = true), err));
    const later = queue.acquire(FAR);
    const inLineBefore = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!left && queue.waiting === 2), 40));
    expect(inLineBefore, 'still in line before its deadline').to.equal(true);
    const timedOut = await early;
    expect(timedOut.code).to.equal('render_timeout');
    expect(queue.waiting).to.equal(1);
    held();
    (await later)();
    expect(queue.running).to.equal(0);
    // A deadline already past: still a wait that ends at once, not a place.
    const again = await queue.acquire(FAR);
    expect((await failure(queue.acquire(Date.now() - 1000))).code).to.equal('render_timeout');
    again();
  });

  it('a waiter whose client goes away leaves with client_closed_request; the render after it is not held up', async function () {
    const queue = new RenderQueue(1, 4);
    const held = await queue.acquire(FAR);
    const controller = new AbortController();
    const gone = failure(queue.acquire(FAR, controller.signal));
    const next = queue.acquire(FAR);
    controller.abort();
    expect((await gone).code).to.equal('client_closed_request');
    expect(queue.waiting).to.equal(1);
    held();
    (await next)();
    expect([queue.running, queue.waiting]).to.deep.equal([0, 0]);
  });

  it('closing wakes every waiter with renderer_busy; renders already running keep their place', async function () {
    const queue = new RenderQueue(1, 4);
    const held = await queue.acquire(FAR);
    const waiting = [failure(queue.acquire(FAR)), failure(queue.acquire(FAR))];
    queue.close();
    for (const w of waiting) expect((await w).code).to.equal('renderer_busy');
    expect(queue.running).to.equal(1);
    held();
    expect(queue.running).to.equal(0);
  });

  it('any sequence of takes and releases: never more running than places nor waiting than the line, served in order', async function () {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
        async (places, line, steps) => {
          const queue = new RenderQueue(places, line);
          const held: (() => void)[] = [];
          const asked: number[] = [];
          const served: number[] = [];
          let refused = 0;
          const pending: Promise<unknown>[] = [];
          for (const [n, take] of steps.entries()) {
            if (take) {
              const full = queue.waiting >= line && queue.running + queue.waiting >= places;
              asked.push(n);
              pending.push(
                queue.acquire(FAR).then(
                  (release) => (served.push(n), held.push(release)),
                  (err: DomainError) => {
                    expect(err.code).to.equal('renderer_busy');
                    expect(full, 'refused only when the line was full').to.equal(true);
                    refused++;
                    asked.splice(asked.indexOf(n), 1);
                  },
                ),
              );
            } else held.shift()?.();
            await tick();
            expect(queue.running).to.be.at.most(places);
            expect(queue.waiting).to.be.at.most(line);
          }
          while (held.length > 0 || queue.waiting > 0) {
            held.shift()?.();
            await tick();
          }
          await Promise.all(pending);
          expect(served, 'first come, first served').to.deep.equal(asked);
          expect(served.length + refused).to.equal(steps.filter(Boolean).length);
        },
      ),
      { seed: 29, numRuns: 200 },
    );
  });
});
