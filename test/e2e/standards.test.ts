// The standards as a user gets them (docs/standards.md): the install step compiles a rule set the mirror has no
// compiled copy of from its sources, and the service checks official examples with it; a standards folder that lacks
// an artefact, or holds another release than the manifest names, stops start-up naming it; and a clean clone of the
// repository with no ../shared beside it, given a mirror folder elsewhere, installs, builds and starts, and its
// /validate names the EN 16931, Peppol and XRechnung rules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { projectRoot } from '../../server/config';
import { installStandards } from '../../server/standards/install';
import { readRecord } from '../../server/standards/installed';
import { artefactOf, loadManifest } from '../../server/standards/manifest';
import { startService as startBuilt, type BenchService } from '../../scripts/bench/service';
import { XRECHNUNG_REQUEST } from '../helpers/e-invoice-request';
import { readExample, type Report } from '../helpers/received';
import { STANDARDS_DIR } from '../helpers/schematron';
import { fakeRenderer, post, startTestService, type TestService } from '../helpers/service';

const tmp = (prefix: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `standards-${prefix}-`));
const PEPPOL_EXAMPLE = readExample('peppol-bis-3/base-example.xml');
const XRECHNUNG_ID = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
/** The release of an artefact, as standards/manifest.json names it. */
const release = (id: string): string => artefactOf(loadManifest(), id).version;

/** A mirror made from the installed standards: every artefact's files, and the compiled copies but `without`. */
function mirrorOf(without: string[] = [], into = tmp('mirror')): string {
  const record = readRecord(STANDARDS_DIR)!;
  const files = [...Object.values(record.artefacts).flatMap((a) => a.files), ...Object.keys(record.compiled)];
  for (const rel of files.filter((f) => !without.includes(f))) {
    fs.mkdirSync(path.dirname(path.join(into, rel)), { recursive: true });
    fs.copyFileSync(path.join(STANDARDS_DIR, rel), path.join(into, rel));
  }
  return into;
}

async function validate(service: { url: string; key: string }, xml: string): Promise<Report> {
  const res = await post(service, Buffer.from(xml), { path: '/validate', headers: { 'content-type': 'application/xml' } });
  expect(res.status, await res.clone().text()).to.equal(200);
  return (await res.json()) as Report;
}

async function startError(env: Record<string, string>): Promise<Error> {
  let service: TestService | undefined;
  try {
    service = await startTestService(env, { pdf: fakeRenderer(), logger: pino({ level: 'silent' }) });
  } catch (err) {
    return err as Error;
  } finally {
    await service?.close();
  }
  throw new Error('the service started');
}

describe('the standards as a user gets them', function () {
  this.timeout(300000);

  it('a rule set the mirror has no compiled copy of is compiled from its sources, and /validate runs it', async function () {
    // XRechnung's UBL rules: the smallest schematron of the manifest's compile list that /validate runs on a UBL of its
    // own making (Peppol's, three times its size, compiles the same way in three times the time).
    const manifest = loadManifest();
    const mirror = mirrorOf(['compiled/xrechnung-ubl.sef.json']);
    const dest = tmp('dest');
    const lines: string[] = [];
    const s = await installStandards({ manifest, dest, mirror, log: (l) => lines.push(l) });
    expect(s.compiled.compiled).to.deep.equal(['compiled/xrechnung-ubl.sef.json']);
    expect(s.compiled.fromMirror).to.have.length(manifest.compile.length - 1);
    expect(lines.join('\n')).to.match(/compiled\/xrechnung-ubl\.sef\.json: compiled from xrechnung\/ubl\/XRechnung-UBL-validation\.sch/);
    expect(readRecord(dest)!.compiled['compiled/xrechnung-ubl.sef.json']!.how).to.equal('compiled');

    const service = await startTestService({ STANDARDS_DIR: dest }, { pdf: fakeRenderer() });
    try {
      const made = await post(service, XRECHNUNG_REQUEST, { path: '/ubl' });
      const xml = await made.text();
      expect(made.status, xml.slice(0, 400)).to.equal(200);
      const good = await validate(service, xml);
      expect(good.rule_sets.map((r) => [r.name, r.version, r.fatal])).to.deep.equal([
        ['UBL Invoice XSD', '2.1', 0],
        ['EN 16931 UBL', release('en16931'), 0],
        ['XRechnung 3.0 UBL', release('xrechnung'), 0],
      ]);
      expect(good.valid).to.equal(true);
      // The rules compiled here do fail: an XRechnung without its buyer reference breaks BR-DE-15.
      const bad = await validate(service, xml.replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, ''));
      expect(bad.valid).to.equal(false);
      expect(bad.errors.map((e) => `${e.rule_set}: ${e.rule}`)).to.deep.equal(['XRechnung 3.0 UBL: BR-DE-15']);
    } finally {
      await service.close();
    }
  });

  it('a missing compiled rule set, a missing schema, or another release than the manifest names stops start-up, naming it', async function () {
    const noRules = mirrorOf(['compiled/xrechnung-cii.sef.json']);
    fs.copyFileSync(path.join(STANDARDS_DIR, 'installed.json'), path.join(noRules, 'installed.json'));
    const e1 = await startError({ STANDARDS_DIR: noRules });
    expect(e1.message).to.contain(`XRechnung 3.0 CII: ${path.join(noRules, 'compiled/xrechnung-cii.sef.json')} is missing`);
    expect(e1.message).to.contain('npm run standards');

    const noXsd = mirrorOf(['ubl-2.1/xsdrt/maindoc/UBL-CreditNote-2.1.xsd']);
    const e2 = await startError({ STANDARDS_DIR: noXsd });
    expect(e2.message).to.match(/UBL XSD files are missing: .*UBL-CreditNote-2\.1\.xsd \(run npm run standards/);

    const older = mirrorOf();
    const record = readRecord(STANDARDS_DIR)!;
    record.artefacts['peppol-bis-3'] = { ...record.artefacts['peppol-bis-3']!, version: 'an older one', sha256: 'e'.repeat(64) };
    fs.writeFileSync(path.join(older, 'installed.json'), JSON.stringify(record));
    const e3 = await startError({ STANDARDS_DIR: older });
    expect(e3.message).to.contain('run npm run standards');
    expect(e3.message).to.contain(
      `${older} holds Peppol BIS Billing 3.0 rules, syntax binding and code lists an older one, the manifest names ${release('peppol-bis-3')}`,
    );
  });

  it('received e-invoices turned off (RECEIVED_EINVOICES=false): no rule set needed, /validate answers rules_unavailable', async function () {
    const noCompiled = mirrorOf(Object.keys(readRecord(STANDARDS_DIR)!.compiled));
    const service = await startTestService({ STANDARDS_DIR: noCompiled, RECEIVED_EINVOICES: 'false' }, { pdf: fakeRenderer() });
    try {
      const res = await post(service, Buffer.from(PEPPOL_EXAMPLE), { path: '/validate', headers: { 'content-type': 'application/xml' } });
      expect(res.status).to.equal(503);
      expect(((await res.json()) as { code: string }).code).to.equal('rules_unavailable');
    } finally {
      await service.close();
    }
  });

  describe('a clean clone with no ../shared beside it and a mirror folder elsewhere', function () {
    let service: BenchService | undefined;
    after(async () => service?.stop());

    it('installs the standards from the mirror, builds, starts, and /validate names the EN 16931, Peppol and XRechnung rules', async function () {
      const place = tmp('clone');
      const clone = path.join(place, 'docgen');
      execFileSync('git', ['clone', '--quiet', '--no-hardlinks', projectRoot(), clone], { stdio: 'pipe' });
      expect(fs.existsSync(path.join(place, 'shared')), '../shared beside the clone').to.equal(false);
      expect(fs.existsSync(path.join(clone, 'vendor')), 'vendor/ in a clean clone').to.equal(false);
      fs.symlinkSync(path.join(projectRoot(), 'node_modules'), path.join(clone, 'node_modules'));
      const mirror = mirrorOf([], path.join(tmp('elsewhere'), 'standards-mirror'));

      const env = { ...process.env, STANDARDS_MIRROR: mirror, STANDARDS_DIR: '' };
      const out = execFileSync('npm', ['run', '-s', 'standards'], { cwd: clone, env, stdio: 'pipe' }).toString();
      expect(out).to.match(/artefacts 8 installed, 0 already there/);
      expect(fs.existsSync(path.join(clone, 'vendor', 'compiled', 'xrechnung-ubl.sef.json'))).to.equal(true);
      execFileSync('npm', ['run', '-s', 'build'], { cwd: clone, stdio: 'pipe' });

      service = await startBuilt(clone, { NODE_ENV: 'development', STANDARDS_DIR: '', RULES_DIR: '', STANDARDS_MIRROR: '' });
      const peppol = await validate(service, PEPPOL_EXAMPLE);
      expect(peppol.valid).to.equal(true);
      expect(peppol.rule_sets.map((r) => r.name)).to.deep.equal(['UBL Invoice XSD', 'EN 16931 UBL', 'Peppol BIS Billing']);
      const declaredXRechnung = PEPPOL_EXAMPLE.replace(/<cbc:CustomizationID>[^<]*</, `<cbc:CustomizationID>${XRECHNUNG_ID}<`);
      const xr = await validate(service, declaredXRechnung);
      expect(xr.rule_sets.map((r) => `${r.name} ${r.version}`)).to.deep.equal([
        'UBL Invoice XSD 2.1',
        `EN 16931 UBL ${release('en16931')}`,
        `XRechnung 3.0 UBL ${release('xrechnung')}`,
      ]);
      expect(xr.rule_sets.every((r) => r.fatal + r.warnings >= 0 && !('skipped' in r && r.skipped))).to.equal(true);
    });
  });
});
