// The UBL reader (server/einvoice/ubl/read.ts) on what the official examples do not show: the profile named by BT-24
// (and another CIUS's identifier kept), Peppol's `#code#` notes (BT-21), type codes beyond 380 and 381, the SEPA
// creditor identifier (BT-90) on the seller or the payee, a price base quantity in its own unit (BT-150), and odd
// documents: every element of a kind left out in turn, texts that are not numbers, an empty root. Never a TypeError.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { buildCii } from '../../../../server/einvoice/cii/build';
import { PROFILES } from '../../../../server/einvoice/profiles';
import { buildUbl } from '../../../../server/einvoice/ubl/build';
import { readUbl, ublProfile } from '../../../../server/einvoice/ubl/read';
import { parseXml, type XmlNode } from '../../../../server/einvoice/xml-tree';
import { STANDARDS_DIR } from '../../../helpers/schematron';
import { differences, read, terms } from '../../../helpers/ubl-read';

const example = (file: string): string => fs.readFileSync(path.join(STANDARDS_DIR, 'examples', file), 'utf8');
const EN16931 = example('en16931-ubl/ubl-tc434-example5.xml');
const PEPPOL = example('peppol-bis-3/base-example.xml');
const CREDIT = example('peppol-bis-3/base-creditnote-correction.xml');

/** `xml` read and written back as UBL: the differences both ways in KoSIT's model. */
function roundTrip(xml: string): string[] {
  const written = buildUbl(read(xml)).xml;
  return [...differences(terms(xml), terms(written)), ...differences(terms(written), terms(xml))];
}

/** A copy of `node` without the elements named `name`, at any depth. */
function without(node: XmlNode, name: string): XmlNode {
  return { ...node, children: node.children.filter((c) => c.name !== name).map((c) => without(c, name)) };
}

/** A copy of `node` whose every leaf text is `text`, and every attribute too. */
function everyText(node: XmlNode, text: string): XmlNode {
  const attrs = Object.fromEntries(Object.keys(node.attrs).map((k) => [k, text]));
  return { ...node, attrs, text: node.children.length ? node.text : text, children: node.children.map((c) => everyText(c, text)) };
}

function names(node: XmlNode, out = new Set<string>()): Set<string> {
  for (const c of node.children) names(c, out.add(c.name));
  return out;
}

describe('UBL reader: profiles, notes, codes and odd documents', function () {
  this.timeout(60000);

  it('names the profile by BT-24 and keeps another specification identifier as received', function () {
    expect(ublProfile(PROFILES.peppol.specification)).to.equal('peppol');
    expect(ublProfile(` ${PROFILES.xrechnung.specification} `)).to.equal('xrechnung');
    expect(ublProfile(PROFILES.en16931.specification)).to.equal('en16931');
    expect(ublProfile('urn:cen.eu:en16931:2017#compliant#urn:example.org:cius:1.0')).to.equal('en16931');
    expect(ublProfile(undefined)).to.equal('en16931');
    const peppol = read(PEPPOL);
    expect([peppol.profile, peppol.specification]).to.deep.equal(['peppol', undefined]);
    const xrechnung = read(EN16931.replace(/(<cbc:CustomizationID>)[^<]*/, `$1${PROFILES.xrechnung.specification}`));
    expect([xrechnung.profile, xrechnung.specification]).to.deep.equal(['xrechnung', undefined]);
    const cius = 'urn:cen.eu:en16931:2017#compliant#urn:example.org:cius:1.0';
    const other = read(EN16931.replace(/(<cbc:CustomizationID>)[^<]*/, `$1${cius}`));
    expect(other).to.include({ profile: 'en16931', specification: cius });
    expect(buildUbl(other).xml).to.contain(`<cbc:CustomizationID>${cius}</cbc:CustomizationID>`);
    expect(buildCii(other)).to.contain(`<ram:ID>${cius}</ram:ID>`);
  });

  it("reads Peppol's #code# notes back into their subject code (BT-21) and text, and writes them back", function () {
    const xml = PEPPOL.replace(
      '</cbc:InvoiceTypeCode>',
      '</cbc:InvoiceTypeCode><cbc:Note>#AAI#Goods remain ours until paid</cbc:Note><cbc:Note>Plain</cbc:Note>',
    );
    const model = read(xml);
    expect(model.notes).to.deep.equal([{ subjectCode: 'AAI', text: 'Goods remain ours until paid' }, { text: 'Plain' }]);
    expect(buildUbl(model).xml).to.contain('<cbc:Note>#AAI#Goods remain ours until paid</cbc:Note><cbc:Note>Plain</cbc:Note>');
    expect(roundTrip(xml)).to.deep.equal([]);
  });

  it('keeps every UNTDID 1001 type code; the credit note codes are written as a CreditNote', function () {
    for (const code of ['383', '384', '389', '751']) {
      const model = read(PEPPOL.replace(/(<cbc:InvoiceTypeCode>)380/, `$1${code}`));
      expect(model.typeCode).to.equal(code);
      const written = buildUbl(model);
      expect(written.root).to.equal('Invoice');
      expect(written.xml).to.contain(`<cbc:InvoiceTypeCode>${code}</cbc:InvoiceTypeCode>`);
    }
    const factored = read(CREDIT.replace(/(<cbc:CreditNoteTypeCode>)381/, '$1396'));
    expect(factored.typeCode).to.equal('396');
    expect(buildUbl(factored).root).to.equal('CreditNote');
    expect(read(CREDIT).typeCode).to.equal('381');
  });

  it('reads a SEPA identifier of the payee or the seller as BT-90, never as BT-29 or BT-60', function () {
    const sepa = '<cac:PartyIdentification><cbc:ID schemeID="SEPA">DK98ZZZ123456</cbc:ID></cac:PartyIdentification>';
    const onPayee = EN16931.replace(/(<cac:PayeeParty>\s*)/, `$1${sepa}`);
    const payee = read(onPayee);
    expect(payee.payment?.directDebit).to.deep.equal({
      mandateReference: '123456',
      creditorId: 'DK98ZZZ123456',
      debitedAccount: 'DK1212341234123412',
    });
    expect(payee.payee?.id).to.deep.equal({ id: 'DK16356608' });
    expect(roundTrip(onPayee)).to.deep.equal([]);
    const onSeller = EN16931.replace(/<cac:PayeeParty>[\s\S]*?<\/cac:PayeeParty>/, '').replace(
      /(<cac:AccountingSupplierParty>\s*<cac:Party>\s*<cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>\s*)/,
      `$1${sepa}`,
    );
    const seller = read(onSeller);
    expect(seller.payment?.directDebit?.creditorId).to.equal('DK98ZZZ123456');
    expect(seller.seller.identifiers).to.deep.equal([{ id: '5790000436101', scheme: '0088' }]);
    expect(roundTrip(onSeller)).to.deep.equal([]);
  });

  it('reads the attachments (BG-24): embedded with their MIME code and file name, or external', function () {
    expect(read(EN16931).documents).to.deep.equal([
      { id: 'OBJ999', description: 'ATS' },
      {
        id: 'sales slip',
        description: 'your sales slip',
        content: { base64: 'VGVzdGluZyBCYXNlNjQgZW5jb2Rpbmc=', mimeCode: 'application/pdf', filename: 'EHF.pdf' },
      },
    ]);
    const external = read(example('peppol-bis-3/Allowance-example.xml')).documents.find((d) => d.url);
    expect(external).to.deep.equal({ id: 'ts12345', description: 'Technical specification', url: 'www.techspec.no' });
  });

  it("keeps a price base quantity's own unit (BT-150) and a price discount without its gross price (BT-147)", function () {
    const xml = EN16931.replace(
      '<cbc:BaseQuantity unitCode="EA">1</cbc:BaseQuantity>',
      '<cbc:BaseQuantity unitCode="DZN">1</cbc:BaseQuantity>',
    );
    const line = read(xml).lines.find((l) => l.baseQuantity)!;
    expect(line.baseQuantityUnitCode).to.equal('DZN');
    expect(roundTrip(xml)).to.deep.equal([]);
    const discount = read(example('en16931-ubl/guide-example2.xml')).lines[0]!;
    expect(discount.priceDiscount?.toFixed(2)).to.equal('225.00');
    expect(discount.grossPrice).to.equal(undefined);
  });

  it('never throws on a document without some kind of element, with texts that are no numbers, or empty', function () {
    let reads = 0;
    for (const xml of [EN16931, PEPPOL, CREDIT, example('peppol-bis-3/Allowance-example.xml')]) {
      const root = parseXml(xml);
      for (const name of names(root)) {
        expect(() => readUbl(without(root, name), 'en16931'), `without ${name}`).to.not.throw();
        reads++;
      }
      const odd = readUbl(everyText(root, 'x'), 'peppol');
      expect(odd.totals.payable.toFixed()).to.equal('0');
      expect(odd.lines[0]!.quantity.toFixed()).to.equal('0');
    }
    expect(reads).to.be.greaterThan(300);
    for (const name of ['Invoice', 'CreditNote']) {
      const empty = readUbl(parseXml(`<${name} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${name}-2"/>`), 'en16931');
      expect(empty).to.include({ typeCode: name === 'Invoice' ? '380' : '381', number: '', currency: '' });
      expect(empty.payment).to.equal(undefined);
      expect(empty.seller).to.deep.equal({ name: '', address: {} });
      expect(empty.lines).to.deep.equal([]);
    }
  });
});
