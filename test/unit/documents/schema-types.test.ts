import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import * as prettier from 'prettier';
import { generateSchemaTypes } from '../../../scripts/schema-types';
import { projectRoot } from '../../../server/config';

describe('schema types (unit)', () => {
  it('server/documents/schema-types.ts is what schemas/ make (npm run schema-types after changing a schema)', async function () {
    this.timeout(20_000);
    const file = path.join(projectRoot(), 'server', 'documents', 'schema-types.ts');
    const options = (await prettier.resolveConfig(file)) ?? {};
    const made = await prettier.format(await generateSchemaTypes(projectRoot()), { ...options, filepath: file });
    expect(fs.readFileSync(file, 'utf8')).to.equal(made);
  });

  it('refuses two types that define one field differently (one body type could not hold both)', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-types-'));
    fs.cpSync(path.join(projectRoot(), 'schemas'), path.join(root, 'schemas'), { recursive: true });
    const quote = path.join(root, 'schemas', 'quote.json');
    const schema = JSON.parse(fs.readFileSync(quote, 'utf8')) as { properties: Record<string, unknown> };
    schema.properties.due_date = { type: 'number' };
    fs.writeFileSync(quote, JSON.stringify(schema));
    let message = '';
    await generateSchemaTypes(root).catch((err: Error) => (message = err.message));
    expect(message).to.match(/defines due_date unlike/);
  });
});
