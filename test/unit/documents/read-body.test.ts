// Big forms read by qs in a worker thread (on the event loop, a form at the field bound held it 40-160 ms): the same
// object and the same refusals as on the loop, while the loop keeps ticking.
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { parseBody } from '../../../server/documents/parse-body';
import { readBody } from '../../../server/documents/read-body';

const FORM = 'form';
const LIMITS = { maxItems: 1000, maxValues: 12450 };
const bigForm = (items: number) =>
  Buffer.from(
    `from=A&to=B&${Array.from({ length: items }, (_, i) => `items[${i}][name]=N${i}&items[${i}][quantity]=${i}&items[${i}][unit_cost]=1.5`).join('&')}`,
  );

/** The longest gap (ms) between ticks of a 1 ms timer while `fn` runs. */
async function longestGap(fn: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let gap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  try {
    await fn();
    // The tick after a block is what measures it.
    await new Promise((r) => setTimeout(r, 5));
  } finally {
    clearInterval(timer);
  }
  return gap;
}

describe('reading a body (big forms in a worker thread)', function () {
  this.timeout(30000);

  it('reads a big form in the worker as qs reads it on the loop', async function () {
    const raw = bigForm(1000);
    expect(await readBody(FORM, raw, LIMITS)).to.deep.equal(parseBody('form', raw, LIMITS));
    const small = Buffer.from('from=A&to=B&items[0][name]=x&__proto__[x]=1');
    expect(await readBody(FORM, small, LIMITS)).to.deep.equal({ from: 'A', to: 'B', items: [{ name: 'x' }] });
  });

  it('refuses what parseBody refuses, before the worker sees it', async function () {
    const tooMany = Buffer.from(Array(13000).fill('items[]=x').join('&'));
    const err = await readBody(FORM, tooMany, LIMITS).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).facts.details?.[0]?.field).to.equal('items');
  });

  it('refuses a big form whose percent escapes are not UTF-8 in the worker as on the loop: a 400 on (body), no defect', async function () {
    const raw = Buffer.concat([bigForm(1000), Buffer.from('&notes=A%FF')]);
    const err = await readBody(FORM, raw, LIMITS).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).code).to.equal('validation_failed');
    expect((err as DomainError).facts.details).to.deep.equal([
      { field: '(body)', message: 'the body must be UTF-8: the form value "A%FF" has percent escapes that are not UTF-8' },
    ]);
  });

  it('keeps the event loop ticking through a form at the bound (qs on the loop holds it)', async function () {
    const raw = bigForm(4000);
    await readBody(FORM, raw, LIMITS); // the worker started
    const onLoop = await longestGap(async () => parseBody('form', raw, LIMITS));
    const inWorker = await longestGap(() => readBody(FORM, raw, LIMITS));
    console.log(`      12,002 fields: the loop held ${onLoop.toFixed(0)} ms by qs on it, ${inWorker.toFixed(0)} ms with qs in the worker`);
    expect(inWorker).to.be.lessThan(onLoop);
    expect(inWorker).to.be.lessThan(40);
  });
});
