// The client snippets of docs/clients.md work against the real service: curl, Node's fetch and Python's
// urllib make the PDF of POST / and the UBL of POST /ubl; the Ruby one runs where Ruby is installed and is parsed by
// Ruby's own parser (Prism, compiled to WebAssembly) everywhere. /docs shows the same snippets (x-codeSamples).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { CODE_SAMPLES, SNIPPETS } from '../../server/http/openapi/snippets';
import { docSnippets, runIn, snippet, type Run } from '../helpers/doc-snippets';
import { sharedService } from '../helpers/service';

function expectDocuments(run: Run): void {
  expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
  const pdf = fs.readFileSync(path.join(run.dir, 'invoice.pdf'));
  expect(pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
  const xml = fs.readFileSync(path.join(run.dir, 'invoice.xml'), 'utf8');
  expect(xml).to.match(/<(\w+:)?Invoice\b/);
  expect(xml).to.contain('INV-1');
}

/** Ruby's parser on `source`: its syntax errors, none for a valid program. */
function rubySyntaxErrors(source: string): string[] {
  const script =
    "import { loadPrism } from '@ruby/prism'; const parse = await loadPrism(); " +
    "const r = parse(require('node:fs').readFileSync(0, 'utf8')); console.log(JSON.stringify(r.errors.map((e) => e.message)));";
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script.replace("require('node:fs')", 'fs')], {
    input: source,
    encoding: 'utf8',
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[];
}

const hasRuby = spawnSync('ruby', ['--version']).status === 0;

describe('the client snippets of docs/clients.md', function () {
  this.timeout(120000);

  it('are the ones /docs shows, in the same order', async function () {
    expect(docSnippets().map((s) => [s.lang, s.source])).to.deep.equal(SNIPPETS.map((s) => [s.lang, s.source]));
    const service = await sharedService();
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as { paths: Record<string, { post: Record<string, unknown> }> };
    for (const p of ['/', '/ubl']) expect(doc.paths[p]?.post['x-codeSamples'], p).to.deep.equal(CODE_SAMPLES);
  });

  it('curl makes the PDF (JSON body) and the UBL (form fields)', async function () {
    expectDocuments(await runIn(await sharedService(), {}, 'sh', ['-e', '-c', snippet('sh')]));
  });

  it('curl stops on an error with the error body (a wrong key)', async function () {
    const service = await sharedService();
    const run = await runIn({ ...service, key: 'sk_wrong' }, {}, 'sh', ['-e', '-c', snippet('sh')]);
    expect(run.status).not.to.equal(0);
    expect(fs.readFileSync(path.join(run.dir, 'invoice.pdf'), 'utf8')).to.contain('invalid_api_key');
  });

  it('Node (fetch) makes both', async function () {
    expectDocuments(await runIn(await sharedService(), { 'invoice.mjs': snippet('js') }, process.execPath, ['invoice.mjs']));
  });

  it('Python (urllib) makes both, and exits with the error code on an error', async function () {
    const service = await sharedService();
    expectDocuments(await runIn(service, { 'invoice.py': snippet('python') }, 'python3', ['invoice.py']));
    const bad = await runIn({ ...service, key: 'sk_wrong' }, { 'invoice.py': snippet('python') }, 'python3', ['invoice.py']);
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.contain('401 invalid_api_key');
  });

  it(`Ruby (net/http) ${hasRuby ? 'makes both' : 'is valid Ruby (no ruby here: parsed by Prism)'}`, async function () {
    const source = snippet('ruby');
    expect(rubySyntaxErrors(source)).to.deep.equal([]);
    // The check can fail: the same program without its last `end` is refused.
    expect(rubySyntaxErrors(source.replace(/end\s*$/, ''))).not.to.deep.equal([]);
    expect(source).to.match(/^require 'net\/http'$/m);
    if (hasRuby) expectDocuments(await runIn(await sharedService(), { 'invoice.rb': source }, 'ruby', ['invoice.rb']));
  });
});
