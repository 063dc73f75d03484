// Bodies whose shape costs the service: long lists and deep JSON, against the real service on a local port. A long
// list is refused before its entries are validated (a security review found 50,000 one-letter line items holding the
// event loop 28 s, an error per entry, /healthz waiting as long); JSON may nest as deep as docs/api.md says and no
// deeper (the code allowed 32 levels where the docs said 64).
import { expect } from 'chai';
import { isPdf } from '../helpers/pdf';
import { post, sharedService, type TestService } from '../helpers/service';

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
      it(`${label}: a 400 naming ${field} by its bound alone, no entry validated, /healthz answering`, async function () {
        const started = performance.now();
        const [res, health] = await Promise.all([
          post(service, body, { headers: { 'content-type': contentType } }),
          fetch(`${service.url}/healthz`),
        ]);
        const json = (await res.json()) as { code: string; details: { field: string; message: string }[] };
        console.log(`      ${label}: ${res.status} in ${(performance.now() - started).toFixed(0)} ms, ${json.details.length} details`);
        expect(res.status).to.equal(400);
        expect(json.code).to.equal('validation_failed');
        expect(json.details.map((d) => d.field)).to.include(field);
        // Refused before its entries were validated: every detail is a bound (a list's length, the values a body
        // holds; nothing said of any entry), where validating them gave an error per entry (the security review's 28 s).
        const bound = / must have at most \d+ .*\(it has \d+\)$| holds (\d+|too many) values; a document may hold at most \d+ in all$/;
        for (const d of json.details) expect(d.message, d.field).to.match(bound);
        expect(health.status).to.equal(200);
      });
    }

    it('1,000 bad line items (within the bound) are described in at most 100 details', async function () {
      const items = Array(1000).fill({ name: {}, quantity: 'x', unit_cost: [], tax: 'y', tax_category: 'ZZ' });
      const result = await post(service, { from: 'A', to: 'B', items });
      const json = (await result.json()) as { details: unknown[] };
      expect(result.status).to.equal(400);
      expect(json.details).to.have.length(100);
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
