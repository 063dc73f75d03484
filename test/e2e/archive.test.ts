// Every PDF the service makes is a PDF/A-3a and PDF/UA-1 file: each document type in both themes, a long statement
// whose table header repeats on every page, an invoice with a logo and one in Arabic, read back from the file alone
// (test/helpers/pdf-archive-check.ts: qpdf, pdffonts, libxml2 and the pages' content with the fonts' ToUnicode
// maps). Each check is shown to fail on a copy of a good file changed by hand (pdf-patch.ts), never by the code under test.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { E_INVOICE } from '../helpers/e-invoice-request';
import { archiveCheck } from '../helpers/pdf-archive-check';
import { appendUpdate, catalogOf, findObject, patchPdf } from '../helpers/pdf-patch';
import { qpdfJson, type Dict } from '../helpers/pdfa-reader';
import { solidPng } from '../helpers/png';
import { postReceived, readExample } from '../helpers/received';
import { post, postOk, sharedService, tempDir, type TestService } from '../helpers/service';
import { THEMES } from '../helpers/themes';

const EXAMPLES = path.join(projectRoot(), 'examples');
const example = (name: string) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, name), 'utf8')) as Record<string, unknown>;

const pdfOf = (service: TestService, body: unknown, headers: Record<string, string> = {}) => postOk(service, body, { headers });

/** examples/statement.json with `n` transactions: several pages, the table header repeated on each. */
function longStatement(n: number): Record<string, unknown> {
  const base = example('statement.json');
  const items = base.items as Record<string, unknown>[];
  return { ...base, items: Array.from({ length: n }, (_, i) => ({ ...items[i % items.length], reference: `R-${i + 1}` })) };
}

describe('PDF/A-3a and PDF/UA-1 for every PDF (read from the file)', function () {
  this.timeout(240000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  for (const theme of THEMES) {
    it(`every document type in the ${theme} theme passes every check`, async function () {
      const names = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
      expect(names).to.have.length(12);
      const logo = `data:image/png;base64,${solidPng(40, 20).toString('base64')}`;
      for (const name of names) {
        const body = example(name);
        const { problems, summary } = await archiveCheck(await pdfOf(service, { ...body, theme, logo }));
        expect(problems, `${name} ${theme}`).to.deep.equal([]);
        expect(summary.xmp, name).to.deep.include({ part: '3', conformance: 'A', pdfua: '1', language: 'en-US' });
        expect(summary.firstHeading, name).to.equal('H1');
        expect(summary.pageNumbersAsArtifacts, name).to.equal(`${summary.pages} of ${summary.pages} pages`);
        const from = String(body.from).split('\n')[0]!.trim();
        expect(summary.figures, name).to.deep.equal([`Logo of ${from}`]);
      }
    });
  }

  it('an 80-line statement: page numbers and the repeated header row are artifacts, the header read once', async function () {
    const { problems, summary, pages } = await archiveCheck(await pdfOf(service, longStatement(80)));
    expect(problems).to.deep.equal([]);
    expect(summary.pages).to.be.greaterThan(2);
    expect(summary.pageNumbersAsArtifacts).to.equal(`${summary.pages} of ${summary.pages} pages`);
    for (const [i, page] of pages.entries()) {
      expect(page.artifactText, `page ${i + 1}`).to.include(`Page ${i + 1} of ${summary.pages}`);
      const tagged = [...page.tagged.values()].join(' ');
      // The header labels are tagged on the first page only; later pages show them as artifacts.
      if (i === 0) expect(tagged).to.include('Reference');
      else {
        expect(page.artifactText).to.include('Reference');
        expect(tagged).to.not.include('Reference');
      }
    }
    expect(summary.repeatedHeaderArtifacts).to.equal(summary.pages - 1);
  });

  it('a logo is a Figure with its alternate text; a German document says de-DE', async function () {
    const logo = `data:image/png;base64,${solidPng(40, 20).toString('base64')}`;
    const body = { ...example('invoice.json'), logo, from: 'Bäckerei Müller GmbH\nHauptstraße 5' };
    const { problems, summary } = await archiveCheck(await pdfOf(service, body, { 'accept-language': 'de-DE' }));
    expect(problems).to.deep.equal([]);
    expect(summary.figures).to.deep.equal(['Logo von Bäckerei Müller GmbH']);
    expect(summary.xmp.language).to.equal('de-DE');
  });

  it('a block in another script says its language: Arabic and Bengali in an English invoice, Latin in a Thai one', async function () {
    const body = {
      ...example('invoice.json'),
      to: 'شركة النور للتجارة\nشارع الملك فهد',
      items: [
        { name: 'রবীন্দ্র রচনাবলী', quantity: 1, unit_cost: 12 },
        { name: 'Plain English line', quantity: 1, unit_cost: 3 },
      ],
    };
    const english = await archiveCheck(await pdfOf(service, body));
    expect(english.problems).to.deep.equal([]);
    const langs = english.elems.filter((e) => e.lang).map((e) => e.lang);
    expect(langs).to.include.members(['ar', 'bn']);
    expect(langs.filter((l) => l !== 'ar' && l !== 'bn' && l !== 'en-US')).to.deep.equal([]);
    // Chromium wraps the Arabic line in /ReversedChars, which tags nothing: what it holds is marked too.
    const thai = await archiveCheck(await pdfOf(service, body, { 'accept-language': 'th-TH' }));
    expect(thai.problems).to.deep.equal([]);
    expect(thai.summary.xmp.language).to.equal('th-TH');
    expect(thai.elems.filter((e) => e.lang).map((e) => e.lang)).to.include.members(['ar', 'bn', 'und-Latn']);
  });

  it('a Factur-X invoice and a received e-invoice shown as PDF pass every check too', async function () {
    const facturX = await post(service, { ...example('invoice.json'), currency: 'EUR', e_invoice: E_INVOICE }, { path: '/factur-x' });
    expect(facturX.status, facturX.status === 200 ? '' : await facturX.text()).to.equal(200);
    const fx = await archiveCheck(Buffer.from(await facturX.arrayBuffer()));
    expect(fx.problems).to.deep.equal([]);
    const received = await postReceived(service, readExample('en16931-ubl/ubl-tc434-example1.xml'), '/');
    expect(received.status).to.equal(200);
    const shown = await archiveCheck(Buffer.from(await received.arrayBuffer()));
    expect(shown.problems).to.deep.equal([]);
  });

  describe('each check fails on a file changed by hand', function () {
    let good: Buffer;
    before(async function () {
      good = await pdfOf(service, longStatement(40));
      expect((await archiveCheck(good)).problems).to.deep.equal([]);
    });

    it('the OutputIntent removed', async function () {
      const bad = patchPdf(good, (file) => {
        const { ref, value } = catalogOf(file);
        const { '/OutputIntents': _, ...rest } = value;
        return { [ref]: { value: rest } };
      });
      expect((await archiveCheck(bad)).problems).to.include('no GTS_PDFA1 OutputIntent with a 3-component ICC profile');
    });

    it("a header cell's scope dropped", async function () {
      const bad = patchPdf(good, (file) => {
        const th = findObject(file, (d) => d['/S'] === '/TH');
        return { [th.ref]: { value: { ...th.dict, '/A': [] } } };
      });
      expect((await archiveCheck(bad)).problems.join('\n')).to.match(/1 of \d+ TH cells without \/Scope/);
    });

    it('a parent-tree entry leading elsewhere, an identifier used twice, a /Headers naming nothing', async function () {
      const bad = patchPdf(good, (file) => {
        const root = file.dict(catalogOf(file).value['/StructTreeRoot']);
        const nums = file.dict(root['/ParentTree'])['/Nums'] as string[];
        const arrayRef = nums[1]!;
        const array = file.resolve(arrayRef) as string[];
        const ths = [...file.objects].filter(([, o]) => o.dict === undefined && (o.value as Dict | null)?.['/S'] === '/TH');
        const [first, second] = ths.map(([ref, o]) => ({ ref, dict: o.value as Dict }));
        const td = findObject(file, (d) => Array.isArray(d['/A']) && JSON.stringify(d['/A']).includes('/Headers'));
        return {
          [arrayRef]: { value: [array[1]!, array[0]!, ...array.slice(2)] },
          [second!.ref]: { value: { ...second!.dict, '/ID': first!.dict['/ID']! } },
          [td.ref]: { value: { ...td.dict, '/A': [{ '/O': '/Table', '/Headers': ['u:nobody'] }] } },
        };
      });
      const problems = (await archiveCheck(bad)).problems.join('\n');
      expect(problems).to.match(/\d+ marked-content sequences or annotations whose parent-tree entry is not their element/);
      expect(problems).to.match(/1 element identifiers used twice/);
      expect(problems).to.match(/\d+ table \/Headers naming no element/);
    });

    it('the reading order changed: the children of the element holding the items table reversed', async function () {
      const bad = patchPdf(good, (file) => {
        const table = findObject(file, (d) => d['/S'] === '/Table' && Array.isArray(d['/K']) && (d['/K'] as unknown[]).length > 5);
        const parentRef = table.dict['/P'] as string;
        const parent = file.dict(parentRef);
        return { [parentRef]: { value: { ...parent, '/K': [...(parent['/K'] as string[])].reverse() } } };
      });
      expect((await archiveCheck(bad)).problems.join('\n')).to.match(/\d+ text sequences out of reading order/);
    });

    it('the XMP without pdfuaid:part, and a wrong conformance', async function () {
      const bad = patchPdf(good, (file) => {
        const { value } = catalogOf(file);
        const ref = value['/Metadata'] as string;
        const xmp = file
          .data(ref)
          .toString('utf8')
          .replace(/<pdfuaid:part>1<\/pdfuaid:part>/, '')
          .replace('>A</pdfaid:conformance>', '>B</pdfaid:conformance>');
        return { [ref]: { stream: { dict: { '/Type': '/Metadata', '/Subtype': '/XML' }, data: Buffer.from(xmp).toString('base64') } } };
      });
      const { problems } = await archiveCheck(bad);
      expect(problems).to.include('XMP pdfuaid:part is undefined, not 1');
      expect(problems).to.include('XMP pdfaid:conformance is B, not A');
    });

    it('a page number painted outside any tag, and the header row tagged again on page 2', async function () {
      // Page 2's content as Chromium wrote it, before the artifacts were marked: the service's own first revision.
      const file = path.join(tempDir('archive-bad'), 'good.pdf');
      fs.writeFileSync(file, good);
      const chromiumEnd = good.toString('latin1').indexOf('%%EOF') + '%%EOF\n'.length;
      const pages = (qpdfJson(file).dict(catalogOf(qpdfJson(file)).value['/Pages'])['/Kids'] as string[]).map((r) =>
        Number(r.split(' ')[0]),
      );
      const original = Buffer.from(good.subarray(0, chromiumEnd));
      const origFile = path.join(tempDir('archive-bad'), 'chromium.pdf');
      fs.writeFileSync(origFile, original);
      const page2 = qpdfJson(origFile).dict(`${pages[1]} 0 R`);
      const contentNum = Number((page2['/Contents'] as string).split(' ')[0]);
      const chromiumContent = qpdfJson(origFile).data(`${contentNum} 0 R`);
      const bad = appendUpdate(good, {
        [contentNum]: Buffer.concat([
          Buffer.from(`<< /Length ${chromiumContent.length} >>\nstream\n`),
          chromiumContent,
          Buffer.from('\nendstream'),
        ]),
      });
      const { problems } = await archiveCheck(bad);
      expect(problems.join('\n')).to.match(/\d+ painting operators outside any tag or artifact/);
      expect(problems.join('\n')).to.match(/column header cells tagged on more than one page|MCID \d+ is in no structure element/);
    });
  });
});
