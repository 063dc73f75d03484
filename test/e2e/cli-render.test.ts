// The command-line renderer (npm run render) on every example file, all in one run: its PDF and UBL match what the
// HTTP API returns for the same request; a bad or missing file is reported by name.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { pdfText } from '../helpers/pdf';
import { post, sharedService, tempDir } from '../helpers/service';

const run = promisify(execFile);
const EXAMPLES = path.join(projectRoot(), 'examples');
const UBL_TYPES = ['invoice', 'receipt', 'credit_note'];

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '-s', 'render', '--', ...args], {
    cwd: projectRoot(),
    env: { ...process.env, NODE_ENV: 'test' },
  });
  return stdout;
}

/** The XML without the things that differ from one render to the next: the PDF bytes (their creation time). */
const stable = (xml: string) => xml.replace(/(<cbc:EmbeddedDocumentBinaryObject[^>]*>)[^<]*/, '$1…');
const embedded = (xml: string) => Buffer.from(/<cbc:EmbeddedDocumentBinaryObject[^>]*>([^<]*)</.exec(xml)![1]!, 'base64');

describe('npm run render', function () {
  this.timeout(120000);
  const out = tempDir('cli');
  const files = fs
    .readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const pdfDir = path.join(out, 'pdf');
  const xmlDir = path.join(out, 'xml');
  /** The one run that renders every example (and a bad request among them) as a PDF, and the one that makes the UBL of
   * each UBL type: several files, one browser, a folder of outputs named after their files. */
  let pdfRun: { code: number; stdout: string; stderr: string };
  before(async function () {
    const bad = path.join(out, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ to: 'B', items: [] }));
    const paths = files.map((f) => path.join(EXAMPLES, f));
    pdfRun = await cli(...paths.slice(0, 6), bad, ...paths.slice(6), '--theme', 'slate', '--lang', 'fr-FR', '-o', pdfDir).then(
      (stdout) => ({ code: 0, stdout, stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    await cli(...UBL_TYPES.map((t) => path.join(EXAMPLES, `${t}.json`)), '--ubl', '-o', xmlDir);
  });

  it('there is an example request for every type', function () {
    expect(files).to.have.length(12);
  });

  it('several files: each written to the folder by its own name; a bad one reported by name, the others rendered, exit 2', function () {
    expect(pdfRun.code).to.equal(2);
    expect(pdfRun.stderr).to.match(/bad\.json: .*\n {2}from is required/);
    expect(fs.readdirSync(pdfDir).sort()).to.deep.equal(files.map((f) => f.replace(/\.json$/, '.pdf')));
    for (const file of files) expect(pdfRun.stdout).to.contain(path.join(pdfDir, file.replace(/\.json$/, '.pdf')));
  });

  for (const file of files) {
    const type = file.replace(/\.json$/, '');
    it(`${file}: the PDF${UBL_TYPES.includes(type) ? ' and the UBL' : ''} match the HTTP API's`, async function () {
      const service = await sharedService();
      const body = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
      const api = await post(service, { ...body, theme: 'slate' }, { headers: { 'accept-language': 'fr-FR' } });
      expect(api.status).to.equal(200);
      expect(pdfText(fs.readFileSync(path.join(pdfDir, `${type}.pdf`)))).to.equal(pdfText(new Uint8Array(await api.arrayBuffer())));
      if (!UBL_TYPES.includes(type)) return;
      const apiXml = await (await post(service, body, { path: '/ubl' })).text();
      const cliXml = fs.readFileSync(path.join(xmlDir, `${type}.xml`), 'utf8');
      expect(stable(cliXml)).to.equal(stable(apiXml));
      expect(pdfText(embedded(cliXml))).to.equal(pdfText(embedded(apiXml)));
    });
  }

  it('reads a published example file as the API reads it (form body, Accept-Language)', async function () {
    const pdfFile = path.join(out, 'fr.pdf');
    await cli(path.join(projectRoot(), '..', 'shared', 'examples', 'localization-fr.json'), '-o', pdfFile);
    const text = pdfText(fs.readFileSync(pdfFile)).replace(/\s+/g, ' ');
    expect(text).to.contain('FACTURE');
    expect(text).to.contain('99,00 €');
  });

  it('one file: written where -o says; a bad one explained, exit 2; a missing one named, exit 2', async function () {
    const bad = path.join(out, 'bad.json');
    const err = await cli(bad, '-o', path.join(out, 'one.pdf')).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).to.equal(2);
    expect(err?.stderr).to.match(/^Invalid document: .*\n {2}from is required/);
    const missing = await cli(path.join(out, 'nowhere.json'), bad).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(missing?.code).to.equal(2);
    expect(missing?.stderr).to.equal(`${path.join(out, 'nowhere.json')}: no such file\n`);
  });

  it('--cii gives the CII of the API, --factur-x a PDF/A-3 with the same CII attached; two outputs at once are refused', async function () {
    const request = {
      from: 'Acme GmbH\nVAT ID: DE123456789',
      to: 'Client SARL\nVAT ID: FR40303265045',
      number: 'CLI-1',
      date: '2026-11-02',
      items: [
        { name: 'Tools', quantity: 2, unit_cost: 50, tax: 19 },
        { name: 'Books', quantity: 1, unit_cost: 20, tax: 7 },
      ],
      fields: { tax: '%' },
      tax: 19,
    };
    const file = path.join(out, 'cii.json');
    fs.writeFileSync(file, JSON.stringify(request));
    const ciiFile = path.join(out, 'cii.xml');
    await cli(file, '--cii', '-o', ciiFile);
    const service = await sharedService();
    const api = await post(service, request, { path: '/cii' });
    expect(api.status).to.equal(200);
    expect(fs.readFileSync(ciiFile, 'utf8')).to.equal(await api.text());
    const fxFile = path.join(out, 'fx.pdf');
    await cli(file, '--factur-x', '-o', fxFile);
    const attached = path.join(out, 'fx-attached');
    fs.mkdirSync(attached, { recursive: true });
    await run('pdfdetach', ['-saveall', '-o', attached, fxFile]);
    expect(fs.readFileSync(path.join(attached, 'factur-x.xml'), 'utf8')).to.equal(fs.readFileSync(ciiFile, 'utf8'));
    const err = await cli(file, '--cii', '--ubl').then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).to.equal(2);
    expect(err?.stderr).to.contain('Usage:');
  });
});
