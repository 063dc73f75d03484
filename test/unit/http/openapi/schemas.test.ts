// The OpenAPI description's schemas (openapi/schemas.ts), built from schemas/: references rewritten to components
// that exist, no JSON Schema bookkeeping left, `notAccepted` turned into the absent-only schema, the error body's code
// the catalogue's, and the form bodies: every field a string in bracket notation, each list's index 0 named and every
// other index admitted by a pattern.
import { expect } from 'chai';
import { ERROR_CATALOGUE } from '../../../../server/http/error-catalogue';
import { DOCUMENT_TYPES } from '../../../../server/documents/model';
import {
  batchFormSchema,
  documentSchemas,
  errorSchema,
  formSchema,
  reportSchemas,
  type Node,
} from '../../../../server/http/openapi/schemas';
import { projectAssets } from '../../../helpers/project-assets';

/** Every value of `key` anywhere in `node`. */
function valuesOf(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const n of node) valuesOf(n, key, out);
  else if (node !== null && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v);
      valuesOf(v, key, out);
    }
  return out;
}

describe('OpenAPI schemas', function () {
  const registry = projectAssets().schemas;

  it('names one schema per document type and one per common definition, every reference to one of them', function () {
    const schemas = documentSchemas(registry);
    for (const type of DOCUMENT_TYPES) expect(schemas, type).to.have.property(type);
    const refs = valuesOf(schemas, '$ref') as string[];
    expect(refs.length).to.be.greaterThan(10);
    for (const ref of refs) {
      expect(ref).to.match(/^#\/components\/schemas\//);
      expect(schemas, ref).to.have.property(ref.slice('#/components/schemas/'.length));
    }
    for (const key of ['$schema', '$id', 'definitions', 'notAccepted']) expect(valuesOf(schemas, key), key).to.deep.equal([]);
  });

  it('gives each type its `type` property, required for every type but the invoice (the default)', function () {
    const schemas = documentSchemas(registry) as Record<string, { properties: Node; required?: string[] }>;
    expect(schemas.invoice!.properties.type).to.deep.equal({ enum: ['invoice'], description: 'Document type' });
    expect(schemas.invoice!.required ?? []).to.not.include('type');
    for (const type of DOCUMENT_TYPES.filter((t) => t !== 'invoice')) {
      expect(schemas[type]!.required, type).to.deep.equal(['type']);
      expect(schemas[type]!.properties.type, type).to.deep.equal({ enum: [type], description: 'Document type' });
    }
  });

  it('turns a field a type does not accept into the schema of an absent value only', function () {
    const raw = JSON.stringify([...registry.raw().values()]);
    expect(raw, 'the schema files use notAccepted').to.contain('"notAccepted":true');
    const absent = valuesOf(documentSchemas(registry), 'description').filter(
      (d) => d === 'Not accepted for this type: only null, an empty value or zero may be sent.',
    );
    expect(absent.length).to.be.greaterThan(0);
  });

  it('enumerates every code of the error catalogue in the error body, and nothing else', function () {
    const schema = errorSchema() as { properties: { code: { enum: string[]; description: string } }; required: string[] };
    expect(schema.properties.code.enum).to.deep.equal(Object.keys(ERROR_CATALOGUE));
    expect(schema.required).to.include.members(['error', 'message', 'type', 'code', 'request_id']);
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(schema.properties.code.description).to.contain(`\`${code}\``);
  });

  it("makes the report's finding a component of its own, referenced by its new name", function () {
    const { ValidationReport, Finding } = reportSchemas(registry);
    const refs = valuesOf(ValidationReport, '$ref');
    expect(refs).to.include('#/components/schemas/Finding');
    expect(refs).to.not.include('#/components/schemas/finding');
    expect(Finding).to.be.an('object').and.have.property('properties');
  });

  it('describes a form body as string fields in bracket notation, naming index 0 and admitting every index by pattern', function () {
    const { schema, encoding } = formSchema(registry, ['invoice'], 'Invoice as form fields') as {
      schema: { properties: Node; patternProperties: Record<string, unknown>; additionalProperties: unknown };
      encoding: Node;
    };
    const fields = Object.keys(schema.properties);
    expect(fields).to.include.members(['from', 'to', 'type', 'items[0][name]', 'items[0][quantity]']);
    expect(Object.values(schema.properties).every((p) => (p as { type: string }).type === 'string')).to.equal(true);
    expect(Object.keys(encoding).sort()).to.deep.equal([...fields].sort());
    expect(schema.additionalProperties).to.deep.equal({ type: 'string' });
    const patterns = Object.keys(schema.patternProperties).map((p) => new RegExp(p));
    const admits = (field: string) => patterns.some((p) => p.test(field));
    expect(admits('items[7][quantity]')).to.equal(true);
    expect(admits('items[12][name]')).to.equal(true);
    expect(admits('items[x][name]')).to.equal(false);
    expect(admits('items[7][quantity]x'), 'anchored').to.equal(false);
    expect(admits('itemsX7Xname'), 'brackets are literal').to.equal(false);
  });

  it('prefixes every document field of the batch form with documents[0], beside the top-level format', function () {
    const { schema } = batchFormSchema(registry) as unknown as { schema: { properties: Node; patternProperties: Record<string, unknown> } };
    const fields = Object.keys(schema.properties);
    expect(fields).to.include.members(['format', 'documents[0][from]', 'documents[0][items][0][name]', 'documents[0][type]']);
    expect(fields.filter((f) => f !== 'format').every((f) => f.startsWith('documents[0]['))).to.equal(true);
    const patterns = Object.keys(schema.patternProperties).map((p) => new RegExp(p));
    expect(patterns.some((p) => p.test('documents[3][items][5][name]'))).to.equal(true);
  });
});
