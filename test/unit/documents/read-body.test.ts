// Big forms read by qs in a worker thread (on the event loop, a form at the field bound held it 40-160 ms): the same
// object and the same refusals as on the loop, while the loop keeps ticking.
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { parseBody } from '../../../server/documents/parse-body';
import { readBody } from '../../../server/documents/read-body';
import { turnsDuring } from '../../helpers/loop-turns';

const FORM = 'form';
const LIMITS = { maxItems: 1000, maxValues: 12450 };
const bigForm = (items: number) =>
  Buffer.from(
    `from=A&to=B&${Array.from({ length: items }, (_, i) => `items[${i}][name]=N${i}&items[${i}][quantity]=${i}&items[${i}][unit_cost]=1.5`).join('&')}`,
  );

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

  it('keeps the event loop turning through a form at the bound (qs on the loop holds it)', async function () {
    const raw = bigForm(4000);
    await readBody(FORM, raw, LIMITS); // the worker started
    // Passes of the loop while the form is read: none while qs reads it on the loop, many while the worker does.
    const onLoop = await turnsDuring(async () => parseBody('form', raw, LIMITS));
    const inWorker = await turnsDuring(() => readBody(FORM, raw, LIMITS));
    console.log(`      12,002 fields: ${onLoop.turns} passes of the event loop with qs on it, ${inWorker.turns} with qs in the worker`);
    expect(inWorker.result).to.deep.equal(onLoop.result);
    expect(onLoop.turns, 'qs on the loop').to.equal(0);
    expect(inWorker.turns, 'qs in the worker').to.be.at.least(100);
  });
});
