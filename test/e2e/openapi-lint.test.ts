// The OpenAPI description passes Redocly's recommended rules with no error (npm run lint:openapi, the script CI runs):
// the output is printed so the warnings stay visible.
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';

describe('npm run lint:openapi (Redocly, recommended rules)', function () {
  it('reports no errors on the description the service builds', function () {
    this.timeout(120000);
    const run = spawnSync(process.execPath, ['-r', 'tsx/cjs', 'scripts/lint-openapi.ts'], { cwd: projectRoot(), encoding: 'utf8' });
    const output = `${run.stdout}\n${run.stderr}`;
    const summary = output.split('\n').filter((l) => /valid|warnings?\.|errors?\b/i.test(l) && !/^\s+\d+:\d+/.test(l));
    const byRule = new Map<string, number>();
    for (const m of output.matchAll(/^\s+\d+:\d+\s+(warning|error)\s+(\S+)/gm))
      byRule.set(`${m[1]} ${m[2]}`, (byRule.get(`${m[1]} ${m[2]}`) ?? 0) + 1);
    console.log(`      redocly: ${summary.join(' | ')}`);
    for (const [rule, n] of byRule) console.log(`        ${n} × ${rule}`);
    expect(
      [...byRule.keys()].filter((k) => k.startsWith('error')),
      output.slice(-3000),
    ).to.deep.equal([]);
    expect(output).to.contain('Your API description is valid');
    expect(run.status, output.slice(-3000)).to.equal(0);
  });
});
