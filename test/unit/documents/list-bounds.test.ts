// Lists checked against their bounds before their entries (50,000 line items once took 28 s to be refused), and the
// inlined schemas they are read from: the bounds follow the schema files and the configured limits.
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig, projectRoot } from '../../../server/config';
import { listBoundProblems, listBoundsOf } from '../../../server/documents/list-bounds';
import { fileResolver, inlineRefs } from '../../../server/documents/schema-inline';
import { loadSchemas } from '../../../server/documents/schema-registry';

describe('list bounds', function () {
  const limits = { ...loadConfig({}).limits, maxItems: 3, maxCustomFields: 2 };
  const registry = loadSchemas(path.join(projectRoot(), 'schemas'), limits);

  it('reads every list bound of a type from its schema, with the configured limits', function () {
    const lists = registry.get('invoice').lists;
    expect(lists.members.get('items')?.maxItems).to.equal(3);
    expect(lists.members.get('custom_fields')?.maxItems).to.equal(2);
    expect(lists.members.get('payment_methods')?.maxItems).to.equal(20);
  });

  it('names each list over its bound, and never walks its entries', function () {
    let touched = 0;
    const entries = new Proxy([{}, {}, {}, {}], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) touched++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const problems = listBoundProblems(registry.get('invoice').lists, { items: entries, custom_fields: [1, 2, 3] }, 100);
    expect(problems).to.have.deep.members([
      { field: 'items', message: 'items must have at most 3 line items (it has 4)' },
      { field: 'custom_fields', message: 'custom_fields must have at most 2 entries (it has 3)' },
    ]);
    expect(touched).to.equal(0);
    expect(listBoundProblems(registry.get('invoice').lists, { items: [1, 2, 3] }, 100)).to.deep.equal([]);
  });

  it('takes the stricter bound of allOf parts; a bound under anyOf is left to the schema', function () {
    const b = listBoundsOf({
      properties: { a: { type: 'array', maxItems: 5 } },
      allOf: [{ properties: { a: { maxItems: 2 } } }],
      anyOf: [{ properties: { b: { maxItems: 1 } } }],
    });
    expect(b.members.get('a')?.maxItems).to.equal(2);
    expect(b.members.has('b')).to.equal(false);
  });

  it('inlines $refs across files, keeps sibling keywords, and reports a ref that cycles or does not resolve', function () {
    const files = new Map<string, Record<string, unknown>>([
      ['common', { definitions: { t: { type: 'string', maxLength: 3 }, loop: { $ref: '#/definitions/loop' } } }],
    ]);
    const inlined = inlineRefs({ properties: { x: { $ref: 'common.json#/definitions/t', minLength: 1 } } }, fileResolver(files));
    expect(inlined).to.deep.equal({ properties: { x: { minLength: 1, allOf: [{ type: 'string', maxLength: 3 }] } } });
    expect(() => inlineRefs({ $ref: 'common.json#/definitions/loop' }, fileResolver(files))).to.throw(/refers to itself/);
    expect(() => inlineRefs({ $ref: 'common.json#/definitions/none' }, fileResolver(files))).to.throw(/does not resolve/);
  });
});
