// Received e-invoices, over HTTP on a local port with real Chromium, the real XSDs and the official rules: every
// official example (vendor/examples, 33 UBL and CII invoices and credit notes; each valid with its syntax, type and
// rule sets is test/integration/einvoice/received/check.test.ts's) is shown by POST / as a PDF whose text has its
// number, seller, buyer, every line's name and the amount due; converted to the other syntax and back keeping every
// value (compared value by value in KoSIT's EN 16931 semantic model, test/helpers/semantic.ts), each output XSD-valid
// with 0 fatal under the input's rule sets.
import { expect } from 'chai';
import { pdfFlatText } from '../helpers/pdf';
import { OFFICIAL_EXAMPLES, postReceived, readExample, type Report } from '../helpers/received';
import { comparedModel, missingTerms, termValues, type Term } from '../helpers/semantic';
import { sharedService, type TestService } from '../helpers/service';

const syntaxOf = (xml: string): 'ubl' | 'cii' => (/CrossIndustryInvoice/.test(xml.slice(0, 2000)) ? 'cii' : 'ubl');
const other = (s: 'ubl' | 'cii') => (s === 'ubl' ? 'cii' : 'ubl');

/** Every term of a semantic tree, counted (groups and values). */
function termCount(t: Term): number {
  return t.members.reduce((n, m) => n + 1 + termCount(m), 0);
}

/** `returned` without the terms one syntax must state where the other may leave them out, when `original` leaves them
 * out: BT-110 (UBL's TaxTotal needs its TaxAmount: a CII without BT-110 comes back with 0.00) and a line's BT-148 (a
 * CII price discount lives inside a gross price: a UBL discount without its gross price comes back with the gross price
 * it implies, net price plus discount). Every other added term fails the test. */
function withoutDerived(returned: Term, original: Term): Term {
  const has = (t: Term, id: string) => t.members.some((m) => m.id === id);
  const lineIds = new Map(original.members.filter((m) => m.id === 'BG-25').map((l) => [termValues(l, 'BT-126')[0], l]));
  const members = returned.members.map((m) => {
    if (m.id === 'BG-22' && !original.members.some((o) => o.id === 'BG-22' && has(o, 'BT-110'))) {
      return { ...m, members: m.members.filter((t) => !(t.id === 'BT-110' && Number(t.value) === 0)) };
    }
    const line = m.id === 'BG-25' ? lineIds.get(termValues(m, 'BT-126')[0]) : undefined;
    if (line && !termValues(line, 'BG-29 > BT-148').length) {
      return {
        ...m,
        members: m.members.map((g) => (g.id === 'BG-29' ? { ...g, members: g.members.filter((t) => t.id !== 'BT-148') } : g)),
      };
    }
    return m;
  });
  return { ...returned, members };
}

/** What the round trips kept, over all examples, for the summary. */
const kept = { terms: 0, lost: 0 };

describe('received e-invoices: the official examples validated, shown and converted', function () {
  this.timeout(120000);
  let service: TestService;
  before(async () => (service = await sharedService()));
  after(() => {
    const share = kept.terms === 0 ? 0 : (100 * (kept.terms - kept.lost)) / kept.terms;
    console.log(`      round trips: ${kept.terms - kept.lost} of ${kept.terms} terms kept (${share.toFixed(2)} %)`);
  });

  it('are the 33 files of the standards folder', function () {
    expect(OFFICIAL_EXAMPLES).to.have.length(33);
  });

  for (const file of OFFICIAL_EXAMPLES) {
    describe(file, function () {
      const xml = readExample(file);
      const syntax = syntaxOf(xml);
      const model = comparedModel(xml);

      it('is shown as a PDF with its number, seller, buyer, every line and the amount due', async function () {
        const res = await postReceived(service, xml, '/');
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('application/pdf');
        const text = pdfFlatText(new Uint8Array(await res.arrayBuffer()));
        const squeezed = text.replace(/\s+/g, '');
        const has = (value: string, what: string) => expect(squeezed, `${what}: ${value}`).to.include(value.replace(/\s+/g, ''));
        has(termValues(model, 'BT-1')[0]!, 'number');
        has(termValues(model, 'BG-4 > BT-27')[0]!, 'seller');
        has(termValues(model, 'BG-7 > BT-44')[0]!, 'buyer');
        for (const name of termValues(model, 'BG-25 > BG-31 > BT-153')) has(name, 'line');
        const due = Number(termValues(model, 'BG-22 > BT-115')[0]);
        // Printed in en-US: 1,234.56 (a negative amount as -1,234.56 or (1,234.56)).
        const printed = Math.abs(due).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
        has(printed, 'amount due');
      });

      it(`goes to ${other(syntax).toUpperCase()} and back keeping every value`, async function () {
        const there = await postReceived(service, xml, `/${other(syntax)}`);
        const thereXml = await there.text();
        expect(there.status, thereXml.slice(0, 800)).to.equal(200);
        const back = await postReceived(service, thereXml, `/${syntax}`);
        const backXml = await back.text();
        expect(back.status, backXml.slice(0, 800)).to.equal(200);
        const returned = comparedModel(backXml);
        const lost = missingTerms(model, returned);
        kept.terms += termCount(model);
        kept.lost += lost.length;
        expect(lost, 'terms of the original missing after the round trip').to.deep.equal([]);
        expect(missingTerms(withoutDerived(returned, model), model), 'terms added by the round trip').to.deep.equal([]);
        // Both outputs pass the input's own rule sets.
        for (const [out, name] of [
          [thereXml, other(syntax)],
          [backXml, syntax],
        ] as const) {
          const check = await postReceived(service, out, '/validate');
          const report = (await check.json()) as Report;
          expect(report.errors, `${name}: ${JSON.stringify(report.errors.slice(0, 3))}`).to.deep.equal([]);
        }
      });
    });
  }
});
