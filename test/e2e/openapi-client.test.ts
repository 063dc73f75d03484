// A typed client from the live /openapi.json: openapi-typescript makes the types, tsc compiles them with the typed
// snippet of docs/clients.md (openapi-fetch), and the snippet makes the PDF of POST / and the UBL of POST /ubl on the real service.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { runIn, snippet } from '../helpers/doc-snippets';
import { sharedService } from '../helpers/service';

const bin = (name: string) => path.join(projectRoot(), 'node_modules', '.bin', name);

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
  },
  files: ['invoice.mts', 'docgen.d.ts'],
};

describe('typed client (openapi-typescript + openapi-fetch)', function () {
  this.timeout(180000);

  it('generates from /openapi.json, compiles with tsc and makes the PDF and the UBL', async function () {
    const service = await sharedService();
    const files = { 'invoice.mts': snippet('ts'), 'tsconfig.json': JSON.stringify(TSCONFIG), 'package.json': '{"type":"module"}' };
    const gen = await runIn(service, files, bin('openapi-typescript'), [`${service.url}/openapi.json`, '-o', 'docgen.d.ts']);
    expect(gen.status, gen.stderr).to.equal(0);
    const dir = gen.dir;
    fs.symlinkSync(path.join(projectRoot(), 'node_modules'), path.join(dir, 'node_modules'));
    const types = fs.readFileSync(path.join(dir, 'docgen.d.ts'), 'utf8');
    for (const op of ['createPdf', 'createUbl', 'createCii', 'createFacturX', 'createBatch']) expect(types).to.contain(`${op}: {`);
    expect(types).to.contain('"quota_exceeded"');

    // Compiled in the folder it was generated in, with the snippet that uses it (strict, no skipLibCheck).
    const tsc = await runIn(service, {}, bin('tsc'), ['-p', 'tsconfig.json'], dir);
    expect(tsc.status, tsc.stdout + tsc.stderr).to.equal(0);

    const run = await runIn(service, {}, process.execPath, ['--import', 'tsx', 'invoice.mts'], dir);
    expect(run.status, run.stdout + run.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(run.dir, 'invoice.pdf')).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(fs.readFileSync(path.join(run.dir, 'invoice.xml'), 'utf8')).to.match(/<(\w+:)?Invoice\b[\s\S]*INV-1/);
  });
});
