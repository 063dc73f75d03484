// A Chromium that cannot start is named for its cause (server/browser-setup.ts): its sandbox (which Chromium refuses to
// run as root, and which needs the user namespaces Docker's default seccomp profile refuses a container; the Docker
// image's run is checked by scripts/docker-check.sh) is told apart from a browser that is missing, with real Chromium.
// The tests run as root here and in CI, where Chromium's sandbox never starts.
import { expect } from 'chai';
import { startBrowserPool } from '../../server/browser-setup';
import { loadConfig } from '../../server/config';

async function startError(env: Record<string, string>): Promise<string> {
  const config = loadConfig({ NODE_ENV: 'test', CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '', ...env });
  try {
    const pool = await startBrowserPool(config, { concurrency: 1 });
    await pool.close();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('Chromium started');
}

describe('Chromium that cannot start, named for its cause', function () {
  this.timeout(60000);

  it('its sandbox: the advice is CHROMIUM_SANDBOX=false (or user namespaces), not CHROMIUM_PATH', async function () {
    expect(process.getuid?.(), 'the tests run as root, where the sandbox cannot start').to.equal(0);
    const message = await startError({ CHROMIUM_SANDBOX: 'true' });
    expect(message).to.match(/^Chromium starts without its sandbox but not with it: .*Set CHROMIUM_SANDBOX=false/);
    expect(message).to.not.contain('CHROMIUM_PATH');
  });

  it('a browser that is not there: the advice is CHROMIUM_PATH', async function () {
    const message = await startError({ CHROMIUM_PATH: '/nonexistent/chromium', CHROMIUM_SANDBOX: 'true' });
    expect(message).to.match(/^Chromium could not be started from \/nonexistent\/chromium \(set CHROMIUM_PATH/);
  });
});
