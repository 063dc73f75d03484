// Property-based fuzzing of every field of every document route, against the real service, real Chromium and real XSDs:
// a valid document of each route with one to three of its fields (any field the schemas name, at any depth) replaced by
// a generated hostile value (test/helpers/hostile-values.ts), sent as JSON or as a form, and odd content types. Every
// answer must be:
//   - never a 5xx;
//   - a 4xx: JSON in the one error shape; a validation error names a field in each detail;
//   - a 200: a PDF whose text shows the document's marker, or XML that shows the marker and the note as sent, and
//     is well-formed and valid against its XSD (checked afterwards by xmllint, one run per schema);
// The CPU the service's main thread spends on each request is read from /proc and the worst printed (a field that made
// it parse, match or loop for long would show there); it is not asserted: how long the loop may be held is a speed,
// measured by `npm run bench -- --loop-only` against its budget (docs/operating.md).
// Seeded and reproducible: FUZZ_SEED (default below) and FUZZ_RUNS (cases per route; the default keeps npm test near
// two minutes). A failure prints the seed, the path of the shrunk case and the value.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DOMParser } from '@oozcitak/dom';
import { expect } from 'chai';
import fc from 'fast-check';
import { loadConfig, projectRoot } from '../../server/config';
import { DOCUMENT_TYPES, E_INVOICE_TYPES } from '../../server/documents/model';
import { fileResolver, inlineRefs } from '../../server/documents/schema-inline';
import { hostileValue } from '../helpers/hostile-values';
import { mainThreadCpuMs, startChildService, type ChildService } from '../helpers/child-service';
import { tempDir } from '../helpers/service';
import { XSD_DIR } from '../helpers/ubl';

const run = promisify(execFile);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 0);
/** The service's default body limit (the child runs with its defaults). */
const MAX_BODY_BYTES = loadConfig({}).limits.maxBodyBytes;

type Json = Record<string, unknown>;

// ---- every field the schemas name, per type ------------------------------------------------------------------

function schemaFiles(): Map<string, Json> {
  const dir = path.join(projectRoot(), 'schemas');
  return new Map(
    fs.readdirSync(dir).map((f) => [f.replace(/\.json$/, ''), JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Json]),
  );
}

/** Every property path of a type's schema (`items[0].name`, `e_invoice.seller.endpoint.id`), containers included. */
function fieldPaths(type: string): string[] {
  const files = schemaFiles();
  const out = new Set<string>();
  const walk = (node: unknown, at: string, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 8) return;
    const n = node as Json;
    for (const part of ['allOf', 'anyOf', 'oneOf'])
      if (Array.isArray(n[part])) for (const p of n[part] as unknown[]) walk(p, at, depth + 1);
    if (n.then) walk(n.then, at, depth + 1);
    if (n.items && typeof n.items === 'object') walk(n.items, `${at}[0]`, depth + 1);
    if (n.properties && typeof n.properties === 'object') {
      for (const [key, child] of Object.entries(n.properties as Json)) {
        const p = at ? `${at}.${key}` : key;
        out.add(p);
        walk(child, p, depth + 1);
      }
    }
  };
  walk(inlineRefs(files.get(type)!, fileResolver(files)), '', 0);
  return [...out].sort();
}

/** `doc` with `value` at `path`, intermediate objects and list entries made as needed. */
function setPath(doc: Json, fieldPath: string, value: unknown): void {
  const parts = fieldPath.split(/\.|(?=\[)/).map((p) => (p.startsWith('[') ? Number(p.slice(1, -1)) : p));
  let node: Record<string | number, unknown> = doc;
  parts.forEach((part, i) => {
    if (i === parts.length - 1) {
      node[part] = value;
      return;
    }
    const next = node[part];
    if (next === null || typeof next !== 'object') node[part] = typeof parts[i + 1] === 'number' ? [{}] : {};
    node = node[part] as Record<string | number, unknown>;
  });
}

// ---- the valid documents the mutations start from ------------------------------------------------------------

const SELLER = { name: 'Seller GmbH', country: 'DE', vat_id: 'DE123456789', street: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115' };
const BUYER = { name: 'Buyer SARL', country: 'FR', street: '1 rue X', city: 'Paris', postal_code: '75001' };
const TYPES = DOCUMENT_TYPES;
const E_TYPES = E_INVOICE_TYPES;

function baseDocument(type: string, marker: string, eInvoice: boolean): Json {
  return {
    type,
    from: 'Seller GmbH\nHauptstr. 1\nBerlin',
    to: 'Buyer SARL\n1 rue X\nParis',
    number: marker,
    date: '2026-11-25',
    currency: 'EUR',
    items: [
      { name: 'Widget', quantity: 2, unit_cost: 10.5, description: 'Blue' },
      { name: 'Service', quantity: 1.5, unit_cost: 80 },
    ],
    custom_fields: [{ name: 'PO', value: '42' }],
    tax: 19,
    notes: `Thanks ${marker}`,
    ...(eInvoice ? { e_invoice: { seller: { ...SELLER }, buyer: { ...BUYER }, buyer_reference: 'BR-1' } } : {}),
  };
}

/** Percent-encoding of the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser's form would send it). */
function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8'))
    out += /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`;
  return out;
}

/** `doc` as a form body in bracket notation (qs.stringify overflows the stack on a list of 50,000). */
function formBody(doc: unknown): string {
  const pairs: string[] = [];
  const walk = (value: unknown, key: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${key}[${i}]`));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, key ? `${key}[${k}]` : k);
    else pairs.push(`${pct(key)}=${pct(value === null || value === undefined ? '' : String(value))}`);
  };
  walk(doc, '');
  return pairs.join('&');
}

// ---- one case: a route, a type, mutations, an encoding ---------------------------------------------------------

const ROUTES = ['/', '/ubl', '/cii', '/factur-x'] as const;
type Route = (typeof ROUTES)[number];

interface Case {
  route: Route;
  type: string;
  mutations: [string, unknown][];
  form: boolean;
}

const pathsByType = new Map<string, string[]>(TYPES.map((t) => [t, fieldPaths(t)]));

function caseFor(route: Route): fc.Arbitrary<Case> {
  const types = route === '/' ? TYPES : E_TYPES;
  return fc.constantFrom(...types).chain((type) =>
    fc.record({
      route: fc.constant(route),
      type: fc.constant(type),
      mutations: fc.array(fc.tuple(fc.constantFrom(...pathsByType.get(type)!), hostileValue), { minLength: 1, maxLength: 3 }),
      form: fc.boolean(),
    }),
  );
}

// ---- what an answer must be -----------------------------------------------------------------------------------

interface Stats {
  cases: number;
  statuses: Map<number, number>;
  cpuMaxMs: number;
  slowest: { ms: number; what: string };
  xml: { file: string; xsd: string }[];
}

const stats: Stats = { cases: 0, statuses: new Map(), cpuMaxMs: 0, slowest: { ms: 0, what: '' }, xml: [] };
let seq = 0;

const XSD = {
  Invoice: path.join(XSD_DIR, 'maindoc', 'UBL-Invoice-2.1.xsd'),
  CreditNote: path.join(XSD_DIR, 'maindoc', 'UBL-CreditNote-2.1.xsd'),
  CII: loadConfig({}).ciiXsdFile,
};

/** The text content of every element with this local name. */
function texts(doc: Document, localName: string): string[] {
  return Array.from(doc.getElementsByTagNameNS('*', localName)).map((e) => e.textContent ?? '');
}

const xmlLineEnds = (s: string) => s.replace(/\r\n?/g, '\n');

async function pdfText(pdf: Uint8Array): Promise<string> {
  const file = path.join(workDir, `p${seq}.pdf`);
  fs.writeFileSync(file, pdf);
  const { stdout } = await run('pdftotext', ['-q', file, '-'], { maxBuffer: 64 << 20 });
  fs.rmSync(file);
  return stdout;
}

async function facturXml(pdf: Uint8Array): Promise<string> {
  const dir = fs.mkdtempSync(path.join(workDir, 'fx'));
  const file = path.join(dir, 'fx.pdf');
  fs.writeFileSync(file, pdf);
  await run('pdfdetach', ['-saveall', '-o', dir, file]);
  const name = fs.readdirSync(dir).find((f) => f.endsWith('.xml'));
  expect(name, 'the Factur-X PDF carries its XML').to.be.a('string');
  return fs.readFileSync(path.join(dir, name!), 'utf8');
}

/** What the case sent in `notes`, when it is text that must reach the XML as sent. */
function sentNote(c: Case): string | undefined {
  const m = c.mutations.filter(([p]) => p === 'notes').at(-1);
  if (!m) return undefined;
  return typeof m[1] === 'string' && m[1].trim() !== '' ? m[1] : undefined;
}

let workDir = '';
let service: ChildService;
type Sent = { status: number; bytes: Uint8Array; type: string; cpuMs: number; ms: number };

/** Sends a case: the answer, the CPU time the service's main thread spent meanwhile, and how long it took (printed). */
async function send(body: string | Buffer, contentType: string, route: string): Promise<Sent> {
  const cpu = mainThreadCpuMs(service.child.pid!);
  const started = performance.now();
  let answer: { status: number; bytes: Uint8Array; type: string };
  try {
    const res = await fetch(`${service.url}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': contentType },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    answer = { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type') ?? '' };
  } catch (err) {
    // A body over 4 × MAX_BODY_BYTES is answered 413 at once and the connection closed under the sender
    // (docs/operating.md, Bodies): the client may see the broken pipe before the answer. Only such a body may end so.
    if (Buffer.byteLength(body) <= 4 * MAX_BODY_BYTES) throw err;
    answer = { status: 413, bytes: new Uint8Array(), type: 'closed' };
  }
  const ms = performance.now() - started;
  return { ...answer, cpuMs: mainThreadCpuMs(service.child.pid!) - cpu, ms };
}

function record(status: number, cpuMs: number, ms: number, what: string): void {
  stats.cases++;
  stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
  stats.cpuMaxMs = Math.max(stats.cpuMaxMs, cpuMs);
  // FUZZ_TRACE=1 prints every case with its main thread's CPU time, to find what costs the loop.
  if (process.env.FUZZ_TRACE) console.log(`      ${cpuMs} ms of CPU, ${ms.toFixed(0)} ms, ${status}: ${what.slice(0, 200)}`);
  if (ms > stats.slowest.ms) stats.slowest = { ms, what };
}

/** Checks one 4xx: the one error shape; a validation error names a field in each detail. */
function checkRefusal(bytes: Uint8Array, type: string, what: string): void {
  if (type === 'closed') return;
  expect(type, what).to.contain('application/json');
  const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as {
    error?: unknown;
    code?: unknown;
    details?: { field?: unknown; message?: unknown }[];
  };
  expect(body.error, what).to.be.a('string');
  expect(body.code, what).to.be.a('string');
  if (body.code === 'validation_failed') {
    expect(body.details?.length, what).to.be.greaterThan(0);
    for (const d of body.details!) {
      expect(typeof d.field === 'string' && d.field !== '', `${what}: a detail names its field`).to.equal(true);
      expect(typeof d.message === 'string' && d.message !== '', `${what}: a detail says what is wrong`).to.equal(true);
    }
  }
}

async function checkCase(c: Case): Promise<void> {
  const marker = `FZ${++seq}X`;
  const doc = baseDocument(c.type, marker, c.route !== '/');
  for (const [p, v] of c.mutations) setPath(doc, p, v);
  const touched = new Set(c.mutations.map(([p]) => p.split(/[.[]/)[0]));
  const body = c.form ? formBody(doc) : JSON.stringify(doc);
  const what = `${c.route} ${c.form ? 'form' : 'json'} ${c.type} ${JSON.stringify(c.mutations.map(([p, v]) => [p, typeof v === 'string' ? v.slice(0, 80) : Array.isArray(v) ? `list of ${v.length}` : v])).slice(0, 400)}`;
  const res = await send(body, c.form ? 'application/x-www-form-urlencoded' : 'application/json', c.route);
  record(res.status, res.cpuMs, res.ms, what);
  expect(res.status, what).to.be.below(500);
  if (res.status !== 200) {
    checkRefusal(res.bytes, res.type, what);
    return;
  }
  // The marker is the number; a case that changed the number (or hid it) is not asked to show it.
  const showsMarker = !touched.has('number') && !touched.has('type');
  if (c.route === '/') {
    expect(Buffer.from(res.bytes.subarray(0, 5)).toString('latin1'), what).to.equal('%PDF-');
    if (showsMarker) expect(await pdfText(res.bytes), what).to.contain(marker);
    return;
  }
  const xml = c.route === '/factur-x' ? await facturXml(res.bytes) : Buffer.from(res.bytes).toString('utf8');
  const parsed = new DOMParser().parseFromString(xml, 'application/xml');
  const rootElement = parsed.documentElement!;
  if (showsMarker) expect(rootElement.textContent, what).to.contain(marker);
  const note = sentNote(c);
  if (note !== undefined) {
    const notes = xmlLineEnds(
      [...texts(parsed as unknown as Document, 'Note'), ...texts(parsed as unknown as Document, 'Content')].join('\n'),
    );
    expect(notes, `${what}: the note as sent`).to.contain(xmlLineEnds(note).trim());
  }
  const root = rootElement.localName;
  const file = path.join(workDir, `x${seq}.xml`);
  fs.writeFileSync(file, xml);
  stats.xml.push({ file, xsd: root === 'CrossIndustryInvoice' ? XSD.CII : root === 'CreditNote' ? XSD.CreditNote : XSD.Invoice });
}

// ---- the suite ---------------------------------------------------------------------------------------------------

describe('fuzzing every field of every route', function () {
  this.timeout(900000);

  before(async function () {
    service = await startChildService();
    workDir = tempDir('fuzz-fields');
    // One valid request per route first: a route's first answer compiles its code paths (not what is measured).
    for (const route of ROUTES) await send(JSON.stringify(baseDocument('invoice', 'FZWARM', route !== '/')), 'application/json', route);
  });
  after(async function () {
    await service?.stop();
    console.log(
      `      fuzz-fields: seed ${SEED}, ${stats.cases} requests; statuses ${[...stats.statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(
          ', ',
        )}; the service's main thread spent at most ${stats.cpuMaxMs} ms of CPU on one; slowest ${stats.slowest.ms.toFixed(0)} ms (${stats.slowest.what.slice(0, 160)})`,
    );
  });

  const params = (runs: number) => ({ numRuns: RUNS || runs, seed: SEED, endOnFailure: true });
  const defaults: Record<Route, number> = { '/': 700, '/ubl': 350, '/cii': 350, '/factur-x': 200 };

  for (const route of ROUTES) {
    it(`${route}: hostile values in every field (${RUNS || defaults[route]} cases)`, async function () {
      await fc.assert(fc.asyncProperty(caseFor(route), checkCase), params(defaults[route]));
    });
  }

  it('/batch: documents with hostile fields, in every format (150 cases)', async function () {
    const batch = fc.record({
      format: fc.constantFrom('pdf', 'ubl', 'cii', 'factur-x', undefined),
      documents: fc.array(
        fc.tuple(
          fc.constantFrom(...E_TYPES),
          fc.array(fc.tuple(fc.constantFrom(...pathsByType.get('invoice')!), hostileValue), { maxLength: 2 }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(batch, async (b) => {
        const documents = b.documents.map(([type, mutations]) => {
          const doc = baseDocument(type, `FZ${++seq}X`, true);
          for (const [p, v] of mutations) setPath(doc, p, v);
          return doc;
        });
        const what = `/batch ${String(b.format)} ${JSON.stringify(b.documents.map(([t, m]) => [t, m.map(([p]) => p)]))}`;
        const res = await send(JSON.stringify({ ...(b.format ? { format: b.format } : {}), documents }), 'application/json', '/batch');
        record(res.status, res.cpuMs, res.ms, what);
        expect(res.status, what).to.be.below(500);
        if (res.status === 200) {
          const head = Buffer.from(res.bytes.subarray(0, 5)).toString('latin1');
          expect(head === '%PDF-' || head.startsWith('PK'), what).to.equal(true);
        } else checkRefusal(res.bytes, res.type, what);
      }),
      params(150),
    );
  });

  it('odd content types and encodings of a valid document (250 cases)', async function () {
    const odd = fc.record({
      contentType: fc.constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/x-www-form-urlencoded; charset=iso-8859-1',
        'application/vnd.api+json',
        'application/json;;;',
        'APPLICATION/JSON',
        '',
      ),
      route: fc.constantFrom(...ROUTES, '/batch'),
      body: fc.oneof(
        fc.constant(Buffer.from(JSON.stringify(baseDocument('invoice', 'FZODD', true)))),
        fc.constant(Buffer.from(JSON.stringify(baseDocument('invoice', 'FZODD', true)), 'utf16le')),
        fc.constant(Buffer.from(formBody(baseDocument('invoice', 'FZODD', true)), 'latin1')),
        fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
      ),
    });
    await fc.assert(
      fc.asyncProperty(odd, async (o) => {
        const what = `${o.route} ${JSON.stringify(o.contentType)} ${o.body.subarray(0, 40).toString('hex')}`;
        const res = await send(o.body, o.contentType, o.route);
        record(res.status, res.cpuMs, res.ms, what);
        expect(res.status, what).to.be.below(500);
        if (res.status !== 200) checkRefusal(res.bytes, res.type, what);
      }),
      params(250),
    );
  });

  it('every XML answered is valid against its XSD (xmllint, one run per schema), and the service still renders', async function () {
    for (const xsd of new Set(stats.xml.map((x) => x.xsd))) {
      const files = stats.xml.filter((x) => x.xsd === xsd).map((x) => x.file);
      for (let i = 0; i < files.length; i += 200) {
        const chunk = files.slice(i, i + 200);
        const result = await run('xmllint', ['--noout', '--nonet', '--schema', xsd, ...chunk], { maxBuffer: 64 << 20 }).catch(
          (err: { stderr?: string }) => ({ stderr: err.stderr ?? String(err) }),
        );
        const invalid = result.stderr.split('\n').filter((l) => l !== '' && !l.endsWith(' validates'));
        expect(invalid, path.basename(xsd)).to.deep.equal([]);
      }
    }
    console.log(`      fuzz-fields: ${stats.xml.length} XML documents XSD-valid`);
    // The default run answers about 120 e-invoices with 200; a short FUZZ_RUNS fewer.
    expect(stats.xml.length).to.be.greaterThan(RUNS > 0 && RUNS < 200 ? 0 : 50);
    const res = await send(JSON.stringify(baseDocument('invoice', 'FZEND', false)), 'application/json', '/');
    expect(res.status).to.equal(200);
  });
});
