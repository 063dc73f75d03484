// Operations: health, readiness with pool state, Prometheus metrics, the OpenAPI description built from schemas/
// (the published examples validate against it; form bodies, statuses, servers), the /docs page and its CSP, helmet
// headers, and JSON logs with ids but no field values.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import pino from 'pino';
import qs from 'qs';
import { projectRoot } from '../../server/config';
import { DOCUMENT_TYPES } from '../../server/documents/model';
import { accountLogId } from '../../server/http/app';
import { loadExamples } from '../helpers/examples';
import { post, sharedService, startTestService } from '../helpers/service';

describe('operations endpoints', function () {
  it('/healthz and /readyz (with the pool state) need no key', async function () {
    const service = await sharedService();
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.equal({ status: 'ok' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).to.equal(200);
    const body = (await ready.json()) as Record<string, unknown>;
    expect(body).to.include({ status: 'ready', browser: 'connected' });
    expect(body).to.have.keys(
      'status',
      'browser',
      'keyStore',
      'unsettledUsage',
      'xsd',
      'rules',
      'queueDepth',
      'activeRenders',
      'idlePages',
      'rendersCompleted',
      'browserRestarts',
      'pagesReplaced',
      'signing',
    );
    expect(body).to.include({ keyStore: 'ok', unsettledUsage: 0, xsd: 'ok', rules: 'ok', signing: 'off' });
    expect(ready.headers.get('x-content-type-options')).to.equal('nosniff');
  });

  it('a method a path does not serve is a JSON 405 naming Allow, OPTIONS a 204 with Allow, on every path', async function () {
    const service = await sharedService();
    const paths: [string, string][] = [
      ['/healthz', 'GET, HEAD'],
      ['/readyz', 'GET, HEAD'],
      ['/metrics', 'GET, HEAD'],
      ['/openapi.json', 'GET, HEAD'],
      ['/docs', 'GET, HEAD'],
      ['/', 'POST'],
      ['/ubl', 'POST'],
      ['/batch', 'POST'],
    ];
    for (const [p, allow] of paths) {
      for (const method of ['PUT', 'DELETE', 'PATCH', ...(allow === 'POST' ? ['GET'] : ['POST'])]) {
        const res = await fetch(`${service.url}${p}`, { method });
        expect([res.status, res.headers.get('allow')], `${method} ${p}`).to.deep.equal([405, `${allow}, OPTIONS`]);
        expect(res.headers.get('content-type'), `${method} ${p}`).to.match(/^application\/json/);
        expect(((await res.json()) as { code: string }).code).to.equal('method_not_allowed');
      }
      const options = await fetch(`${service.url}${p}`, { method: 'OPTIONS' });
      expect([options.status, options.headers.get('allow'), await options.text()], `OPTIONS ${p}`).to.deep.equal([
        204,
        `${allow}, OPTIONS`,
        '',
      ]);
    }
    expect((await fetch(`${service.url}/healthz`, { method: 'HEAD' })).status).to.equal(200);
    expect((await fetch(`${service.url}/nowhere`, { method: 'OPTIONS' })).status).to.equal(404);
  });

  it('an Expect other than 100-continue is answered as the request would be, not with a bare 417', async function () {
    const service = await sharedService();
    const url = new URL(service.url);
    const answer = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: '/healthz', headers: { expect: '999-foo' } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).to.equal(200);
    expect(JSON.parse(answer.body)).to.deep.equal({ status: 'ok' });
  });

  it('/metrics counts requests by route, status and type, and times renders and queue waits', async function () {
    const service = await sharedService();
    expect((await post(service, { from: 'M', to: 'N', items: [{ name: 'x' }] })).status).to.equal(200);
    expect((await post(service, { from: 'M', to: 'N', items: [] })).status).to.equal(400);
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(text).to.match(/docgen_http_requests_total\{route="\/",status="200",type="invoice"\} [1-9]/);
    expect(text).to.match(/docgen_http_requests_total\{route="\/",status="400",type=""\} [1-9]/);
    expect(text).to.match(/docgen_render_duration_seconds_count [1-9]/);
    expect(text).to.match(/docgen_render_queue_wait_seconds_count [1-9]/);
    expect(text).to.contain('docgen_pool_browser_restarts_total');
    expect(text).to.contain('docgen_pool_queued_renders');
    expect(text).to.contain('process_resident_memory_bytes');
  });
});

describe('GET /openapi.json', function () {
  it('is OpenAPI 3.1 built from schemas/, and the published requests validate against it', async function () {
    const service = await sharedService();
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(doc.openapi).to.equal('3.1.0');
    expect(Object.keys(doc.paths)).to.deep.equal([
      '/',
      '/ubl',
      '/cii',
      '/factur-x',
      '/validate',
      '/status',
      '/batch',
      '/brand',
      '/healthz',
      '/readyz',
      '/metrics',
      '/openapi.json',
      '/docs',
    ]);
    expect(doc.components.schemas.invoice.properties.items).to.be.an('object');
    expect(doc.components.schemas.lineItem).to.be.an('object');
    // Received e-invoices: XML and PDF bodies, and the /validate report (schemas/validation-report.json).
    expect(Object.keys(doc.paths['/ubl'].post.requestBody.content)).to.include.members(['application/xml', 'text/xml', 'application/pdf']);
    expect(doc.paths['/validate'].post.responses[200].content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/ValidationReport',
    });
    expect(doc.components.schemas.ValidationReport.required).to.include.members(['valid', 'syntax', 'rule_sets', 'errors']);
    expect(doc.paths['/cii'].post.responses).to.have.property('422');

    const ajv = new Ajv2020({ strict: false, coerceTypes: true, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('currency', /^[A-Za-z]{3}$/);
    ajv.addFormat('country', /^[A-Z]{2}$/);
    ajv.addSchema({ ...doc, $id: 'openapi' });
    const validators = {
      '/': ajv.getSchema('openapi#/paths/~1/post/requestBody/content/application~1json/schema')!,
      '/ubl': ajv.getSchema('openapi#/paths/~1ubl/post/requestBody/content/application~1json/schema')!,
    };
    let checked = 0;
    for (const ex of loadExamples()) {
      const raw = ex.request.body;
      const body = typeof raw === 'string' ? qs.parse(raw, { duplicates: 'last' }) : structuredClone(raw);
      if (typeof body.currency === 'string') body.currency = body.currency.toUpperCase();
      const valid = validators[ex.request.path as '/' | '/ubl'](body);
      // Accepted requests match the description; the ones the service refuses for a missing field do not.
      if (ex.expect.status === 200 || ex.expect.status === 401)
        expect(valid, `${ex.name}: ${ajv.errorsText(validators['/'].errors)}`).to.equal(true);
      if (ex.name === 'missing-from' || ex.name === 'credit-note-rejects-due-date') expect(valid, ex.name).to.equal(false);
      checked++;
    }
    expect(checked).to.be.greaterThanOrEqual(10);
  });

  it('names the server by the request origin, the version of package.json, tags and every status with the Error body', async function () {
    const service = await sharedService();
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(doc.servers).to.deep.equal([{ url: service.url, description: 'This service' }]);
    // fetch() sends its own Host: node:http sends the one a proxy would forward.
    const servers = (host: string) =>
      new Promise<string>((resolve, reject) => {
        http
          .get(`${service.url}/openapi.json`, { headers: { host } }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve((JSON.parse(text) as { servers: [{ url: string }] }).servers[0].url));
          })
          .on('error', reject);
      });
    expect(await servers('docs.example.org:8443')).to.equal('http://docs.example.org:8443');
    expect(await servers('evil"host/<x>')).to.equal('http://localhost:3000');
    const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
    expect(doc.info.version).to.equal(pkg.version);
    expect(doc.tags.map((t: { name: string }) => t.name)).to.deep.equal(['documents', 'e-invoices', 'batch', 'brand', 'operations']);
    expect(doc.components.schemas.Error.properties.code.enum).to.include.members(['validation_failed', 'quota_exceeded', 'render_timeout']);
    const statuses = ['200', '400', '401', '405', '408', '413', '415', '429', '500', '503'];
    for (const p of ['/', '/ubl', '/cii', '/factur-x', '/batch']) {
      const op = doc.paths[p].post;
      expect(Object.keys(op.responses), p).to.include.members(statuses);
      expect(op.responses).not.to.have.property('499');
      for (const status of statuses.slice(1))
        expect(op.responses[status].content['application/json'].schema, `${p} ${status}`).to.deep.equal({
          $ref: '#/components/schemas/Error',
        });
      expect(Object.keys(op.responses['200'].headers), p).to.include.members(['RateLimit-Policy', 'RateLimit', 'Cache-Control']);
      expect(Object.keys(op.responses['429'].headers), p).to.include.members(['RateLimit-Policy', 'RateLimit', 'Retry-After']);
    }
    expect(doc.paths['/batch'].post.responses['406']).to.be.an('object');
    expect(Object.keys(doc.paths['/batch'].post.responses['200'].content)).to.deep.equal(['application/zip', 'application/pdf']);
    expect(doc.paths['/'].post.requestBody.content['application/json'].examples).to.have.keys(...DOCUMENT_TYPES);
  });

  it('describes form bodies as string fields with bracket keys; the form example validates and is accepted', async function () {
    const service = await sharedService();
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const media = doc.paths['/ubl'].post.requestBody.content['application/x-www-form-urlencoded'];
    const form = doc.components.schemas.EInvoiceForm;
    expect(media.schema).to.deep.equal({ $ref: '#/components/schemas/EInvoiceForm' });
    expect(form.properties['items[0][name]']).to.include({ type: 'string' });
    expect(form.properties['items[0][quantity]']).to.include({ type: 'string' });
    expect(form.properties['e_invoice[profile]']).to.include({ type: 'string' });
    expect(media.encoding['items[0][name]']).to.deep.equal({ style: 'form', explode: true });
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile({ ...form, $schema: undefined });
    expect(validate({ 'items[7][quantity]': '2' }), 'a string at any index').to.equal(true);
    expect(validate({ 'items[7][quantity]': 2 }), 'form values are strings').to.equal(false);
    const example = media.examples.invoice.value as Record<string, string>;
    expect(validate(example), ajv.errorsText(validate.errors)).to.equal(true);
    const res = await post(service, new URLSearchParams(example).toString(), { path: '/ubl' });
    expect(res.status, await res.clone().text()).to.equal(200);
  });

  it('shows POST /validate a UBL and a CII example, each valid under every rule set it names', async function () {
    const service = await sharedService();
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const examples = doc.paths['/validate'].post.requestBody.content['application/xml'].examples as Record<string, { value: string }>;
    expect(Object.keys(examples)).to.deep.equal(['invoice-cii', 'invoice-ubl']);
    for (const [name, { value }] of Object.entries(examples)) {
      const res = await post(service, value, { path: '/validate', headers: { 'content-type': 'application/xml' } });
      expect(res.status, name).to.equal(200);
      const report = (await res.json()) as { valid: boolean; rule_sets: { name: string; fatal: number }[]; errors: unknown[] };
      expect(report.valid, `${name}: ${JSON.stringify(report.errors)}`).to.equal(true);
      expect(report.rule_sets.map((c) => c.name).join(', '), name).to.match(name === 'invoice-ubl' ? /Peppol BIS Billing/ : /EN 16931 CII/);
    }
  });

  it('describes the form body of POST /batch the same way: documents[i] in bracket keys, strings; its example is accepted', async function () {
    const service = await sharedService();
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const media = doc.paths['/batch'].post.requestBody.content['application/x-www-form-urlencoded'];
    const form = doc.components.schemas.BatchForm;
    expect(media.schema).to.deep.equal({ $ref: '#/components/schemas/BatchForm' });
    for (const field of ['format', 'documents[0][from]', 'documents[0][items][0][name]', 'documents[0][e_invoice][payment_means][iban]'])
      expect(form.properties[field], field).to.include({ type: 'string' });
    expect(media.encoding['documents[0][items][0][quantity]']).to.deep.equal({ style: 'form', explode: true });
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile({ ...form, $schema: undefined });
    expect(validate({ 'documents[12][items][7][quantity]': '2' }), 'a string at any index').to.equal(true);
    expect(validate({ 'documents[12][items][7][quantity]': 2 }), 'form values are strings').to.equal(false);
    const example = media.examples.zip.value as Record<string, string>;
    expect(example['documents[1][items][0][name]']).to.be.a('string');
    expect(validate(example), ajv.errorsText(validate.errors)).to.equal(true);
    const res = await post(service, new URLSearchParams(example).toString(), { path: '/batch' });
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/zip/);
  });
});

describe('GET /docs', function () {
  it('serves the Redoc page from this service (no CDN) with a CSP of its own; the API keeps the strict one', async function () {
    const service = await sharedService();
    const page = await fetch(`${service.url}/docs`);
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.contain('spec-url="/openapi.json"');
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).to.deep.equal(['/docs/assets/redoc.standalone.js']);
    expect(html).not.to.match(/https?:\/\//);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).to.contain("worker-src 'self' blob:").and.to.contain("script-src 'self';");
    const asset = await fetch(`${service.url}${scripts[0]}`);
    expect(asset.status).to.equal(200);
    expect(asset.headers.get('content-type')).to.contain('javascript');
    expect((await asset.arrayBuffer()).byteLength).to.be.greaterThan(100000);
    const api = await post(service, { from: 'M', to: 'N', items: [] });
    expect(api.headers.get('content-security-policy')).not.to.contain('blob:');
  });
});

describe('caching', function () {
  it('document answers and their errors say Cache-Control: no-store', async function () {
    const service = await sharedService();
    const answers = [
      await post(service, { from: 'M', to: 'N', items: [{ name: 'x' }] }),
      await post(service, { from: 'M', to: 'N', items: [{ name: 'x' }], number: 'C-1' }, { path: '/ubl' }),
      await post(service, { from: 'M', to: 'N', items: [] }),
      await post(service, { from: 'M', to: 'N', items: [{ name: 'x' }] }, { key: null }),
    ];
    expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 400, 401]);
    for (const r of answers) expect(r.headers.get('cache-control'), String(r.status)).to.equal('no-store');
  });

  it('every error of every route says no-store, and an API key’s 401 names its challenge (Bearer)', async function () {
    const service = await sharedService();
    const { key } = await service.keys.createKey(`caching-${Date.now()}`, 'paid');
    const errors = [
      ['GET /brand, no key', await fetch(`${service.url}/brand`)],
      ['GET /brand, unknown key', await fetch(`${service.url}/brand`, { headers: { authorization: 'Bearer sk_nope' } })],
      [
        'PUT /brand, a bad field',
        await fetch(`${service.url}/brand`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: '{"theme":1}',
        }),
      ],
      ['GET /nope', await fetch(`${service.url}/nope`)],
      ['POST / without a key', await post(service, { from: 'M', to: 'N', items: [{ name: 'x' }] }, { key: null })],
    ] as const;
    expect(errors.map(([, r]) => r.status)).to.deep.equal([401, 401, 400, 404, 401]);
    for (const [name, r] of errors) {
      expect(r.headers.get('cache-control'), name).to.equal('no-store');
      const challenge = r.headers.get('www-authenticate');
      if (r.status === 401) expect(challenge, name).to.match(/^Bearer realm="api"/);
      else expect(challenge, name).to.equal(null);
    }
    expect(errors[1][1].headers.get('www-authenticate')).to.equal('Bearer realm="api", error="invalid_token"');
  });
});

describe('logs', function () {
  it('are JSON lines with the request id, account, type, status and duration, and never a field value', async function () {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    const service = await startTestService({}, { logger: pino({ level: 'info' }, sink) });
    try {
      const res = await post(
        service,
        { from: 'Secret Seller Ltd', to: 'Confidential Buyer', items: [{ name: 'Private item' }], notes: 'hush' },
        { headers: { 'x-request-id': 'req-12345' } },
      );
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-request-id')).to.equal('req-12345');
      const entry = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.requestId === 'req-12345');
      expect(entry).to.include({ method: 'POST', route: '/', status: 200, account: accountLogId('test-account'), type: 'invoice' });
      expect(entry!.account).to.match(/^acct_[0-9a-f]{16}$/);
      expect(entry!.ms).to.be.a('number');
      const all = lines.join('\n');
      for (const secret of ['Secret Seller', 'Confidential Buyer', 'Private item', 'hush']) expect(all).not.to.contain(secret);
    } finally {
      await service.close();
    }
  });

  it('/metrics labels routes by their template: 5,000 distinct paths add no series', async function () {
    this.timeout(120000);
    const service = await sharedService();
    const size = async () => (await (await fetch(`${service.url}/metrics`)).text()).length;
    const before = await size();
    const agent = { method: 'GET', redirect: 'manual' } as const;
    for (let i = 0; i < 5000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => {
          const n = i + j;
          const path =
            n % 2
              ? `/account/keys/k${n}x${Math.random().toString(36).slice(2)}/revoke`
              : `/no-such-${n}-${Math.random().toString(36).slice(2)}`;
          return fetch(`${service.url}${path}`, agent).then((r) => r.arrayBuffer());
        }),
      );
    }
    const text = await (await fetch(`${service.url}/metrics`)).text();
    console.log(`      /metrics: ${before} bytes before, ${text.length} after 5,000 distinct paths`);
    expect(text.length).to.be.lessThan(100 * 1024);
    expect(text).not.to.match(/no-such-|keys\/k\d/);
    expect(text).to.contain('route="/account/keys/:prefix/revoke"');
    expect(text).to.match(/route="other",status="404"/);
  });
});
