// HEAP_GROWTH_PERCENT (server/main.ts): the service sets V8's heap growing factor from it, seen in V8's own trace of
// each full collection ("[HeapController] factor F"): 2.0 for the default 100 once the service has set it, and V8's
// own factors only with 0. Real service process, V8's real trace.
import { expect } from 'chai';
import { startChildService } from '../helpers/child-service';

/** The growing factors V8 chose at the full collections the process made while starting and serving one PDF. */
async function factors(env: Record<string, string>): Promise<string[]> {
  const service = await startChildService({ RECEIVED_EINVOICES: 'false', ...env }, ['--trace-gc', '--trace-gc-verbose']);
  try {
    const res = await fetch(`${service.url}/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ from: 'Heap Co', to: 'Client', items: [{ name: 'Widget', quantity: 1, unit_cost: 5 }] }),
    });
    expect(res.status).to.equal(200);
    // The full collections after the flag is set: those of the start-up (the data files, the browser), at least one.
    const ready = service.output().indexOf('"msg":"ready"');
    return [
      ...service
        .output()
        .slice(0, ready)
        .matchAll(/\[HeapController\] factor ([\d.]+)/g),
    ].map((m) => m[1]!);
  } finally {
    await service.stop();
  }
}

describe('HEAP_GROWTH_PERCENT', function () {
  this.timeout(120000);

  it("sets V8's growing factor (the default 100: twice the kept heap); 0 leaves V8's own", async () => {
    const set = await factors({});
    expect(set, 'the factors with the default').to.include('2.0');
    const own = await factors({ HEAP_GROWTH_PERCENT: '0' });
    expect(own.length, 'full collections at start-up').to.be.at.least(1);
    expect(own, "V8's own factors").not.to.include('2.0');
  });
});
