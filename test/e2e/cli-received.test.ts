// The command line on received e-invoices: `npm run validate` prints the report's verdict and findings and exits 0 for
// a valid invoice, 1 for one that breaks rules, 2 for a file that is no e-invoice; `npm run render` shows an XML
// invoice as a PDF and converts it (--cii, --ubl), as the HTTP operations do. Real processes, real rules.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { pdfFlatText } from '../helpers/pdf';
import { EXAMPLES_DIR, readExample } from '../helpers/received';
import { tempDir } from '../helpers/service';

const run = promisify(execFile);

async function npm(script: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', script, '--', ...args], {
      cwd: projectRoot(),
      env: { ...process.env, NODE_ENV: 'test' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run validate and npm run render on received e-invoices', function () {
  this.timeout(180000);
  const dir = tempDir('cli-received');
  const peppol = path.join(EXAMPLES_DIR, 'peppol-bis-3', 'base-example.xml');

  it('validate: a valid invoice is exit 0 with each rule set; a wrong total exit 1 naming BR-CO-16; no invoice exit 2', async function () {
    const good = await npm('validate', peppol);
    expect(good.code, good.stderr).to.equal(0);
    expect(good.stdout)
      .to.match(/: valid \(UBL invoice/)
      .and.match(/EN 16931 UBL 1\.3\.16: 0 errors/)
      .and.match(/Peppol BIS/);

    const broken = path.join(dir, 'broken.xml');
    fs.writeFileSync(
      broken,
      readExample('peppol-bis-3/base-example.xml').replace(/(<cbc:PayableAmount currencyID="\w+">)[^<]*/, '$19999.99'),
    );
    const bad = await npm('validate', broken, '--json');
    expect(bad.code).to.equal(1);
    const report = JSON.parse(bad.stdout) as { valid: boolean; errors: { rule: string }[] };
    expect(report.valid).to.equal(false);
    expect(report.errors.map((e) => e.rule)).to.deep.equal(['BR-CO-16']);

    const order = path.join(dir, 'order.xml');
    fs.writeFileSync(order, '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>');
    const none = await npm('validate', order);
    expect(none.code).to.equal(2);
    expect(none.stderr).to.match(/not an e-invoice this service reads: a UBL Order/);
  });

  it('render: an XML invoice shown as a PDF and converted to CII and back to UBL', async function () {
    const pdf = path.join(dir, 'shown.pdf');
    expect((await npm('render', peppol, '--lang', 'de', '-o', pdf)).code).to.equal(0);
    const text = pdfFlatText(new Uint8Array(fs.readFileSync(pdf)));
    expect(text)
      .to.match(/Snippet1/)
      .and.match(/Geprüft/);
    const cii = path.join(dir, 'converted.xml');
    expect((await npm('render', peppol, '--cii', '-o', cii)).code).to.equal(0);
    expect(fs.readFileSync(cii, 'utf8'))
      .to.match(/<rsm:CrossIndustryInvoice/)
      .and.match(/poacc:billing:3\.0/);
    const ubl = path.join(dir, 'back.xml');
    expect((await npm('render', cii, '--ubl', '-o', ubl)).code).to.equal(0);
    expect(fs.readFileSync(ubl, 'utf8'))
      .to.match(/<Invoice /)
      .and.match(/<cbc:ID>Snippet1<\/cbc:ID>/);
  });
});
