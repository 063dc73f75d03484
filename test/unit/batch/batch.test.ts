// POST /batch's core without HTTP (server/batch/batch.ts), on the real pipeline with a renderer that records its calls
// instead of Chromium: every document checked before anything renders (one 400 naming each bad field as
// `documents[i].…`, the e-invoice mapping included), a document's own format winning over the batch's, each file
// named as its single operation names it, and equal names made unique.
import { expect } from 'chai';
import fc from 'fast-check';
import { DomainError } from '../../../server/errors';
import { checkMergedBudget, prepareBatch, renderBatchItem, type BatchItem } from '../../../server/batch/batch';
import { UniqueNames } from '../../../server/documents/filename';
import type { Locale } from '../../../server/render/labels/locale';
import { E_INVOICE } from '../../helpers/e-invoice-request';
import { openPipelineWithoutBrowser, type PipelineWithoutBrowser } from '../../helpers/pipeline-without-browser';

const MAX = 5;
const EN: Locale = { language: 'en', tag: 'en-US' };
const invoice = (number: string, extra: Record<string, unknown> = {}) => ({
  from: 'Acme NV',
  to: 'Client BV',
  number,
  currency: 'EUR',
  items: [{ name: 'Consulting', quantity: 2, unit_cost: 150 }],
  ...extra,
});
const eInvoice = (number: string, extra: Record<string, unknown> = {}) => invoice(number, { e_invoice: E_INVOICE, ...extra });

describe('batch core (prepare, render, names)', function () {
  let p: PipelineWithoutBrowser;
  before(async function () {
    p = await openPipelineWithoutBrowser();
  });
  after(async function () {
    await p?.close();
  });

  const prepare = (body: unknown, max = MAX): Promise<BatchItem[]> => prepareBatch(p.pipeline, body as never, EN, max);
  async function refusal(body: unknown, max = MAX): Promise<DomainError> {
    const calls = p.renderer.calls.length;
    try {
      await prepare(body, max);
    } catch (err) {
      expect(err).to.be.instanceOf(DomainError);
      expect(p.renderer.calls.length, 'nothing printed while checking').to.equal(calls);
      return err as DomainError;
    }
    throw new Error('the batch was accepted');
  }
  const fields = (err: DomainError) => err.facts.details!.map((d) => d.field);

  it('refuses one merged PDF of more than four documents’ worth of lines, each document within its own', async function () {
    // 100 documents within their own budget made one 5,800-page PDF. A ZIP (a document at a time) and e-invoices that
    // are not PDFs are not bounded so.
    const limit = p.pipeline.maxPrintedLines;
    // Lines of six printed lines each (a name and a five-line description), up to 90 % of one document's budget.
    const long = (number: string, lines: number) =>
      invoice(number, { items: Array.from({ length: Math.floor(lines / 6) }, () => ({ name: 'x', description: '1\n2\n3\n4\n5' })) });
    const near = Math.floor(limit * 0.9);
    const five = await prepare({ documents: [1, 2, 3, 4, 5].map((n) => long(String(n), near)) });
    expect(five).to.have.length(5);
    let err: unknown;
    try {
      checkMergedBudget(five, limit);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(DomainError);
    expect(fields(err as DomainError)).to.deep.equal(['documents']);
    expect((err as DomainError).facts.details![0]!.message).to.match(
      /^documents print about [\d,]+ lines in all; a batch may print at most [\d,]+ \(about [\d,]+ pages\): send it as several$/,
    );
    expect(() => checkMergedBudget(five.slice(0, 4), limit)).to.not.throw();
  });

  it('prepares every document, each in its own format or the batch’s (pdf by default), without its format field', async function () {
    const items = await prepare({
      format: 'cii',
      documents: [eInvoice('1'), { ...invoice('2'), format: 'pdf' }, { ...eInvoice('3'), format: 'ubl' }],
    });
    expect(items.map((i) => [i.format, i.prepared.doc.number])).to.deep.equal([
      ['cii', '1'],
      ['pdf', '2'],
      ['ubl', '3'],
    ]);
    expect(items[1]!.prepared.doc).to.not.have.property('format');
    expect((await prepare({ documents: [invoice('4')] })).map((i) => i.format)).to.deep.equal(['pdf']);
    expect(items[0]!.prepared.totals.total.toFixed(2)).to.equal('300.00');
  });

  it('the batch’s own fields: not an object, an unknown format and a list of 0 or more than the most, named together', async function () {
    expect(fields(await refusal([invoice('1')]))).to.deep.equal(['(body)']);
    const both = await refusal({ format: 'docx', documents: [] });
    expect(both.code).to.equal('validation_failed');
    expect(fields(both)).to.deep.equal(['format', 'documents']);
    expect(both.facts.details![1]!.message).to.equal(`documents must be a list of 1 to ${MAX} documents`);
    const many = Array.from({ length: MAX + 1 }, (_, i) => invoice(String(i)));
    expect(fields(await refusal({ documents: many }))).to.deep.equal(['documents']);
    expect(await prepare({ documents: many.slice(0, MAX) })).to.have.length(MAX);
    expect(fields(await refusal({ documents: 'all of them' }))).to.deep.equal(['documents']);
  });

  it('one 400 naming every bad field of every document, prefixed documents[i], the good ones not named', async function () {
    const err = await refusal({
      documents: [
        invoice('1'),
        invoice('2', { items: [{ name: 'A', quantity: 'many', unit_cost: 1 }] }),
        { ...invoice('3'), format: 'docx' },
        'not a document',
        invoice('5', { currency: 'EURO', to: '' }),
      ],
    });
    expect(err.code).to.equal('validation_failed');
    expect(err.message).to.match(/^Invalid document: documents\[1\]: /);
    expect(fields(err)).to.have.members([
      'documents[1].items[0].quantity',
      'documents[2].format',
      'documents[3]',
      'documents[4].currency',
      'documents[4].to',
    ]);
    for (const d of err.facts.details!) expect(d.message).to.match(/^documents\[\d\]: /);
  });

  it('e-invoices are mapped while checking: what the model refuses is named before anything renders', async function () {
    const err = await refusal({ format: 'ubl', documents: [eInvoice('1'), invoice('', { e_invoice: E_INVOICE })] });
    expect(fields(err)).to.include('documents[1].number');
    expect(fields(err)).to.not.include('documents[0].number');
  });

  it('a type no e-invoice is made of: unsupported_type when every failure is one, validation_failed beside another', async function () {
    const quote = { ...invoice('Q-1'), type: 'quote' };
    const only = await refusal({ format: 'cii', documents: [eInvoice('1'), quote, { ...quote, number: 'Q-2' }] });
    expect(only.code).to.equal('unsupported_type');
    expect(only.message).to.match(/^Invalid batch: /);
    expect(fields(only)).to.deep.equal(['documents[1].type', 'documents[2].type']);
    const mixed = await refusal({ format: 'cii', documents: [quote, invoice('2', { items: [] })] });
    expect(mixed.code).to.equal('validation_failed');
    expect(fields(mixed)).to.include.members(['documents[0].type', 'documents[1].items']);
    // A quote as a PDF is fine.
    expect(await prepare({ documents: [quote] })).to.have.length(1);
  });

  it('renders each file as its single operation: a PDF named for its type and number, CII and UBL as XML', async function () {
    const signal = new AbortController().signal;
    const items = await prepare({
      documents: [
        invoice('INV/7'),
        { ...eInvoice('7'), format: 'cii' },
        { ...eInvoice('8', { e_invoice: { ...E_INVOICE, embed_pdf: false } }), format: 'ubl' },
      ],
    });
    const before = p.renderer.calls.length;
    const pdf = await renderBatchItem(p.pipeline, items[0]!, { signal });
    expect(pdf.filename).to.equal('invoice-INV_7.pdf');
    expect(pdf.pdf).to.equal(true);
    expect(Buffer.from(pdf.data).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(p.renderer.calls.length).to.equal(before + 1);
    expect(p.renderer.calls.at(-1)!.options.signal, 'the batch’s signal reaches the renderer').to.equal(signal);

    const cii = await renderBatchItem(p.pipeline, items[1]!, { signal });
    expect(cii).to.include({ filename: 'invoice-7.xml', pdf: false });
    expect(Buffer.from(cii.data).toString('utf8')).to.contain('<ram:ID>7</ram:ID>').and.contain('CrossIndustryInvoice');
    const ubl = await renderBatchItem(p.pipeline, items[2]!, { signal });
    expect(ubl).to.include({ filename: 'invoice-8.xml', pdf: false });
    expect(Buffer.from(ubl.data).toString('utf8')).to.contain('<cbc:ID>8</cbc:ID>').and.not.contain('EmbeddedDocumentBinaryObject');
    expect(p.renderer.calls.length, 'CII and UBL without its PDF print nothing').to.equal(before + 1);
  });

  it('names: the second invoice-1.pdf is invoice-1-2.pdf, then -3; case does not make a name new; no extension kept', async function () {
    const names = new UniqueNames();
    const given = [
      'invoice-1.pdf',
      'invoice-1.pdf',
      'Invoice-1.PDF',
      'invoice-1.xml',
      'invoice-1-2.pdf',
      'README',
      'README',
      '.pdf',
      '.pdf',
    ];
    expect(given.map((n) => names.name(n))).to.deep.equal([
      'invoice-1.pdf',
      'invoice-1-2.pdf',
      'Invoice-1-3.PDF',
      'invoice-1.xml',
      'invoice-1-2-2.pdf',
      'README',
      'README-2',
      '.pdf',
      '.pdf-2',
    ]);
  });

  it('names: any list of names comes out unique (ignoring case), each a first name unchanged', async function () {
    const name = fc.constantFrom('invoice-1.pdf', 'Invoice-1.pdf', 'invoice-1-2.pdf', 'invoice-1.xml', 'a', 'a-2', 'x.y.pdf', '.pdf');
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), (given) => {
        const names = new UniqueNames();
        const out = given.map((n) => names.name(n));
        expect(new Set(out.map((n) => n.toLowerCase())).size).to.equal(out.length);
        out.forEach((n, i) => {
          const taken = out.slice(0, i).some((o) => o.toLowerCase() === given[i]!.toLowerCase());
          if (!taken) expect(n, 'a name not taken yet is kept').to.equal(given[i]);
        });
      }),
      { seed: 29, numRuns: 300 },
    );
  });
});
