// The OpenAPI description's request examples (openapi/examples.ts): a JSON value flattened to form fields in qs
// bracket notation that qs reads back into the same value (every scalar a string; null and undefined left out), and
// the examples of a media type, one per document type that has a file, only the invoice as form fields.
import { expect } from 'chai';
import qs from 'qs';
import { mediaExamples, toFormFields } from '../../../../server/http/openapi/examples';
import type { Node } from '../../../../server/http/openapi/schemas';
import { loadHttpAssets } from '../../../../server/http/http-assets';
import { projectRoot } from '../../../../server/config';

/** `value` with every scalar as a string and null / undefined left out: what a form can carry. */
function asForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(asForm);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === null || v === undefined ? [] : [[k, asForm(v)]])));
  return String(value);
}

describe('OpenAPI examples', function () {
  it('flattens nested objects and lists to bracket notation, every value a string', function () {
    expect(
      toFormFields({
        from: 'Acme',
        items: [
          { name: 'A', quantity: 2 },
          { name: 'B', taxable: false },
        ],
        total: 12.5,
        note: null,
      }),
    ).to.deep.equal({
      from: 'Acme',
      'items[0][name]': 'A',
      'items[0][quantity]': '2',
      'items[1][name]': 'B',
      'items[1][taxable]': 'false',
      total: '12.5',
    });
    expect(toFormFields({ matrix: [[1, 2], [3]] })).to.deep.equal({ 'matrix[0][0]': '1', 'matrix[0][1]': '2', 'matrix[1][0]': '3' });
    expect(toFormFields({})).to.deep.equal({});
    expect(toFormFields(null)).to.deep.equal({});
  });

  it('keeps hostile names and values as data: qs reads back exactly the fields written', function () {
    const value = { 'a b': 'x&y=z', ünï: ['<script>', '%00', ''], deep: { 'k=v': '[0]' } };
    const fields = toFormFields(value);
    expect(qs.parse(new URLSearchParams(fields).toString())).to.deep.equal(asForm(value));
  });

  it('reads back every example document of the repository through qs as the same document, as strings', function () {
    const { examples } = loadHttpAssets(projectRoot());
    expect(examples.size).to.be.greaterThan(5);
    for (const [type, doc] of examples) {
      const fields = toFormFields(doc);
      expect(qs.parse(new URLSearchParams(fields).toString(), { arrayLimit: 1000, depth: 20 }), type).to.deep.equal(asForm(doc));
    }
  });

  it('gives one example per type that has a file, and only the invoice as form fields', function () {
    const examples = new Map<string, Node>([
      ['invoice', { number: 'INV-1', items: [{ name: 'A' }] }],
      ['quote', { number: 'Q-1' }],
    ]);
    expect(mediaExamples(examples, ['invoice', 'quote', 'receipt'])).to.deep.equal({
      invoice: { summary: 'examples/invoice.json', value: { number: 'INV-1', items: [{ name: 'A' }] } },
      quote: { summary: 'examples/quote.json', value: { number: 'Q-1' } },
    });
    expect(mediaExamples(examples, ['invoice', 'quote'], true)).to.deep.equal({
      invoice: { summary: 'examples/invoice.json as form fields', value: { number: 'INV-1', 'items[0][name]': 'A' } },
    });
    expect(mediaExamples(examples, ['quote'], true)).to.deep.equal({});
  });
});
