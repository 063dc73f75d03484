// The rule sets table (rule-sets.ts), read from standards/manifest.json: every id the code names has one row with a
// name, version and syntax, compiled rules or the reason it is not run; the profiles' table only sends a syntax's
// documents to rule sets of that syntax; ruleSetFiles and ruleFileProblems resolve and check the files under a folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { PROFILES, UNKNOWN_SPECIFICATION_RULES } from '../../../../server/einvoice/profiles';
import { RULE_SET_IDS, RULE_SETS, ruleFileProblems, ruleSetFiles, type RuleSetId } from '../../../../server/einvoice/rules/rule-sets';

describe('the rule sets (rule-sets.ts)', function () {
  it('has one row per id the code names, each with a distinct name, a version and a syntax', function () {
    expect(Object.keys(RULE_SETS).sort()).to.deep.equal([...RULE_SET_IDS].sort());
    const names = Object.values(RULE_SETS).map((s) => s.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const [id, set] of Object.entries(RULE_SETS)) {
      expect(set.version, id).to.be.a('string').and.not.equal('');
      expect(['ubl', 'cii', 'cdar'], id).to.include(set.syntax);
      expect(id.endsWith(`-${set.syntax}`) || id.startsWith('facturx-'), `${id} named for its syntax`).to.equal(true);
    }
  });

  it('gives each rule set compiled rules or the reason it is not run, never both', function () {
    for (const [id, set] of Object.entries(RULE_SETS)) expect(Boolean(set.file) !== Boolean(set.notRun), id).to.equal(true);
    expect(RULE_SETS['facturx-extended'].notRun).to.match(/^not run: /);
    const ruleInText = Object.entries(RULE_SETS)
      .filter(([, s]) => s.ruleInText)
      .map(([id]) => id);
    expect(ruleInText.length).to.be.greaterThan(0);
    expect(
      ruleInText.every((id) => id.startsWith('facturx-')),
      'only Factur-X names the rule in its text',
    ).to.equal(true);
  });

  it("sends a received document only to rule sets of its own syntax, and Factur-X's to CII ones", function () {
    const uses: [string, RuleSetId, string][] = [];
    for (const [profile, row] of Object.entries(PROFILES)) {
      for (const syntax of ['ubl', 'cii'] as const) for (const id of row.received[syntax] ?? []) uses.push([profile, id, syntax]);
      if (row.facturX?.rules) uses.push([`${profile} (Factur-X)`, row.facturX.rules as RuleSetId, 'cii']);
    }
    for (const syntax of ['ubl', 'cii'] as const) for (const id of UNKNOWN_SPECIFICATION_RULES[syntax]) uses.push(['unknown', id, syntax]);
    expect(uses.length).to.be.greaterThan(10);
    for (const [who, id, syntax] of uses) {
      expect(RULE_SETS[id], `${who}: ${id}`).to.not.equal(undefined);
      expect(RULE_SETS[id].syntax, `${who}: ${id}`).to.equal(syntax);
    }
  });

  it('resolves the files of every rule set that runs under the rules folder, the not-run ones left out', function () {
    const dir = path.join(os.tmpdir(), 'rules-here');
    const files = ruleSetFiles(dir);
    const running = Object.entries(RULE_SETS).filter(([, s]) => s.file);
    expect(files.map((f) => f.id)).to.deep.equal(running.map(([id]) => id));
    expect(files.map((f) => f.id)).to.not.include('facturx-extended');
    for (const f of files) {
      expect(f.file, f.id).to.equal(path.join(dir, RULE_SETS[f.id].file!));
      expect(f.reads, f.id).to.deep.equal((RULE_SETS[f.id].reads ?? []).map((r) => path.join(dir, r)));
    }
    expect(
      files.some((f) => f.reads.length > 0),
      'some read files of their own',
    ).to.equal(true);
  });

  it('names every missing rule file, a folder in place of one, and nothing once all are there', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rule-files-'));
    const all = ruleSetFiles(dir).flatMap((f) => [f.file, ...f.reads]);
    const missing = ruleFileProblems(dir);
    expect(missing).to.have.length(all.length);
    expect(missing[0]).to.equal(`${RULE_SETS['en16931-ubl'].name}: ${path.join(dir, RULE_SETS['en16931-ubl'].file!)} is missing`);
    for (const f of all) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, '{}');
    }
    expect(ruleFileProblems(dir)).to.deep.equal([]);
    const one = all[all.length - 1]!;
    fs.rmSync(one);
    fs.mkdirSync(one);
    expect(ruleFileProblems(dir)).to.deep.equal([`${RULE_SETS['br-fr-cdar'].name}: ${one} is not a file`]);
    fs.rmSync(dir, { recursive: true });
  });
});
