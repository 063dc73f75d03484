// The render queue's Retry-After: the backlog ahead over the measured drain rate, with an injected clock.
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { RenderQueue } from '../../../server/pdf/render-queue';

const FAR = Date.now() + 3_600_000;

async function refusal(queue: RenderQueue): Promise<DomainError> {
  try {
    await queue.acquire(FAR);
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('the queue took one more');
}

describe('RenderQueue Retry-After', () => {
  it('before any render has ended: the default hold time (100 ms a render), at least 1 s', async () => {
    const queue = new RenderQueue(2, 64);
    expect(queue.retryAfterSeconds()).to.equal(1);
    await queue.acquire(FAR);
    await queue.acquire(FAR);
    const waiting = Array.from({ length: 64 }, () => queue.acquire(FAR));
    const err = await refusal(queue);
    expect(err.code).to.equal('renderer_busy');
    // 66 renders ahead, 2 at a time, 100 ms each: 3.3 s, rounded up (the rule before said 33).
    expect(err.facts.retryAfterSeconds).to.equal(4);
    queue.close();
    await Promise.allSettled(waiting);
  });

  it('from the measured hold times: 66 renders ahead at 40 ms on 2 pages is 2 s, at 1 s it is clamped to the maximum', async () => {
    let now = 0;
    const queue = new RenderQueue(2, 64, { maxRetryAfterSeconds: 20, now: () => now });
    for (let i = 0; i < 20; i++) {
      const release = await queue.acquire(FAR);
      now += 40;
      release();
    }
    expect(queue.drainRate).to.be.closeTo(50, 0.001);
    await queue.acquire(FAR);
    await queue.acquire(FAR);
    const waiting = Array.from({ length: 64 }, () => queue.acquire(FAR));
    expect(queue.retryAfterSeconds()).to.equal(Math.ceil(66 / 50));
    queue.close();
    await Promise.allSettled(waiting);

    // Renders that slow down to a second each: the average follows within a few dozen renders.
    const slow = new RenderQueue(1, 100, { maxRetryAfterSeconds: 20, now: () => now });
    for (let i = 0; i < 50; i++) {
      const release = await slow.acquire(FAR);
      now += i < 10 ? 40 : 1000;
      release();
    }
    expect(slow.drainRate).to.be.closeTo(1, 0.05);
    await slow.acquire(FAR);
    const queued = Array.from({ length: 30 }, () => slow.acquire(FAR));
    expect(slow.retryAfterSeconds()).to.equal(20);
    slow.close();
    await Promise.allSettled(queued);
  });

  it('a release counts once', async () => {
    let now = 0;
    const queue = new RenderQueue(1, 4, { now: () => now });
    const release = await queue.acquire(FAR);
    now += 500;
    release();
    release();
    expect(queue.running).to.equal(0);
    expect(queue.drainRate).to.equal(2);
  });
});

describe('RenderQueue busy signal (workers/print-first.ts)', () => {
  it('says busy when the first place is taken and idle when the last is freed, not while a waiter takes a place over', async () => {
    const told: boolean[] = [];
    const queue = new RenderQueue(1, 8, { onBusy: (busy) => told.push(busy) });
    const first = await queue.acquire(FAR);
    expect(told).to.deep.equal([true]);
    const waiting = queue.acquire(FAR);
    first();
    const second = await waiting;
    expect(told, 'handed over, never idle').to.deep.equal([true]);
    second();
    second();
    expect(told).to.deep.equal([true, false]);
    (await queue.acquire(FAR))();
    expect(told).to.deep.equal([true, false, true, false]);
  });
});
