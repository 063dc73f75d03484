// The standards manifest (server/standards/manifest.ts): the repository's own loads and names every rule set the code
// runs, with the versions the report gives; a broken one names every problem; an artefact's digest is what sha256sum
// prints of its files, as docs/standards.md says.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { RULE_SET_IDS, RULE_SETS } from '../../../server/einvoice/rules/rule-sets';
import { installedProblems, readRecord } from '../../../server/standards/installed';
import { loadManifest, ManifestError, MANIFEST_FILE, type Manifest } from '../../../server/standards/manifest';
import { takenFiles, treeDigest } from '../../../server/standards/tree';
import { STANDARDS_DIR } from '../../helpers/schematron';

const raw = (): Manifest => JSON.parse(fs.readFileSync(MANIFEST_FILE, 'utf8')) as Manifest;

function problemsOf(m: unknown): string[] {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-')), 'manifest.json');
  fs.writeFileSync(file, JSON.stringify(m));
  try {
    loadManifest(file, RULE_SET_IDS);
  } catch (err) {
    expect(err).to.be.instanceOf(ManifestError);
    return (err as ManifestError).problems;
  }
  return [];
}

describe('the standards manifest', function () {
  it("the repository's manifest loads, gives every rule set the code runs, and the report's versions come from it", function () {
    const m = loadManifest(MANIFEST_FILE, RULE_SET_IDS);
    expect(m.ruleSets.map((r) => r.id).sort()).to.deep.equal([...RULE_SET_IDS].sort());
    for (const row of m.ruleSets) {
      const artefact = m.artefacts.find((a) => a.id === row.artefact)!;
      expect(RULE_SETS[row.id as keyof typeof RULE_SETS].version, row.id).to.equal(artefact.version);
    }
    expect(RULE_SETS['peppol-ubl']).to.include({
      name: 'Peppol BIS Billing',
      version: m.artefacts.find((a) => a.id === 'peppol-bis-3')!.version,
    });
    for (const a of m.artefacts) expect(a.url, a.id).to.match(/^https:\/\/(github\.com|docs\.oasis-open\.org)\//);
  });

  it('a broken manifest names every problem: schema, references, and the rule sets the code knows', function () {
    const m = raw();
    m.artefacts[0]!.sha256 = 'abc';
    m.artefacts.push({ ...m.artefacts[1]! });
    m.compile.push({ output: 'compiled/x.sef.json', from: 'nowhere/x.sch' });
    m.ruleSets = m.ruleSets.filter((r) => r.id !== 'xrechnung-cii');
    m.ruleSets.push({ id: 'nobody', name: 'N', syntax: 'ubl', artefact: 'missing', file: 'compiled/none.sef.json' });
    expect(problemsOf(m)).to.deep.equal(['/artefacts/0/sha256 must match pattern "^[0-9a-f]{64}$"']);
    m.artefacts[0]!.sha256 = '0'.repeat(64);
    expect(problemsOf(m)).to.include.members([
      `the artefact id '${m.artefacts[1]!.id}' is given twice`,
      "compile compiled/x.sef.json: its source nowhere/x.sch is in no artefact's folders",
      'compile compiled/x.sef.json: a Schematron needs schematronPipeline',
      "rule set nobody: no artefact 'missing'",
      'rule set nobody: compiled/none.sef.json is no compile output',
      "the rule set 'xrechnung-cii' the service runs is missing",
      "the rule set 'nobody' is not one the service knows",
    ]);
    expect(problemsOf({ ...raw(), url: 'x' })).to.deep.equal(['(top) must NOT have additional properties']);
    const http = raw();
    http.artefacts[0]!.url = 'http://docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip';
    expect(problemsOf(http))
      .to.have.length(1)
      .and.match(/url must match pattern/);
    const climbing = raw();
    climbing.artefacts[0]!.take[0]!.to = '../outside';
    expect(problemsOf(climbing))
      .to.have.length(1)
      .and.match(/take\/0\/to must match pattern/);
  });

  it("an artefact's digest is sha256sum's listing of its files, hashed again (as docs/standards.md shows)", function () {
    const m = loadManifest();
    const a = m.artefacts.find((x) => x.id === 'en16931')!;
    const problems: string[] = [];
    const files = takenFiles(a, STANDARDS_DIR, 'mirror', problems);
    expect(problems).to.deep.equal([]);
    expect(files).to.have.length(82);
    expect(files.map((f) => f.rel)).to.include('cii-d16b/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd');
    const listing = execFileSync('sha256sum', ['--', ...files.map((f) => f.rel)], { cwd: STANDARDS_DIR });
    const shell = execFileSync('sha256sum', [], { input: listing }).toString().split(' ')[0];
    expect(treeDigest(files)).to.equal(shell).and.equal(a.sha256);
  });

  it('the standards folder holds what the manifest names (the install step ran), and a changed manifest is told', function () {
    const m = loadManifest();
    expect(readRecord(STANDARDS_DIR), `${STANDARDS_DIR}/installed.json`).to.not.equal(undefined);
    expect(installedProblems(m, STANDARDS_DIR)).to.deep.equal([]);
    const peppol = m.artefacts.find((a) => a.id === 'peppol-bis-3')!;
    const moved: Manifest = {
      ...m,
      artefacts: m.artefacts.map((a) => (a === peppol ? { ...a, version: '3.0.22', sha256: 'f'.repeat(64) } : a)),
    };
    expect(installedProblems(moved, STANDARDS_DIR)).to.deep.equal([
      `${STANDARDS_DIR} holds ${peppol.name} ${peppol.version}, the manifest names 3.0.22 (SHA-256 ffffffffffff…)`,
      `compiled/peppol-ubl.sef.json in ${STANDARDS_DIR} was compiled from other releases than the manifest names`,
    ]);
  });
});
