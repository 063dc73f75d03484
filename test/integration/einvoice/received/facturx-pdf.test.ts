// The received Factur-X / ZUGFeRD PDF reader on real files: the service's own Factur-X EN 16931 and XRechnung PDFs
// (test/fixtures/facturx/, made by `npm run render -- test/fixtures/facturx/<name>.json --factur-x -o
// test/fixtures/facturx/<name>.pdf`) read back with the XML equal to what pdfdetach extracts and no check failing;
// then the same files broken on purpose by qpdf (--update-from-json, --encrypt, --add-attachment) or by plain bytes,
// each failing the one check it breaks. The hostile files are in facturx-pdf-hostile.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { expect } from 'chai';
import { projectRoot } from '../../../../server/config';
import { DomainError } from '../../../../server/errors';
import { checkConformanceLevel, readFacturXPdf, type Check } from '../../../../server/einvoice/received/facturx-pdf';
import { appendUpdate, catalogOf, findObject, patchPdf, type Patched } from '../../../helpers/pdf-patch';
import { qpdfJson, type Dict, type QpdfFile } from '../../../helpers/pdfa-reader';
import { tempDir } from '../../../helpers/service';

const FIXTURES = path.join(projectRoot(), 'test', 'fixtures', 'facturx');
const en16931 = fs.readFileSync(path.join(FIXTURES, 'en16931.pdf'));
const xrechnung = fs.readFileSync(path.join(FIXTURES, 'xrechnung.pdf'));

/** The embedded files as pdfdetach (poppler) extracts them. */
function detach(pdf: Buffer): Record<string, Buffer> {
  const dir = tempDir('fx-detach');
  fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
  const out = path.join(dir, 'files');
  fs.mkdirSync(out);
  execFileSync('pdfdetach', ['-saveall', '-o', out, path.join(dir, 'in.pdf')]);
  return Object.fromEntries(fs.readdirSync(out).map((f) => [f, fs.readFileSync(path.join(out, f))]));
}

const guideline = (xml: Uint8Array) =>
  /<ram:GuidelineSpecifiedDocumentContextParameter>\s*<ram:ID>([^<]+)</.exec(Buffer.from(xml).toString('utf8'))?.[1] ?? '';
const rules = (checks: Check[]) => [...new Set(checks.map((c) => `${c.rule} ${c.severity}`))].sort();

/** The XMP packet with `edit` applied (a stream patch of the catalog's /Metadata). */
const xmpEdit =
  (edit: (xmp: string) => string) =>
  (f: QpdfFile): Record<string, Patched> => {
    const ref = catalogOf(f).value['/Metadata'] as string;
    const xmp = edit(f.data(ref).toString('utf8'));
    return { [ref]: { stream: { dict: { '/Type': '/Metadata', '/Subtype': '/XML' }, data: Buffer.from(xmp, 'utf8').toString('base64') } } };
  };

/** The catalog with `edit` applied. */
const catalogEdit =
  (edit: (catalog: Dict) => Dict) =>
  (f: QpdfFile): Record<string, Patched> => {
    const { ref, value } = catalogOf(f);
    return { [ref]: { value: edit({ ...value }) } };
  };

const without = (key: string) => (d: Dict) => Object.fromEntries(Object.entries(d).filter(([k]) => k !== key));
/** A stream dictionary for data given decoded (qpdf compresses it again on writing). */
const unfiltered = (d: Dict) => without('/DecodeParms')(without('/Filter')(without('/Length')(d)));

/** The invoice's file specification with `edit` applied. */
const specEdit =
  (edit: (spec: Dict, f: QpdfFile) => Dict) =>
  (f: QpdfFile): Record<string, Patched> => {
    const ref = (catalogOf(f).value['/AF'] as string[])[0]!;
    return { [ref]: { value: edit({ ...f.dict(ref) }, f) } };
  };

describe('Factur-X PDF reader: the files the service makes', function () {
  this.timeout(60000);

  before(async function () {
    // The worker's first start (under tsx) compiles the reader: not part of any case below.
    await readFacturXPdf(en16931);
  });

  it('EN 16931: factur-x.xml byte for byte as pdfdetach extracts it, the XMP declared, no check failing', async function () {
    const read = await readFacturXPdf(en16931);
    expect(read.attachment).to.equal('factur-x.xml');
    expect(Buffer.from(read.xml).equals(detach(en16931)['factur-x.xml']!)).to.equal(true);
    expect(read.declared).to.deep.equal({ conformanceLevel: 'EN 16931', documentType: 'INVOICE', version: '1.0' });
    expect(read.checks).to.deep.equal([]);
    expect(checkConformanceLevel(read.declared.conformanceLevel, guideline(read.xml))).to.equal(undefined);
  });

  it('XRechnung: xrechnung.xml byte for byte, level XRECHNUNG agreeing with the XML, no check failing', async function () {
    const read = await readFacturXPdf(xrechnung);
    expect(read.attachment).to.equal('xrechnung.xml');
    expect(Buffer.from(read.xml).equals(detach(xrechnung)['xrechnung.xml']!)).to.equal(true);
    expect(read.declared.conformanceLevel).to.equal('XRECHNUNG');
    expect(read.checks).to.deep.equal([]);
    expect(guideline(read.xml)).to.match(/xrechnung_3\.0$/);
    expect(checkConformanceLevel('XRECHNUNG', guideline(read.xml))).to.equal(undefined);
  });

  it("qpdf's rewrite alone (the base of the broken files below) breaks no check", async function () {
    expect((await readFacturXPdf(patchPdf(en16931, () => ({})))).checks).to.deep.equal([]);
  });
});

interface Broken {
  what: string;
  make: () => Buffer;
  /** The failing rules, each with its severity. */
  fails: string[];
}

const BROKEN: Broken[] = [
  {
    what: 'OutputIntents removed',
    make: () => patchPdf(en16931, catalogEdit(without('/OutputIntents'))),
    fails: ['PDFA3-OUTPUTINTENT fatal'],
  },
  {
    what: "the OutputIntent's ICC profile replaced by text",
    make: () =>
      patchPdf(en16931, (f) => {
        const intent = (f.resolve(catalogOf(f).value['/OutputIntents']) as Dict[])[0]!;
        const ref = intent['/DestOutputProfile'] as string;
        return { [ref]: { stream: { dict: { '/N': 3 }, data: Buffer.from('not a profile '.repeat(20)).toString('base64') } } };
      }),
    fails: ['PDFA3-OUTPUTINTENT fatal'],
  },
  { what: '/AF removed', make: () => patchPdf(en16931, catalogEdit(without('/AF'))), fails: ['PDFA3-AF fatal'] },
  { what: '/AFRelationship removed', make: () => patchPdf(en16931, specEdit(without('/AFRelationship'))), fails: ['PDFA3-AF fatal'] },
  {
    what: '/AFRelationship /Supplement',
    make: () =>
      patchPdf(
        en16931,
        specEdit((s) => ({ ...s, '/AFRelationship': '/Supplement' })),
      ),
    fails: ['FX-AF-RELATIONSHIP warning'],
  },
  {
    what: 'fx:ConformanceLevel GOLD',
    make: () =>
      patchPdf(
        en16931,
        xmpEdit((x) => x.replace('>EN 16931</fx:ConformanceLevel>', '>GOLD</fx:ConformanceLevel>')),
      ),
    fails: ['FX-XMP fatal'],
  },
  {
    what: 'fx:DocumentFileName invoice.xml',
    make: () =>
      patchPdf(
        en16931,
        xmpEdit((x) => x.replace('>factur-x.xml</fx:DocumentFileName>', '>invoice.xml</fx:DocumentFileName>')),
      ),
    fails: ['FX-XMP fatal'],
  },
  {
    what: 'the fx: extension schema removed',
    make: () =>
      patchPdf(
        en16931,
        xmpEdit((x) => x.replace(/<rdf:Description[^>]*xmlns:pdfaExtension[\s\S]*?<\/rdf:Description>/, '')),
      ),
    fails: ['FX-XMP fatal'],
  },
  {
    what: 'pdfaid:part 2',
    make: () =>
      patchPdf(
        en16931,
        xmpEdit((x) => x.replace('<pdfaid:part>3<', '<pdfaid:part>2<')),
      ),
    fails: ['PDFA3-XMP-PDFAID fatal'],
  },
  { what: '/Metadata removed', make: () => patchPdf(en16931, catalogEdit(without('/Metadata'))), fails: ['PDFA3-XMP fatal'] },
  {
    // qpdf writes XMP uncompressed whatever it is told: an incremental update appended by hand instead.
    what: 'the XMP stream compressed (an incremental update)',
    make: () => {
      const f = qpdfJson(path.join(FIXTURES, 'en16931.pdf'));
      const ref = catalogOf(f).value['/Metadata'] as string;
      const data = deflateSync(f.data(ref));
      const head = `<< /Type /Metadata /Subtype /XML /Filter /FlateDecode /Length ${data.length} >>\nstream\n`;
      return appendUpdate(en16931, { [parseInt(ref, 10)]: Buffer.concat([Buffer.from(head), data, Buffer.from('\nendstream')]) });
    },
    fails: ['PDFA3-XMP fatal'],
  },
  {
    what: 'a font program removed from its descriptor',
    make: () =>
      patchPdf(en16931, (f) => {
        const d = findObject(f, (o) => o['/Type'] === '/FontDescriptor');
        return { [d.ref]: { value: without('/FontFile2')(without('/FontFile3')(without('/FontFile')(d.dict))) } };
      }),
    fails: ['PDFA3-FONTS-EMBEDDED fatal'],
  },
  {
    what: 'a second file attached by qpdf (no /AFRelationship, not in /AF)',
    make: () => {
      const extra = path.join(tempDir('fx-extra'), 'notes.txt');
      fs.writeFileSync(extra, 'hello');
      return patchPdf(en16931, () => ({}), ['--add-attachment', extra, '--mimetype=text/plain', '--']);
    },
    fails: ['PDFA3-FILESPEC fatal'],
  },
  {
    what: 'a second file named factur-x.xml (another invoice) attached by qpdf beside the first',
    make: () => {
      const other = path.join(tempDir('fx-other'), 'other.xml');
      fs.writeFileSync(other, '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>');
      return patchPdf(en16931, () => ({}), [
        '--add-attachment',
        other,
        '--key=second',
        '--filename=factur-x.xml',
        '--mimetype=text/xml',
        '--',
      ]);
    },
    fails: ['FX-ATTACHMENT-UNIQUE fatal', 'PDFA3-FILESPEC fatal'],
  },
  {
    what: 'the /Params /CheckSum of another file',
    make: () =>
      patchPdf(en16931, (f) => {
        const ref = f.dict(f.dict((catalogOf(f).value['/AF'] as string[])[0])['/EF'])['/F'] as string;
        const o = f.objects.get(ref)!;
        const params = { ...(o.dict!['/Params'] as Dict), '/CheckSum': `b:${'00'.repeat(16)}` };
        return { [ref]: { stream: { dict: { ...unfiltered(o.dict!), '/Params': params }, data: o.data!.toString('base64') } } };
      }),
    fails: ['PDF-EMBEDDED-CHECKSUM fatal'],
  },
  {
    what: 'a page tree that contains itself',
    make: () =>
      patchPdf(en16931, (f) => {
        const ref = catalogOf(f).value['/Pages'] as string;
        const pages = f.dict(ref);
        return { [ref]: { value: { ...pages, '/Kids': [...(pages['/Kids'] as string[]), ref] } } };
      }),
    fails: ['PDF-PAGE-TREE fatal'],
  },
  {
    what: 'a JavaScript /OpenAction',
    make: () =>
      patchPdf(
        en16931,
        catalogEdit((c) => ({ ...c, '/OpenAction': { '/S': '/JavaScript', '/JS': 'u:app.alert(1)' } })),
      ),
    fails: ['PDFA3-ACTIONS fatal'],
  },
  {
    what: 'a stream with its data in an external file',
    make: () =>
      patchPdf(en16931, (f) => {
        const s = findObject(f, (o) => o['/Type'] === '/FontDescriptor');
        const font = s.dict['/FontFile2'] as string;
        const o = f.objects.get(font)!;
        return { [font]: { stream: { dict: { ...unfiltered(o.dict!), '/F': 'u:font.ttf' }, data: o.data!.toString('base64') } } };
      }),
    fails: ['PDFA3-STREAMS fatal'],
  },
  { what: 'bytes after the last %%EOF', make: () => Buffer.concat([en16931, Buffer.from('\n% appended\n')]), fails: ['PDFA3-FILE fatal'] },
  {
    what: 'the invoice named Factur-X.xml',
    make: () =>
      patchPdf(en16931, (f) => {
        const { ref, value } = catalogOf(f);
        const spec = (value['/AF'] as string[])[0]!;
        const names = { '/EmbeddedFiles': { '/Names': ['u:Factur-X.xml', spec] } };
        return {
          [ref]: { value: { ...value, '/Names': names } },
          [spec]: { value: { ...f.dict(spec), '/F': 'u:Factur-X.xml', '/UF': 'u:Factur-X.xml' } },
        };
      }),
    fails: ['FX-ATTACHMENT-NAME warning', 'FX-XMP fatal'],
  },
];

describe('Factur-X PDF reader: each check fails on a file broken for it', function () {
  this.timeout(60000);

  for (const b of BROKEN) {
    it(`${b.what} → ${b.fails.join(', ')}`, async function () {
      const read = await readFacturXPdf(b.make());
      expect(rules(read.checks), JSON.stringify(read.checks, null, 1)).to.deep.equal(b.fails);
      expect(read.attachment).to.be.oneOf(['factur-x.xml']);
    });
  }

  it('fx:ConformanceLevel BASIC on an EN 16931 XML → FX-LEVEL (the XMP alone is fine)', async function () {
    const read = await readFacturXPdf(
      patchPdf(
        en16931,
        xmpEdit((x) => x.replace('>EN 16931<', '>BASIC<')),
      ),
    );
    expect(read.checks).to.deep.equal([]);
    expect(read.declared.conformanceLevel).to.equal('BASIC');
    const check = checkConformanceLevel(read.declared.conformanceLevel, guideline(read.xml));
    expect(check).to.include({ rule: 'FX-LEVEL', severity: 'fatal' });
    expect(check!.message).to.contain('EN 16931');
    expect(checkConformanceLevel('EN 16931', 'urn:example:not-factur-x')).to.include({ rule: 'FX-LEVEL', severity: 'warning' });
  });

  it('encrypted by qpdf (AES-256, empty user password) → refused: unsupported_document naming PDFA3-NO-ENCRYPT', async function () {
    const encrypted = patchPdf(en16931, () => ({}), ['--encrypt', '', 'owner', '256', '--']);
    const err = await readFacturXPdf(encrypted).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).code).to.equal('unsupported_document');
    expect((err as DomainError).message)
      .to.contain('encrypted PDF')
      .and.to.contain('PDFA3-NO-ENCRYPT');
  });
});
