// Sub-lines in the model: CII's line items with a ParentLineID read as a tree (only in the profiles that have sub-lines,
// loops and unknown parents read flat), written back in the same order with each item's parent and kind, and UBL's
// SubInvoiceLine nesting written and read back. No service: the readers and writers on their own.
import { expect } from 'chai';
import { buildCii } from '../../../server/einvoice/cii/build';
import { readCii } from '../../../server/einvoice/cii/read';
import { readLineTree } from '../../../server/einvoice/cii/read-lines';
import type { Line } from '../../../server/einvoice/model';
import { buildUbl } from '../../../server/einvoice/ubl/build';
import { readUbl } from '../../../server/einvoice/ubl/read';
import { parseXml, type XmlNode } from '../../../server/einvoice/xml-tree';
import { makeInvoice, vat } from '../../helpers/einvoice-model';
import { at } from '../../helpers/xml-path';

const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';

/** Line items with these ids and parents, as CII writes them. */
function items(rows: [string, string?][]): XmlNode[] {
  const xml =
    `<r xmlns:ram="${RAM}">` +
    rows
      .map(
        ([id, parent]) =>
          `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>${id}</ram:LineID>` +
          `${parent ? `<ram:ParentLineID>${parent}</ram:ParentLineID>` : ''}</ram:AssociatedDocumentLineDocument>` +
          `<ram:SpecifiedTradeProduct><ram:Name>${id}</ram:Name></ram:SpecifiedTradeProduct></ram:IncludedSupplyChainTradeLineItem>`,
      )
      .join('') +
    '</r>';
  return parseXml(xml).children;
}

const shape = (lines: Line[]): unknown => lines.map((l) => (l.subLines ? { [l.id]: shape(l.subLines) } : l.id));

describe('sub-lines: CII line items with a ParentLineID as a tree', function () {
  it('nests each item under the line it names, to any depth, in document order', function () {
    const tree = readLineTree(items([['1'], ['1.1', '1'], ['1.2', '1'], ['1.2.1', '1.2'], ['2'], ['2.1', '2']]), true);
    expect(shape(tree)).to.deep.equal([{ 1: ['1.1', { '1.2': ['1.2.1'] }] }, { 2: ['2.1'] }]);
  });

  it('reads flat outside the profiles with sub-lines, and where a parent is unknown, itself or a loop', function () {
    const rows: [string, string?][] = [['1'], ['1.1', '1']];
    expect(shape(readLineTree(items(rows), false))).to.deep.equal(['1', '1.1']);
    expect(shape(readLineTree(items([['1'], ['2', 'nine']]), true))).to.deep.equal(['1', '2']);
    expect(shape(readLineTree(items([['1', '1']]), true))).to.deep.equal(['1']);
    // a ← b ← a: neither has a parent it can hang from; c under a is kept flat with them.
    expect(shape(readLineTree(items([['a', 'b'], ['b', 'a'], ['c']]), true))).to.deep.equal(['a', 'b', 'c']);
  });

  it('a chain of 500 items, each the parent of the next, nests 500 deep without failing', function () {
    const rows: [string, string?][] = Array.from({ length: 500 }, (_, i) => [String(i), i === 0 ? undefined : String(i - 1)]);
    let depth = 0;
    for (let l: Line | undefined = readLineTree(items(rows), true)[0]; l; l = l.subLines?.[0]) depth++;
    expect(depth).to.equal(500);
  });
});

describe('sub-lines: written and read back', function () {
  const invoice = () => {
    const base = makeInvoice({ profile: 'extended', lines: [{ quantity: '1', price: '100', vat: vat('S', '20') }] });
    const sub = (id: string, net: string): Line => ({
      ...base.lines[0]!,
      id,
      name: `Part ${id}`,
      net: base.lines[0]!.net.mul(net),
      price: base.lines[0]!.price.mul(net),
    });
    return {
      ...base,
      lines: [{ ...base.lines[0]!, subLines: [sub('1.1', '0.4'), { ...sub('1.2', '0.6'), subLines: [sub('1.2.1', '0.6')] }] }],
    };
  };

  it('CII EXTENDED: an item per sub-line after its line, with its parent and the kind INFORMATION; read back the same tree', function () {
    const xml = buildCii(invoice());
    const path = 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem/ram:AssociatedDocumentLineDocument';
    expect(at(xml, `${path}/ram:LineID`)).to.deep.equal(['1', '1.1', '1.2', '1.2.1']);
    expect(at(xml, `${path}/ram:ParentLineID`)).to.deep.equal(['1', '1', '1.2']);
    expect(at(xml, `${path}/ram:LineStatusReasonCode`)).to.deep.equal(['INFORMATION', 'INFORMATION', 'INFORMATION']);
    const back = readCii(parseXml(xml), 'extended');
    expect(shape(back.lines)).to.deep.equal([{ 1: ['1.1', { '1.2': ['1.2.1'] }] }]);
    // written again, the same text: the kind read back is the kind written.
    expect(buildCii(back)).to.equal(xml);
  });

  it('CII EN 16931 has no sub-lines: the line alone', function () {
    const xml = buildCii({ ...invoice(), profile: 'en16931' });
    expect(
      at(xml, 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem/ram:AssociatedDocumentLineDocument/ram:LineID'),
    ).to.deep.equal(['1']);
  });

  it('UBL: SubInvoiceLine inside its line, to any depth, and read back the same tree', function () {
    const { xml } = buildUbl({ ...invoice(), profile: 'en16931' });
    expect(at(xml, 'cac:InvoiceLine/cac:SubInvoiceLine/cbc:ID')).to.deep.equal(['1.1', '1.2']);
    expect(at(xml, 'cac:InvoiceLine/cac:SubInvoiceLine/cac:SubInvoiceLine/cbc:ID')).to.deep.equal(['1.2.1']);
    const back = readUbl(parseXml(xml), 'en16931');
    expect(shape(back.lines)).to.deep.equal([{ 1: ['1.1', { '1.2': ['1.2.1'] }] }]);
  });
});
