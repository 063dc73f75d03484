// Malformed requests: each gets the right 4xx and a JSON error that names the problem; none gets a 500.
import { expect } from 'chai';
import { post, sharedService, type TestService } from '../helpers/service';

const OK = { from: 'Acme Ltd', to: 'Client Co', items: [{ name: 'Widget', quantity: 1, unit_cost: 10 }] };
const withDoc = (extra: Record<string, unknown>) => ({ ...OK, ...extra });
const withItem = (item: Record<string, unknown>) => ({ ...OK, items: [item] });

interface Case {
  name: string;
  body?: unknown;
  raw?: { data: string | Buffer; contentType?: string };
  path?: string;
  method?: string;
  key?: string | null;
  headers?: Record<string, string>;
  status: number;
  /** Words the error (error + message) must contain. */
  mentions: string[];
  /** A field the `details` list must name. */
  field?: string;
}

const cases: Case[] = [
  { name: 'broken JSON', raw: { data: '{"from": "A",', contentType: 'application/json' }, status: 400, mentions: ['malformed JSON'] },
  { name: 'JSON array body', raw: { data: '[1,2]', contentType: 'application/json' }, status: 400, mentions: ['JSON object'] },
  { name: 'JSON string body', raw: { data: '"invoice"', contentType: 'application/json' }, status: 400, mentions: ['JSON object'] },
  { name: 'JSON null body', raw: { data: 'null', contentType: 'application/json' }, status: 400, mentions: ['JSON object'] },
  { name: 'empty body', raw: { data: '', contentType: 'application/json' }, status: 400, mentions: ['empty'] },
  { name: 'white-space body', raw: { data: '  \n ', contentType: 'application/json' }, status: 400, mentions: ['empty'] },
  {
    name: 'unsupported content type',
    raw: { data: 'from=A', contentType: 'text/plain' },
    status: 415,
    mentions: ['text/plain', 'application/json'],
  },
  {
    name: 'multipart body',
    raw: { data: '--x\r\n\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
    status: 415,
    mentions: ['multipart/form-data'],
  },
  { name: 'no content type', raw: { data: Buffer.from('{"from":"A"}') }, status: 415, mentions: ['Content-Type'] },
  {
    name: '2 MiB body',
    raw: { data: JSON.stringify(withDoc({ notes: 'x'.repeat(2 * 1024 * 1024) })), contentType: 'application/json' },
    status: 413,
    mentions: ['larger than', '1048576'],
  },
  { name: 'missing from', body: { to: 'B', items: OK.items }, status: 400, mentions: ['from'], field: 'from' },
  { name: 'missing to', body: { from: 'A', items: OK.items }, status: 400, mentions: ['to is required'], field: 'to' },
  { name: 'empty from', body: withDoc({ from: '' }), status: 400, mentions: ['from'], field: 'from' },
  { name: 'blank from', body: withDoc({ from: '   ' }), status: 400, mentions: ['from must not be empty'], field: 'from' },
  { name: 'from is an object', body: withDoc({ from: { name: 'A' } }), status: 400, mentions: ['from must be text'], field: 'from' },
  { name: 'no items', body: { from: 'A', to: 'B' }, status: 400, mentions: ['items'], field: 'items' },
  { name: 'empty items', body: withDoc({ items: [] }), status: 400, mentions: ['at least one line item'], field: 'items' },
  { name: 'items is a string', body: withDoc({ items: 'Widget' }), status: 400, mentions: ['items must be a list'], field: 'items' },
  {
    name: 'item without a name',
    body: withItem({ quantity: 1, unit_cost: 5 }),
    status: 400,
    mentions: ['items[0].name'],
    field: 'items[0].name',
  },
  { name: 'empty item name', body: withItem({ name: '', unit_cost: 5 }), status: 400, mentions: ['items[0].name'], field: 'items[0].name' },
  {
    name: 'quantity not a number',
    body: withItem({ name: 'W', quantity: 'three' }),
    status: 400,
    mentions: ['items[0].quantity must be a number'],
    field: 'items[0].quantity',
  },
  {
    name: 'unit_cost is a list',
    body: withItem({ name: 'W', unit_cost: [1] }),
    status: 400,
    mentions: ['items[0].unit_cost must be a number'],
    field: 'items[0].unit_cost',
  },
  { name: 'tax not a number', body: withDoc({ tax: 'abc' }), status: 400, mentions: ['tax must be a number'], field: 'tax' },
  { name: 'negative tax', body: withDoc({ tax: -5 }), status: 400, mentions: ['tax must not be negative'], field: 'tax' },
  {
    name: 'negative discounts',
    body: withDoc({ discounts: -1, fields: { discounts: true } }),
    status: 400,
    mentions: ['discounts'],
    field: 'discounts',
  },
  { name: 'negative shipping', body: withDoc({ shipping: '-2' }), status: 400, mentions: ['shipping'], field: 'shipping' },
  { name: 'negative amount_paid', body: withDoc({ amount_paid: -10 }), status: 400, mentions: ['amount_paid'], field: 'amount_paid' },
  {
    name: 'percent discount over 100',
    body: withDoc({ discounts: 150, fields: { discounts: '%' } }),
    status: 400,
    mentions: ['discounts', '100'],
    field: 'discounts',
  },
  {
    name: 'tax beyond 10^12',
    body: withDoc({ tax: 1e13, fields: { tax: true } }),
    status: 400,
    mentions: ['tax must be at most'],
    field: 'tax',
  },
  {
    name: 'infinite quantity',
    body: withItem({ name: 'W', quantity: 'Infinity' }),
    status: 400,
    mentions: ['items[0].quantity'],
    field: 'items[0].quantity',
  },
  {
    name: '1,001 items',
    body: withDoc({ items: Array.from({ length: 1001 }, () => ({ name: 'W' })) }),
    status: 400,
    mentions: ['at most 1000 line items'],
    field: 'items',
  },
  {
    name: '51 custom fields',
    body: withDoc({ custom_fields: Array.from({ length: 51 }, (_, i) => ({ name: `F${i}`, value: 'v' })) }),
    status: 400,
    mentions: ['custom_fields'],
    field: 'custom_fields',
  },
  {
    name: 'notes over 10,000 characters',
    body: withDoc({ notes: 'n'.repeat(10001) }),
    status: 400,
    mentions: ['notes must be at most 10000 characters'],
    field: 'notes',
  },
  {
    name: 'from over 2,000 characters',
    body: withDoc({ from: 'f'.repeat(2001) }),
    status: 400,
    mentions: ['from must be at most 2000'],
    field: 'from',
  },
  { name: 'unknown currency', body: withDoc({ currency: 'XYZ' }), status: 400, mentions: ['currency', 'ISO 4217'], field: 'currency' },
  { name: 'two-letter currency', body: withDoc({ currency: 'US' }), status: 400, mentions: ['currency'], field: 'currency' },
  { name: 'unknown theme', body: withDoc({ theme: 'neon' }), status: 400, mentions: ['theme must be one of', 'classic'], field: 'theme' },
  { name: 'unknown page size', body: withDoc({ page_size: 'legal' }), status: 400, mentions: ['page_size', 'a4'], field: 'page_size' },
  { name: 'bad fields.tax', body: withDoc({ fields: { tax: 'yes' } }), status: 400, mentions: ['fields.tax'], field: 'fields.tax' },
  { name: 'unknown type', body: withDoc({ type: 'bogus' }), status: 400, mentions: ['type must be one of', 'invoice'], field: 'type' },
  {
    name: 'credit_note with payment_terms',
    body: withDoc({ type: 'credit_note', payment_terms: 'NET 30' }),
    status: 400,
    mentions: ['payment_terms is not accepted for type credit_note'],
    field: 'payment_terms',
  },
  {
    name: 'packing_slip with tax',
    body: withDoc({ type: 'packing_slip', tax: 5 }),
    status: 400,
    mentions: ['tax is not accepted for type packing_slip'],
    field: 'tax',
  },
  {
    name: 'purchase_order with purchase_order',
    body: withDoc({ type: 'purchase_order', purchase_order: 'PO-1' }),
    status: 400,
    mentions: ['purchase_order is not accepted for type purchase_order'],
    field: 'purchase_order',
  },
  {
    name: 'custom field without value',
    body: withDoc({ custom_fields: [{ name: 'Account' }] }),
    status: 400,
    mentions: ['custom_fields[0].value'],
    field: 'custom_fields[0].value',
  },
  {
    name: 'logo is an object',
    body: withDoc({ logo: { url: 'https://example.com/logo.png' } }),
    status: 400,
    mentions: ['logo must be text'],
    field: 'logo',
  },
  {
    name: 'payment method of type card',
    body: withDoc({ payment_methods: [{ type: 'card', name: 'Visa', url: 'https://pay.example' }] }),
    status: 400,
    mentions: ['payment_methods[0].type'],
    field: 'payment_methods[0].type',
  },
  {
    name: 'statement line with nothing to show',
    body: withDoc({ type: 'statement', items: [{ quantity: 1, unit_cost: 3 }] }),
    status: 400,
    mentions: ['items[0]', 'a name, a description or a reference'],
    field: 'items[0]',
  },
  { name: 'date is an object', body: withDoc({ date: { y: 2024 } }), status: 400, mentions: ['date must be text'], field: 'date' },
  {
    name: 'form: quantity not a number',
    raw: { data: 'from=A&to=B&items[0][name]=W&items[0][quantity]=abc' },
    status: 400,
    mentions: ['items[0].quantity must be a number'],
    field: 'items[0].quantity',
  },
  { name: 'form: missing to', raw: { data: 'from=A&items[0][name]=W' }, status: 400, mentions: ['to is required'], field: 'to' },
  {
    name: 'form: tax not a number',
    raw: { data: 'from=A&to=B&items[0][name]=W&tax=eight' },
    status: 400,
    mentions: ['tax must be a number'],
    field: 'tax',
  },
  {
    name: 'unknown key with a bad body',
    body: { nothing: true },
    key: 'sk_00000000000000000000000000000000',
    status: 401,
    mentions: ['invalid_api_key'],
  },
  { name: 'Basic authorization', body: OK, headers: { authorization: 'Basic dXNlcjpwYXNz' }, status: 401, mentions: ['invalid_api_key'] },
  { name: 'GET /', method: 'GET', status: 405, mentions: ['GET is not allowed', 'POST'] },
  { name: 'PUT /ubl', method: 'PUT', path: '/ubl', body: OK, status: 405, mentions: ['PUT is not allowed'] },
  { name: 'unknown path', path: '/invoices', body: OK, status: 404, mentions: ['/invoices'] },
  { name: '/ubl for a quote', path: '/ubl', body: withDoc({ type: 'quote' }), status: 400, mentions: ['not quote'], field: 'type' },
];

describe('bad input', function () {
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  it(`has at least 30 cases (${cases.length})`, function () {
    expect(cases.length).to.be.greaterThanOrEqual(30);
  });

  for (const c of cases) {
    it(`${c.name} → ${c.status}`, async function () {
      let res: Response;
      if (c.raw) {
        const headers: Record<string, string> = { authorization: `Bearer ${service.key}` };
        if (c.raw.contentType !== undefined || typeof c.raw.data === 'string') {
          headers['content-type'] = c.raw.contentType ?? 'application/x-www-form-urlencoded';
        }
        res = await fetch(`${service.url}${c.path ?? '/'}`, {
          method: 'POST',
          headers,
          body: Buffer.isBuffer(c.raw.data) ? new Uint8Array(c.raw.data) : c.raw.data,
        });
      } else {
        const headers = { ...c.headers };
        res = await post(service, c.body, { path: c.path, method: c.method, key: c.headers?.authorization ? null : c.key, headers });
      }
      const text = await res.text();
      expect(res.status, text).to.equal(c.status);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const json = JSON.parse(text) as { error: string; message?: string; details?: { field: string; message: string }[] };
      expect(json.error).to.be.a('string').and.not.equal('');
      const said = `${json.error} ${json.message ?? ''}`;
      for (const word of c.mentions) expect(said).to.contain(word);
      if (c.field) expect((json.details ?? []).map((d) => d.field)).to.include(c.field);
      if (c.status === 405) expect(res.headers.get('allow')).to.equal('POST, OPTIONS');
      if (c.status !== 404) expect(res.headers.get('content-language'), 'errors name the locale too').to.equal('en-US');
    });
  }

  it('reports every bad field, not only the first', async function () {
    const res = await post(service, { to: '', tax: 'x', currency: 'ABC', items: [{ quantity: 'q' }] });
    const json = (await res.json()) as { error: string; details: { field: string }[] };
    expect(res.status).to.equal(400);
    expect(json.details.map((d) => d.field)).to.include.members(['from', 'to', 'tax', 'currency', 'items[0].quantity', 'items[0].name']);
    expect(json.error).to.contain('more (see details)');
  });
});
