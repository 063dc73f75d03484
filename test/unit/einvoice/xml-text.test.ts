// The XML writer (xml-text.ts) against the W3C DOM serializer it replaces (@oozcitak/dom's XMLSerializer, with the
// same tabs and line breaks in attributes made spaces): the same text, byte for byte, for generated trees of any
// text and attribute values, nested namespaces and empty elements, and for whole CII and UBL invoices.
import { XMLSerializer } from '@oozcitak/dom';
import type { Element, Node } from '@oozcitak/dom/lib/dom/interfaces';
import { expect } from 'chai';
import fc from 'fast-check';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { buildCii } from '../../../server/einvoice/cii/build';
import { buildUbl } from '../../../server/einvoice/ubl/build';
import { xmlText } from '../../../server/einvoice/xml-text';
import { makeInvoice, vat } from '../../helpers/einvoice-model';

/** What xml-text.ts wrote before: attributes' tabs and line breaks made spaces, then the W3C serializer. */
function reference(builder: XMLBuilder): string {
  const doc = builder.doc().node as unknown as Node;
  const visit = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== 1) continue;
      for (const attr of Array.from((child as Element).attributes)) attr.value = attr.value.replace(/[\t\n\r]+/g, ' ');
      visit(child);
    }
  };
  visit(doc);
  return '<?xml version="1.0" encoding="UTF-8"?>' + new XMLSerializer().serializeToString(doc);
}

const NAMESPACES = [
  ['a', 'urn:a'],
  ['b', 'urn:b'],
  ['c', 'urn:c'],
  ['', 'urn:default'],
] as const;

/** Text that XML can carry (no control characters other than tab and line breaks, no lone surrogates). */
const xmlChars = fc.string({
  unit: fc.oneof(
    fc.constantFrom('&', '<', '>', '"', "'", '\t', '\n', '\r', ';', '#', ']'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

interface TreeSpec {
  ns: number;
  attrs: [string, string][];
  text?: string;
  children: TreeSpec[];
}

/** A tree of elements at most `depth` deep. */
const node = (depth: number): fc.Arbitrary<TreeSpec> =>
  fc.record({
    ns: fc.nat({ max: NAMESPACES.length - 1 }),
    attrs: fc.uniqueArray(fc.tuple(fc.constantFrom('id', 'unitCode', 'schemeID', 'currencyID', 'mimeCode'), xmlChars), {
      selector: (a) => a[0],
      maxLength: 3,
    }),
    text: fc.option(xmlChars, { nil: undefined }),
    children: depth > 0 ? fc.array(node(depth - 1), { maxLength: 3 }) : fc.constant([]),
  });
const tree = node(3);

function build(spec: TreeSpec, declareOnRoot: boolean): XMLBuilder {
  const rootAttrs = declareOnRoot ? { 'xmlns:b': 'urn:b', 'xmlns:c': 'urn:c' } : {};
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('urn:a', 'a:Root', rootAttrs);
  const add = (parent: XMLBuilder, node: TreeSpec, i: number): void => {
    const [prefix, uri] = NAMESPACES[node.ns]!;
    const el = parent.ele(uri, prefix ? `${prefix}:E${i}` : `E${i}`, Object.fromEntries(node.attrs));
    if (node.text !== undefined) el.txt(node.text);
    node.children.forEach((child, j) => add(el, child, j));
  };
  add(root, spec, 0);
  return root;
}

describe('XML text', function () {
  it('writes generated trees exactly as the W3C serializer does (any text and attributes, namespaces, empty elements)', function () {
    fc.assert(
      fc.property(tree, fc.boolean(), (spec, declareOnRoot) => {
        expect(xmlText(build(spec, declareOnRoot))).to.equal(reference(build(spec, declareOnRoot)));
      }),
      { numRuns: 500 },
    );
  });

  it('writes whole CII and UBL invoices exactly as the W3C serializer does', function () {
    const invoice = makeInvoice({
      number: 'F-1 & <2> "3"\t4',
      lines: Array.from({ length: 50 }, (_, i) => ({
        quantity: '2',
        price: '10.5',
        vat: vat('S', '21'),
        name: `Line ${i} R&amp;D <b> "q" ]]> \u0645\u0631\u062d\u0628\u0627 \u{20000}`,
        description: i % 2 ? 'Price in &euro;\nnext line' : undefined,
      })),
    });
    const cii = buildCii(invoice);
    const ubl = buildUbl(invoice).xml;
    for (const xml of [cii, ubl]) {
      const parsed = create(xml);
      expect(xmlText(parsed)).to.equal(reference(create(xml)));
      expect(xml).to.equal(xmlText(parsed));
    }
  });

  it('refuses a node it does not write (a comment), rather than dropping it', function () {
    const root = create().ele('urn:a', 'a:Root').com('no');
    expect(() => xmlText(root)).to.throw(/not a node of type 8/);
  });
});
