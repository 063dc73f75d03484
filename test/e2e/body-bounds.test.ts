// Bodies whose shape costs the service: long lists and deep JSON, against the real service on a local port. A long
// list is refused before its entries are validated (a security review found 50,000 one-letter line items holding the
// event loop 28 s, an error per entry, /healthz waiting as long); JSON may nest as deep as docs/api.md says and no
// deeper (the code allowed 32 levels where the docs said 64).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect } from 'chai';
import { isPdf } from '../helpers/pdf';
import { post, sharedService, type TestService } from '../helpers/service';

/** The event loop's longest delay (ms) while `fn` runs. The service runs in this process, so this is its loop. */
async function loopDelayDuring<T>(fn: () => Promise<T>): Promise<{ result: T; maxMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // Its timer must have started before the request, or a block from the start is never sampled.
  await new Promise((resolve) => setTimeout(resolve, 40));
  h.reset();
  try {
    const result = await fn();
    return { result, maxMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

describe('body bounds: long lists and deep JSON', function () {
  this.timeout(120000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  describe('a long list is refused before its entries are validated', function () {
    // Before: 50,000 entries took 28 s (6.9 s for 10,000 and 29 s for 20,000 on this machine under load), /healthz
    // waited as long; 30,000 form entries 63 s; 40,000 custom_fields 22 s.
    const cases: [string, string, string, string][] = [
      ['JSON items × 50,000', JSON.stringify({ from: 'A', to: 'B', items: Array(50000).fill('x') }), 'application/json', 'items'],
      [
        'JSON custom_fields × 40,000',
        JSON.stringify({ from: 'A', to: 'B', items: [{ name: 'x' }], custom_fields: Array(40000).fill({ name: 'n', value: 'v' }) }),
        'application/json',
        'custom_fields',
      ],
      [
        'JSON payment_methods × 40,000',
        JSON.stringify({ from: 'A', to: 'B', items: [{ name: 'x' }], payment_methods: Array(40000).fill('x') }),
        'application/json',
        'payment_methods',
      ],
      ['form items[]=x × 30,000', `from=A&to=B&${Array(30000).fill('items[]=x').join('&')}`, 'application/x-www-form-urlencoded', 'items'],
      [
        'form items[i][name] × 12,000',
        `from=A&to=B&${Array.from({ length: 12000 }, (_, i) => `items[${i}][name]=x`).join('&')}`,
        'application/x-www-form-urlencoded',
        'items',
      ],
    ];
    for (const [label, body, contentType, field] of cases) {
      it(`${label}: a 400 naming ${field} within 1 s, the event loop never held 100 ms, /healthz answering`, async function () {
        let health = 0;
        const { result, maxMs } = await loopDelayDuring(async () => {
          const started = performance.now();
          const [res] = await Promise.all([
            post(service, body, { headers: { 'content-type': contentType } }),
            (async () => {
              const t = performance.now();
              await fetch(`${service.url}/healthz`);
              health = performance.now() - t;
            })(),
          ]);
          return { res, ms: performance.now() - started };
        });
        const json = (await result.res.json()) as { code: string; details: { field: string }[] };
        console.log(
          `      ${label}: ${result.res.status} in ${result.ms.toFixed(0)} ms, loop max ${maxMs.toFixed(0)} ms, /healthz ${health.toFixed(0)} ms`,
        );
        expect(result.res.status).to.equal(400);
        expect(json.code).to.equal('validation_failed');
        expect(json.details.map((d) => d.field)).to.include(field);
        expect(result.ms).to.be.lessThan(1000);
        expect(maxMs).to.be.lessThan(100);
        expect(health).to.be.lessThan(500);
      });
    }

    it('1,000 bad line items (within the bound) are described in at most 100 details, in a few ms', async function () {
      const items = Array(1000).fill({ name: {}, quantity: 'x', unit_cost: [], tax: 'y', tax_category: 'ZZ' });
      const { result, maxMs } = await loopDelayDuring(() => post(service, { from: 'A', to: 'B', items }));
      const json = (await result.json()) as { details: unknown[] };
      expect(result.status).to.equal(400);
      expect(json.details).to.have.length(100);
      expect(maxMs).to.be.lessThan(100);
    });
  });

  it('JSON may nest 64 levels as docs/api.md says (the 65th is a 400)', async function () {
    const nest = (levels: number) => '['.repeat(levels - 1) + '{}' + ']'.repeat(levels - 1);
    const ok = await post(service, `{"from":"A","to":"B","items":[{"name":"x"}],"junk":${nest(63)}}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).to.equal(200);
    expect(isPdf(new Uint8Array(await ok.arrayBuffer()))).to.equal(true);
    const deep = await post(service, `{"from":"A","to":"B","items":[{"name":"x"}],"junk":${nest(64)}}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.status).to.equal(400);
    expect(((await deep.json()) as { code: string }).code).to.equal('malformed_json');
  });
});
