// The core without HTTP (server/pipeline.ts) on the project's data files and the real XSD validator, with a renderer
// that records what it is asked to print instead of Chromium: bodies parsed by kind, the locale of the client's
// language tags, every problem of a request in one error (an e-invoice of another type refused before its fields are
// read), what reaches the renderer (the page, the paper, the QR-bill's placement, the client's signal), the PDF made
// an archive, and the e-invoices written from the one model, XSD-valid, with the printed PDF inside UBL when asked.
// What Chromium prints from that is test/e2e's.
import { expect } from 'chai';
import { DomainError } from '../../server/errors';
import type { Locale } from '../../server/render/labels/locale';
import { E_INVOICE } from '../helpers/e-invoice-request';
import { openPipelineWithoutBrowser, type PipelineWithoutBrowser } from '../helpers/pipeline-without-browser';

const EN: Locale = { language: 'en', tag: 'en-US' };
const INVOICE = {
  from: 'Acme NV',
  to: 'Client BV',
  number: 'INV-42',
  currency: 'EUR',
  items: [
    { name: 'Consulting', quantity: 3, unit_cost: 150 },
    { name: 'Travel', quantity: 1, unit_cost: 80.5 },
  ],
  fields: { tax: '%' },
  tax: 21,
};
const E_INV = { ...INVOICE, e_invoice: E_INVOICE };

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (err) {
    expect(err).to.be.instanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('accepted');
}
const fields = (err: DomainError) => err.facts.details?.map((d) => d.field);

describe('document pipeline without HTTP', function () {
  let p: PipelineWithoutBrowser;
  before(async function () {
    p = await openPipelineWithoutBrowser();
  });
  after(async function () {
    await p?.close();
  });
  const lastCall = () => p.renderer.calls.at(-1)!;

  it('parses JSON and form bodies by kind; an empty or malformed body is refused with its own code', async function () {
    expect(await p.pipeline.parse('json', Buffer.from(JSON.stringify(INVOICE)))).to.deep.equal(INVOICE);
    const form = await p.pipeline.parse('form', Buffer.from('from=Acme&to=Client&items[0][name]=A&items[0][quantity]=2'));
    expect(form).to.deep.equal({ from: 'Acme', to: 'Client', items: [{ name: 'A', quantity: '2' }] });
    for (const [kind, raw, code] of [
      ['json', '', 'empty_body'],
      ['json', '{"from": ', 'malformed_json'],
      ['form', '', 'empty_body'],
    ] as const) {
      const err = await p.pipeline.parse(kind, Buffer.from(raw)).then(
        () => undefined,
        (e: unknown) => e as DomainError,
      );
      expect(err?.code, `${kind} ${JSON.stringify(raw)}`).to.equal(code);
    }
  });

  it('the locale of the first language there is a catalogue for, en-US otherwise; the QR-bill’s language apart', function () {
    expect(p.pipeline.locale([])).to.deep.equal(EN);
    expect(p.pipeline.locale(['xx', 'zz-ZZ'])).to.deep.equal(EN);
    expect(p.pipeline.locale(['fr'])).to.include({ language: 'fr', tag: 'fr-FR' });
    expect(p.pipeline.locale(['fr']).qrBill).to.equal('fr');
    expect(p.pipeline.locale(['de-CH', 'en'])).to.include({ language: 'de', tag: 'de-CH', qrBill: 'de' });
    expect(p.pipeline.locale(['es'])).to.not.have.property('qrBill');
  });

  it('prepare: the document with its totals, or one validation_failed naming every bad field', function () {
    const prepared = p.pipeline.prepare(INVOICE, EN);
    expect(prepared.doc).to.include({ type: 'invoice', number: 'INV-42', theme: 'classic', page_size: 'letter' });
    expect(prepared.totals.subtotal.toFixed(2)).to.equal('530.50');
    expect(prepared.totals.total.toFixed(2)).to.equal('641.91');
    expect(prepared.locale).to.equal(EN);
    const err = refusal(() =>
      p.pipeline.prepare({ ...INVOICE, to: '', currency: 'EURO', items: [{ name: 'A', quantity: 'two', unit_cost: 1 }] }, EN),
    );
    expect(err.code).to.equal('validation_failed');
    expect(fields(err)).to.have.members(['to', 'currency', 'items[0].quantity']);
  });

  it('prepare for an e-invoice: another type is unsupported_type before its fields are read; an invoice is checked as any', function () {
    const quote = refusal(() => p.pipeline.prepare({ type: ' Quote ', to: '', items: 'none' }, EN, true));
    expect(quote.code).to.equal('unsupported_type');
    expect(fields(quote)).to.deep.equal(['type']);
    expect(refusal(() => p.pipeline.prepare({ type: 'quote', to: '' }, EN)).code, 'not for a PDF').to.equal('validation_failed');
    expect(p.pipeline.prepare({ ...INVOICE, type: 'credit_note' }, EN, true).doc.type).to.equal('credit_note');
  });

  it('prepare: a document that would print past MAX_PRINTED_LINES, and a payment code it cannot carry, are refused', function () {
    const limit = p.config.limits.maxPrintedLines;
    const items = Array.from({ length: 100 }, (_, i) => ({
      name: `Line ${i}`,
      description: 'x\n'.repeat(Math.ceil(limit / 100)),
      quantity: 1,
      unit_cost: 1,
    }));
    const err = refusal(() => p.pipeline.prepare({ ...INVOICE, items }, EN));
    expect(err.code).to.equal('validation_failed');
    expect(err.message).to.match(/print/i);
    expect(p.pipeline.prepare({ ...INVOICE, items: items.slice(0, 90) }, EN).doc.items).to.have.length(90);
    const qr = refusal(() => p.pipeline.prepare({ ...INVOICE, currency: 'USD', payment_code: 'swiss_qr_bill' }, EN));
    expect(qr.code).to.equal('validation_failed');
    expect(fields(qr)).to.deep.equal(['e_invoice.payment_means.iban']);
  });

  it('prepare: amounts each within MAX_AMOUNT that multiply past it are refused, naming the line and the total', function () {
    // 1e12 × 1e12 printed as €1,000,000,000,000,000,000,000,000.00 on /, /ubl and /cii.
    const err = refusal(() =>
      p.pipeline.prepare(
        {
          ...INVOICE,
          items: [
            { name: 'A', quantity: 1e12, unit_cost: 1e12 },
            { name: 'B', quantity: 1, unit_cost: 1 },
          ],
        },
        EN,
      ),
    );
    expect(err.code).to.equal('validation_failed');
    expect(fields(err)).to.deep.equal(['items[0]', 'total']);
    expect(err.message).to.contain('items[0] amounts to 1,000,000,000,000,000,000,000,000; a line may amount to at most 1,000,000,000,000');
    expect(err.message).to.contain(
      'the total comes to 1,210,000,000,000,000,000,000,001.21; a document may come to at most 1,000,000,000,000,000',
    );
    // Lines each within the bound add up past it in a currency of large numbers: that is a document, up to 1e15.
    const irr = p.pipeline.prepare(
      {
        ...INVOICE,
        currency: 'IRR',
        items: [
          { name: 'A', quantity: 1, unit_cost: 6e11 },
          { name: 'B', quantity: 1, unit_cost: 6e11 },
        ],
      },
      EN,
    );
    expect(irr.totals.subtotal.toFixed()).to.equal('1200000000000');
    // Within the bound, a document is made.
    const big = p.pipeline.prepare({ ...INVOICE, items: [{ name: 'A', quantity: 1e5, unit_cost: 1e6 }] }, EN);
    expect(big.totals.subtotal.toFixed()).to.equal('100000000000');
  });

  it('renderPdf: the page and paper to the renderer with the client’s signal; the PDF made an archive and named', async function () {
    const signal = new AbortController().signal;
    const a4 = await p.pipeline.renderPdf(p.pipeline.prepare({ ...INVOICE, page_size: 'a4' }, EN), { signal });
    expect(lastCall().options).to.deep.equal({ signal, format: 'a4', pageBottom: false });
    expect(a4.filename).to.equal('invoice-INV-42.pdf');
    expect(a4.html.title).to.contain('INV-42');
    const text = Buffer.from(a4.pdf).toString('latin1');
    expect(text.startsWith('%PDF-')).to.equal(true);
    expect(text, 'PDF/A identification in the XMP').to.contain('pdfaid:part');
    expect(text).to.contain('docgen-service');
    await p.pipeline.renderPdf(p.pipeline.prepare(INVOICE, EN));
    expect(lastCall().options.format).to.equal('letter');
  });

  it('renderPdf: a Swiss QR-bill is printed on A4 at the last page’s foot, whatever the page size asked', async function () {
    // The guidelines' example 1: a QR-IBAN with a QR reference, CHF 50.00.
    const muster = { name: 'Max Muster & Söhne', street: 'Musterstrasse 123', postal_code: '8000', city: 'Seldwyla', country: 'CH' };
    const bill = {
      ...INVOICE,
      currency: 'CHF',
      tax: 0,
      page_size: 'letter',
      payment_code: 'swiss_qr_bill',
      e_invoice: {
        seller: muster,
        payment_means: { iban: 'CH64 3196 1000 0044 2155 7', payment_id: '00 00082 07791 22585 74212 86694' },
      },
    };
    await p.pipeline.renderPdf(p.pipeline.prepare(bill, EN));
    expect(lastCall().options).to.include({ format: 'a4', pageBottom: true });
  });

  it('a logo that cannot be had: the document is printed without it and the reason goes to the caller', async function () {
    const reasons: string[] = [];
    const prepared = p.pipeline.prepare({ ...INVOICE, logo: 'data:text/plain;base64,AAAA' }, EN);
    await p.pipeline.renderPdf(prepared, { onLogoFailure: (reason) => reasons.push(reason) });
    expect(reasons).to.deep.equal(['data_uri_invalid']);
  });

  it('renderCii: XSD-valid CII from the model, named for the document, nothing printed', async function () {
    const calls = p.renderer.calls.length;
    const cii = await p.pipeline.renderCii(p.pipeline.prepare(E_INV, EN, true));
    expect(cii.root).to.equal('CrossIndustryInvoice');
    expect(cii.filename).to.equal('invoice-INV-42.xml');
    expect(cii.xml).to.contain('<ram:ID>INV-42</ram:ID>').and.contain('<ram:GrandTotalAmount>641.91</ram:GrandTotalAmount>');
    expect(p.renderer.calls.length).to.equal(calls);
  });

  it('renderUbl: the printed PDF inside, as base64 of the archived bytes; a credit note is a CreditNote; embed_pdf false prints nothing', async function () {
    const calls = p.renderer.calls.length;
    const ubl = await p.pipeline.renderUbl(p.pipeline.prepare(E_INV, EN, true));
    expect(ubl.root).to.equal('Invoice');
    expect(p.renderer.calls.length).to.equal(calls + 1);
    const embedded = /<cbc:EmbeddedDocumentBinaryObject[^>]*filename="invoice-INV-42.pdf"[^>]*>([^<]+)</.exec(ubl.xml);
    expect(embedded, 'the embedded PDF').to.not.equal(null);
    const pdf = Buffer.from(embedded![1]!, 'base64').toString('latin1');
    expect(pdf.startsWith('%PDF-')).to.equal(true);
    expect(pdf).to.contain('pdfaid:part');
    expect(ubl.xml).to.contain('<cbc:PayableAmount currencyID="EUR">641.91</cbc:PayableAmount>');

    const credit = await p.pipeline.renderUbl(p.pipeline.prepare({ ...E_INV, type: 'credit_note' }, EN, true));
    expect(credit.root).to.equal('CreditNote');
    expect(credit.filename).to.equal('credit_note-INV-42.xml');
    const bare = await p.pipeline.renderUbl(p.pipeline.prepare({ ...E_INV, e_invoice: { ...E_INVOICE, embed_pdf: false } }, EN, true));
    expect(bare.xml).to.not.contain('EmbeddedDocumentBinaryObject');
    expect(p.renderer.calls.length).to.equal(calls + 2);
  });

  it('e-invoices: what the model cannot express is refused before anything is printed', async function () {
    const calls = p.renderer.calls.length;
    const prepared = p.pipeline.prepare({ ...E_INV, number: undefined }, EN, true);
    const err = await p.pipeline.renderUbl(prepared).then(
      () => undefined,
      (e: unknown) => e as DomainError,
    );
    expect(err?.code).to.equal('validation_failed');
    expect(fields(err!)).to.include('number');
    expect(p.renderer.calls.length).to.equal(calls);
  });

  it('renderFacturX: a PDF carrying its CII as factur-x.xml, named as the PDF', async function () {
    const fx = await p.pipeline.renderFacturX(p.pipeline.prepare(E_INV, EN, true));
    expect(fx.filename).to.equal('invoice-INV-42.pdf');
    const text = Buffer.from(fx.pdf).toString('latin1');
    expect(text.startsWith('%PDF-')).to.equal(true);
    expect(text).to.contain('factur-x.xml');
  });
});
