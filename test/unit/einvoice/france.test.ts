// France's mentions on the model (server/einvoice/france.ts), without a service: the billing framework of an operation
// category, the directory's address from the SIREN, the legal notes written when not sent, the readable rendering's
// code, the type codes of self-billed and corrective invoices, and the French-only terms refused elsewhere.
import { expect } from 'chai';
import type { DocumentRequest } from '../../../server/documents/model';
import { FRENCH_LEGAL_NOTES, frenchMentions, frenchOnly, isFrenchBillingFramework, typeCodeOf } from '../../../server/einvoice/france';
import { FR_BUYER, FR_SELLER, makeInvoice, vat } from '../../helpers/einvoice-model';

const request = (type: string, e: Record<string, unknown>) => ({ type, e_invoice: e }) as unknown as DocumentRequest;

describe('France: the mentions of a French invoice on the model', function () {
  const invoice = () => ({
    ...makeInvoice({ profile: 'fr', lines: [{ quantity: '1', price: '100', vat: vat('S', '20') }] }),
    seller: { ...FR_SELLER, endpoint: undefined, companyId: { id: '123456789', scheme: '0002' } },
    buyer: { ...FR_BUYER, endpoint: { scheme: '0225', id: '987654321_98765432100011' }, companyId: { id: '987654321', scheme: '0002' } },
    notes: [{ subjectCode: 'AAB', text: 'Escompte 2 %' }],
    documents: [{ id: 'F-1', description: 'PDF rendering', pdf: { filename: 'f.pdf' } }],
  });

  it('BT-23 from the operation category, a sent business process first', function () {
    expect(frenchMentions(invoice(), { operation_category: 'services' }).businessProcess).to.equal('S1');
    expect(frenchMentions(invoice(), { operation_category: 'services', business_process: 'S5' }).businessProcess).to.equal('S5');
    expect(frenchMentions(invoice(), {}).businessProcess).to.equal(undefined);
  });

  it('a party without an address gets its SIREN in scheme 0225; a sent address is kept', function () {
    const m = frenchMentions(invoice(), {});
    expect(m.seller.endpoint).to.deep.equal({ scheme: '0225', id: '123456789' });
    expect(m.buyer.endpoint).to.deep.equal({ scheme: '0225', id: '987654321_98765432100011' });
  });

  it('the legal notes not sent are written with their French text, a sent one kept; BAR from processing; the PDF is LISIBLE', function () {
    const m = frenchMentions(invoice(), { processing: 'B2B' });
    expect(m.notes.map((n) => n.subjectCode)).to.deep.equal(['AAB', 'PMT', 'PMD', 'BAR']);
    expect(m.notes[0]!.text).to.equal('Escompte 2 %');
    expect(m.notes[1]!.text).to.equal(FRENCH_LEGAL_NOTES.find((n) => n.code === 'PMT')!.text);
    expect(m.notes[3]!.text).to.equal('B2B');
    expect(m.documents[0]!.description).to.equal('LISIBLE');
  });

  it('type codes: 380 and 381, self-billed 389 and 261, corrective 384 (an invoice only)', function () {
    expect(typeCodeOf(request('invoice', {}))).to.equal('380');
    expect(typeCodeOf(request('credit_note', {}))).to.equal('381');
    expect(typeCodeOf(request('invoice', { self_billed: true }))).to.equal('389');
    expect(typeCodeOf(request('credit_note', { self_billed: true }))).to.equal('261');
    expect(typeCodeOf(request('invoice', { corrective: true }))).to.equal('384');
    expect(typeCodeOf(request('credit_note', { corrective: true }))).to.equal('381');
  });

  it('the billing frameworks that mark a received invoice as French, and the French-only terms refused elsewhere', function () {
    expect(['B1', 'S1', 'M1', 'S5', ' M4 '].map(isFrenchBillingFramework)).to.deep.equal([true, true, true, true, true]);
    expect(['urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'B3', '', undefined].map(isFrenchBillingFramework)).to.deep.equal([
      false,
      false,
      false,
      false,
    ]);
    expect(frenchOnly({ operation_category: 'goods', processing: 'B2B' }).map((p) => p.field)).to.deep.equal([
      'e_invoice.operation_category',
      'e_invoice.processing',
    ]);
    expect(frenchOnly({})).to.deep.equal([]);
  });
});
