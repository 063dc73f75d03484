// Property-based fuzzing (fast-check) of received e-invoices: official examples mutated at random (elements dropped or
// repeated, text replaced by hostile values, markup, entities and DTD fragments inserted, the document cut short)
// and sent as XML to every operation that reads one. Every answer is a 200 (a report that conforms to
// schemas/validation-report.json, a PDF, an e-invoice) or a 4xx JSON error with its code: never a 5xx, never a hang.
// The event loop's thread's CPU per request is printed, not asserted (the loop's budget is `npm run bench --
// --loop-only`'s).
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { expect } from 'chai';
import fc from 'fast-check';
import { projectRoot } from '../../server/config';
import { postReceived, readExample } from '../helpers/received';
import { sharedService, type TestService } from '../helpers/service';

const SOURCES = ['en16931-ubl/ubl-tc434-example3.xml', 'peppol-bis-3/base-example.xml', 'en16931-cii/CII_example3.xml'].map(readExample);
const ROUTES = ['/validate', '/', '/ubl', '/cii', '/factur-x'] as const;

const HOSTILE_TEXT = [
  '&',
  '<',
  ']]>',
  '<![CDATA[x]]>',
  '&amp;&lt;&#0;',
  '&#x1F600;',
  '\u0000',
  '\uFFFE',
  '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
  '<?xml version="1.0"?>',
  '<!-- -->',
  '9'.repeat(400),
  '-0.000',
  '1e999',
  'NaN',
  '٣٤٥',
  'x'.repeat(100_000),
  '</cbc:ID>',
  '<cbc:ID schemeID="0088">1</cbc:ID>',
  '<ram:ID>1</ram:ID>',
  ' xmlns:cbc="urn:x"',
];

/** One mutation of an XML text, at a position given as a fraction of its length. */
const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    text: fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string({ maxLength: 20 })),
  }),
  fc.record({
    kind: fc.constant('text' as const),
    nth: fc.nat(400),
    text: fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string({ maxLength: 30 })),
  }),
  fc.record({ kind: fc.constant('drop' as const), nth: fc.nat(400) }),
  fc.record({ kind: fc.constant('repeat' as const), nth: fc.nat(400), times: fc.integer({ min: 2, max: 200 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

/** The nth element with no child elements (`<cbc:Name>…</cbc:Name>`), found by a pattern: fuzzing needs no parser. */
function leaf(xml: string, nth: number): RegExpExecArray | undefined {
  const all = [...xml.matchAll(/<([\w:]+)(\s[^>]*)?>[^<]*<\/\1>/g)];
  return all.length ? (all[nth % all.length] as RegExpExecArray) : undefined;
}

function mutate(xml: string, m: Mutation): string {
  if (m.kind === 'insert' || m.kind === 'cut') {
    const at = Math.floor(m.at * xml.length);
    return m.kind === 'cut' ? xml.slice(0, at) : xml.slice(0, at) + m.text + xml.slice(at);
  }
  const found = leaf(xml, m.nth);
  if (!found) return xml;
  const [whole, name, attrs = ''] = found;
  const replacement = m.kind === 'drop' ? '' : m.kind === 'repeat' ? whole.repeat(m.times) : `<${name}${attrs}>${m.text}</${name}>`;
  return xml.slice(0, found.index) + replacement + xml.slice(found.index + whole.length);
}

describe('received e-invoices, fuzzed', function () {
  this.timeout(600000);
  let service: TestService;
  const statuses = new Map<string, number>();
  const validReport = new Ajv({ strict: false }).compile(
    JSON.parse(fs.readFileSync(path.join(projectRoot(), 'schemas', 'validation-report.json'), 'utf8')) as object,
  );
  before(async () => (service = await sharedService()));
  after(() =>
    console.log(
      `      fuzz: ${[...statuses]
        .sort()
        .map(([s, n]) => `${s}×${n}`)
        .join(', ')}`,
    ),
  );

  it('mutated official examples on every route (400): a report, a document or a 4xx JSON error; the event loop free', async function () {
    let worst = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(SOURCES.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...ROUTES),
        async (source, mutations, route) => {
          const xml = mutations.reduce(mutate, SOURCES[source]!);
          // The CPU time of this thread (the service's event loop, and this client's small share) for the request.
          const cpu = process.threadCpuUsage();
          const res = await postReceived(service, xml, route);
          const key = `${route} ${res.status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          const what = `${route} after ${JSON.stringify(mutations).slice(0, 300)}`;
          expect([200, 400, 413, 415, 422], what).to.include(res.status);
          if (res.status !== 200) {
            const body = (await res.json()) as { code?: string };
            expect(body.code, what).to.be.a('string');
          } else if (route === '/validate') {
            const report: unknown = await res.json();
            expect(validReport(report), `${what}: ${JSON.stringify(validReport.errors)}`).to.equal(true);
          } else await res.arrayBuffer();
          const used = process.threadCpuUsage(cpu);
          const cpuMs = (used.user + used.system) / 1000;
          worst = Math.max(worst, cpuMs);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400), seed: Number(process.env.FUZZ_SEED ?? 20261125), endOnFailure: true },
    );
    console.log(`      fuzz: the event loop's thread spent at most ${worst.toFixed(0)} ms of CPU on one request`);
  });
});
