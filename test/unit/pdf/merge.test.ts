// The merge of tagged PDFs (the /batch PDF), on small tagged PDFs made here with a table header cell, a cell that
// names it in /Headers, and a link annotation (the whole path on Chromium's documents: test/e2e/signing.test.ts
// and batch.test.ts): each document's tree becomes a titled Part under one Document; the second document's parent-
// tree keys (a page's /StructParents, an annotation's /StructParent) move past the first's and still lead to their
// elements; identifiers take a per-document prefix, /Headers with them; and the outline lists the documents.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef, PDFString, type PDFObject } from '@cantoo/pdf-lib';
import { expect } from 'chai';
import { PdfMerger } from '../../../server/pdf/merge';

const N = (name: string) => PDFName.of(name);

/** A one-page tagged PDF: a TH (/ID h1) and a TD naming it, both marked on the page, and a Link with an OBJR. */
async function taggedPdf(title: string, lang: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const ctx = doc.context;
  const page = doc.addPage([200, 200]);
  const content = '/P <</MCID 0>> BDC 0 0 10 10 re f EMC /P <</MCID 1>> BDC 0 20 10 10 re f EMC';
  page.node.set(N('Contents'), ctx.register(ctx.stream(content)));
  page.node.set(N('StructParents'), PDFNumber.of(0));
  const [rootRef, docRef, thRef, tdRef, linkRef, annotRef] = [1, 2, 3, 4, 5, 6].map(() => ctx.nextRef()) as PDFRef[];
  ctx.assign(annotRef!, ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 40, 10, 50], StructParent: 1, F: 4 }));
  page.node.set(N('Annots'), ctx.obj([annotRef!]));
  ctx.assign(rootRef!, ctx.obj({ Type: 'StructTreeRoot', K: docRef!, ParentTreeNextKey: 2 }));
  ctx.assign(docRef!, ctx.obj({ Type: 'StructElem', S: 'Document', P: rootRef!, Lang: PDFString.of(lang), K: [thRef!, tdRef!, linkRef!] }));
  ctx.assign(thRef!, ctx.obj({ Type: 'StructElem', S: 'TH', P: docRef!, Pg: page.ref, K: 0, ID: PDFString.of('h1') }));
  ctx.assign(
    tdRef!,
    ctx.obj({ Type: 'StructElem', S: 'TD', P: docRef!, Pg: page.ref, K: 1, A: { O: 'Table', Headers: [PDFString.of('h1')] } }),
  );
  ctx.assign(linkRef!, ctx.obj({ Type: 'StructElem', S: 'Link', P: docRef!, K: { Type: 'OBJR', Obj: annotRef!, Pg: page.ref } }));
  const root = ctx.lookup(rootRef!, PDFDict);
  root.set(N('ParentTree'), ctx.register(ctx.obj({ Nums: [0, ctx.register(ctx.obj([thRef!, tdRef!])), 1, linkRef!] })));
  root.set(N('IDTree'), ctx.register(ctx.obj({ Names: [PDFString.of('h1'), thRef!] })));
  doc.catalog.set(N('StructTreeRoot'), rootRef!);
  doc.catalog.set(N('Lang'), PDFString.of(lang));
  return doc.save({ useObjectStreams: false });
}

describe('merging tagged PDFs (the /batch PDF)', function () {
  let merged: PDFDocument;
  let bytes: Buffer;
  before(async function () {
    const merger = new PdfMerger();
    await merger.add(await taggedPdf('Invoice 1', 'en-GB'));
    await merger.add(await taggedPdf('Facture 2', 'fr-FR'));
    bytes = await merger.save({ title: 'Batch of 2 documents', creator: 'docgen' }, 'producer');
    merged = await PDFDocument.load(bytes);
  });
  const ctx = () => merged.context;
  const lookup = (o: PDFObject | undefined) => ctx().lookup(o);
  const dict = (o: PDFObject | undefined) => lookup(o) as PDFDict;
  const array = (o: PDFObject | undefined) => (lookup(o) as PDFArray).asArray();
  const text = (o: PDFObject | undefined) => (lookup(o) as PDFString).decodeText();
  const root = () => dict(merged.catalog.get(N('StructTreeRoot')));
  const parts = () => array(dict(root().get(N('K'))).get(N('K')));
  const kids = (part: PDFObject) => array(dict(part).get(N('K')));

  it('is a file qpdf finds no error in, with both pages in order', function () {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-merge-')), 'merged.pdf');
    fs.writeFileSync(file, bytes);
    expect(execFileSync('qpdf', ['--check', file]).toString()).to.match(/No syntax or stream encoding errors found/);
    expect(merged.getPageCount()).to.equal(2);
  });

  it('puts each document under one Document as a Part titled with its title, keeping its language', function () {
    const top = dict(root().get(N('K')));
    expect(top.get(N('S'))).to.equal(N('Document'));
    expect(text(top.get(N('Lang')))).to.equal('en-GB');
    expect(text(merged.catalog.get(N('Lang')))).to.equal('en-GB');
    expect(parts().map((p) => [dict(p).get(N('S')), text(dict(p).get(N('T'))), text(dict(p).get(N('Lang')))])).to.deep.equal([
      [N('Part'), 'Invoice 1', 'en-GB'],
      [N('Part'), 'Facture 2', 'fr-FR'],
    ]);
    for (const part of parts()) expect(dict(part).get(N('P'))).to.equal(root().get(N('K')));
  });

  it("moves the second document's parent-tree keys past the first's, each still leading to its element", function () {
    const nums = array(dict(root().get(N('ParentTree'))).get(N('Nums')));
    const tree = new Map<number, PDFObject>();
    for (let i = 0; i < nums.length; i += 2) tree.set((nums[i] as PDFNumber).asNumber(), nums[i + 1]!);
    expect([...tree.keys()]).to.deep.equal([0, 1, 2, 3]);
    expect((lookup(root().get(N('ParentTreeNextKey'))) as PDFNumber).asNumber()).to.equal(4);
    merged.getPages().forEach((page, i) => {
      const [th, td, link] = kids(parts()[i]!);
      const key = (page.node.get(N('StructParents')) as PDFNumber).asNumber();
      expect(key).to.equal(2 * i);
      expect(array(tree.get(key))).to.deep.equal([th, td]);
      const annot = array(page.node.get(N('Annots')))[0]!;
      const annotKey = (dict(annot).get(N('StructParent')) as PDFNumber).asNumber();
      expect(annotKey).to.equal(2 * i + 1);
      expect(tree.get(annotKey)).to.equal(link);
      expect(dict(dict(link).get(N('K'))).get(N('Obj'))).to.equal(annot);
      expect(dict(th).get(N('Pg'))).to.equal(page.ref);
    });
  });

  it('gives identifiers a prefix per document, the /Headers naming them and the ID tree with them', function () {
    const ids = parts().map((p) => text(dict(kids(p)[0]).get(N('ID'))));
    expect(ids).to.deep.equal(['d1-h1', 'd2-h1']);
    const headers = parts().map((p) => array(dict(dict(kids(p)[1]).get(N('A'))).get(N('Headers'))).map(text));
    expect(headers).to.deep.equal([['d1-h1'], ['d2-h1']]);
    const names = array(dict(root().get(N('IDTree'))).get(N('Names')));
    expect([text(names[0]), names[1], text(names[2]), names[3]]).to.deep.equal([
      'd1-h1',
      kids(parts()[0]!)[0],
      'd2-h1',
      kids(parts()[1]!)[0],
    ]);
  });

  it('lists the documents in an outline, each at its page, and is marked, titled and archived', function () {
    const outlines = dict(merged.catalog.get(N('Outlines')));
    const first = dict(outlines.get(N('First')));
    const second = dict(first.get(N('Next')));
    expect([text(first.get(N('Title'))), text(second.get(N('Title')))]).to.deep.equal(['Invoice 1', 'Facture 2']);
    expect([array(first.get(N('Dest')))[0], array(second.get(N('Dest')))[0]]).to.deep.equal(merged.getPages().map((p) => p.ref));
    expect(
      dict(merged.catalog.get(N('MarkInfo')))
        .get(N('Marked'))
        ?.toString(),
    ).to.equal('true');
    expect(merged.catalog.get(N('Metadata'))).to.be.instanceOf(PDFRef);
    expect(merged.getTitle()).to.equal('Batch of 2 documents');
  });
});
