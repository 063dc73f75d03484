// The service as the quick start and the Docker image run it: compiled by `npm run build` (tsconfig.build.json,
// Node's own module rules) and started from dist/ as its own process on its embedded defaults (a fresh SQLite file,
// the development key it prints), then asked for a PDF over HTTP. The tests elsewhere run the TypeScript sources
// through tsx, which compiles under other rules: a module the build cannot compile (an ES module imported from
// CommonJS, say) fails only here.
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { startService, type BenchService } from '../../scripts/bench/service';
import { isPdf } from '../helpers/pdf';

describe('the quick start: npm run build, then the built service', function () {
  this.timeout(180000);
  let service: BenchService | undefined;
  after(async function () {
    await service?.stop();
  });

  it('compiles without an error and, started from dist/, prints its key and answers with a PDF', async function () {
    const root = projectRoot();
    let output = '';
    try {
      execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'pipe' });
    } catch (err) {
      output = `${(err as { stdout?: Buffer }).stdout ?? ''}${(err as { stderr?: Buffer }).stderr ?? ''}`;
    }
    expect(output, 'npm run build').to.equal('');
    service = await startService(root, { NODE_ENV: 'test' });
    const res = await fetch(`${service.url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'Acme', to: 'Client', items: [{ name: 'Work', quantity: 1, unit_cost: 10 }] }),
    });
    expect(res.status).to.equal(200);
    expect(isPdf(Buffer.from(await res.arrayBuffer()))).to.equal(true);
  });
});
