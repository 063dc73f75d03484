// Property-based fuzzing (fast-check) of the request surface: at least 5,000 malformed and mutated JSON and form
// bodies and hostile headers against the real service. Every answer must be a 4xx JSON error: no 5xx, no hang, no
// crash; afterwards the service still renders.
import { expect } from 'chai';
import fc from 'fast-check';
import { sharedService, type TestService } from '../helpers/service';

const VALID = {
  from: 'Nikolaus Ltd\nVAT ID: BE0123456749',
  to: 'Acme',
  number: 7,
  currency: 'EUR',
  items: [{ name: 'Starter', quantity: 1, unit_cost: 99, description: 'x' }],
  fields: { tax: '%' },
  tax: 8,
  custom_fields: [{ name: 'PO', value: '1' }],
};

/** Values that make any required field invalid. */
const badValue = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  fc.constant('   '),
  fc.constant([]),
  fc.constant({}),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.anything(), { maxKeys: 3 }),
);
const badItems = fc.oneof(
  badValue,
  fc.constant([]),
  fc.array(fc.record({ name: badValue, quantity: fc.anything(), unit_cost: fc.anything() }), { minLength: 1, maxLength: 3 }),
  fc
    .array(fc.anything(), { minLength: 1, maxLength: 3 })
    .filter((a) => a.some((x) => typeof x !== 'object' || x === null || Array.isArray(x))),
);

/** A valid document with random extra mutations and at least one that breaks it. */
const brokenDocument = fc
  .tuple(
    fc.constantFrom('from', 'to', 'items'),
    badValue,
    badItems,
    fc.dictionary(
      fc.constantFrom(
        'tax',
        'discounts',
        'shipping',
        'currency',
        'fields',
        'type',
        'theme',
        'page_size',
        'logo',
        'date',
        'notes',
        'e_invoice',
        'custom_fields',
        'amount_paid',
        'number',
        '__proto__',
        'constructor',
      ),
      fc.anything(),
      { maxKeys: 4 },
    ),
  )
  .map(([field, bad, items, extra]) => {
    const doc: Record<string, unknown> = { ...structuredClone(VALID), ...extra };
    if (field === 'items') doc.items = items;
    else doc[field] = bad;
    return doc;
  })
  .filter((doc) => {
    // Keep only documents that really are broken in a required field (the mutations above almost always are).
    // Numbers and booleans are text once coerced (clients send `to: 12345`), so they count as present.
    const ok = (v: unknown) =>
      (typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';
    const items = doc.items;
    const itemsOk =
      Array.isArray(items) &&
      items.length > 0 &&
      items.every((i) => i && typeof i === 'object' && !Array.isArray(i) && ok((i as { name?: unknown }).name));
    return !(ok(doc.from) && ok(doc.to) && itemsOk);
  });

const formText = fc.stringMatching(/^[a-z_[\]0-9=&%+ .\-A-Z]{0,120}$/);
const brokenForm = fc.tuple(fc.constantFrom('from', 'to', 'items[0][name]'), formText).map(([drop, noise]) => {
  const params = ['from=A', 'to=B', 'items[0][name]=W', 'items[0][quantity]=1', 'items[0][unit_cost]=2', 'tax=8'].filter(
    (p) => !p.startsWith(`${drop}=`),
  );
  return `${params.join('&')}&${noise}`.replace(new RegExp(`(^|&)${drop.replace(/[[\]]/g, '\\$&')}=[^&]*`, 'g'), '');
});

const latin1 = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 200 });

interface Sent {
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
}

async function send(service: TestService, s: Sent): Promise<{ status: number; json: boolean; error: boolean }> {
  const headers: Record<string, string> = { authorization: `Bearer ${service.key}`, ...(s.headers ?? {}) };
  if (s.contentType !== undefined) headers['content-type'] = s.contentType;
  const res = await fetch(`${service.url}/`, { method: 'POST', headers, body: s.body });
  const text = await res.text();
  let error = false;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    error = typeof parsed.error === 'string' || typeof parsed.message === 'string';
  } catch {
    /* not JSON */
  }
  return { status: res.status, json: (res.headers.get('content-type') ?? '').startsWith('application/json'), error };
}

describe('fuzzing the request surface', function () {
  this.timeout(180000);
  let service: TestService;
  let total = 0;
  const statuses = new Map<number, number>();
  before(async function () {
    service = await sharedService();
  });
  after(function () {
    console.log(
      `      fuzz: ${total} requests; statuses ${[...statuses]
        .sort()
        .map(([s, n]) => `${s}×${n}`)
        .join(', ')}`,
    );
  });

  const check = async (s: Sent) => {
    const r = await send(service, s);
    total++;
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(r.status, JSON.stringify(s).slice(0, 300)).to.be.within(400, 499);
    expect(r.json && r.error, `JSON error for ${JSON.stringify(s).slice(0, 200)}`).to.equal(true);
  };
  const params = (numRuns: number) => ({ numRuns, seed: 20261122, endOnFailure: true });

  it('broken documents as JSON (1,500)', async function () {
    await fc.assert(
      fc.asyncProperty(brokenDocument, (doc) => check({ body: JSON.stringify(doc), contentType: 'application/json' })),
      params(1500),
    );
  });

  it('arbitrary JSON values and malformed JSON text (1,200)', async function () {
    const arbitrary = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1)),
    );
    await fc.assert(
      fc.asyncProperty(arbitrary, (body) => check({ body, contentType: 'application/json' })),
      params(1200),
    );
  });

  it('broken and random form bodies (1,300)', async function () {
    await fc.assert(
      fc.asyncProperty(fc.oneof(brokenForm, formText), (body) => check({ body, contentType: 'application/x-www-form-urlencoded' })),
      params(1300),
    );
  });

  it('hostile headers (1,000)', async function () {
    const hostile = fc.record({
      contentType: fc.oneof(
        latin1,
        fc.constantFrom(
          'application/json; charset=utf-16',
          'application/json; charset=x-unknown',
          'text/html',
          'application/xml',
          '*/*',
          'multipart/form-data',
          '',
        ),
      ),
      acceptLanguage: latin1,
      // Half carry the valid key, so that the other hostile headers reach the body handling.
      authorization: fc.oneof(
        fc.constant('VALID'),
        fc.oneof(latin1, fc.constantFrom('Bearer', 'Bearer ', 'Basic x', `Bearer sk_${'a'.repeat(32)}`, `bearer   sk_${'b'.repeat(500)}`)),
      ),
      contentEncoding: fc.constantFrom(undefined, 'gzip', 'deflate', 'br', 'identity', 'x-unknown'),
      requestId: latin1,
      body: fc.oneof(fc.constant(JSON.stringify({ from: 'A', to: 'B', items: [] })), latin1),
    });
    await fc.assert(
      fc.asyncProperty(hostile, (h) =>
        check({
          body: h.body,
          contentType: h.contentType,
          headers: {
            authorization: h.authorization === 'VALID' ? `Bearer ${service.key}` : h.authorization,
            'accept-language': h.acceptLanguage,
            'x-request-id': h.requestId,
            ...(h.contentEncoding ? { 'content-encoding': h.contentEncoding } : {}),
          },
        }),
      ),
      params(1000),
    );
  });

  it('at least 5,000 requests were sent, and the service still renders', async function () {
    expect(total).to.be.greaterThanOrEqual(5000);
    expect((await fetch(`${service.url}/healthz`)).status).to.equal(200);
    const res = await fetch(`${service.url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(VALID),
    });
    expect(res.status).to.equal(200);
  });
});
