// The keys CLI against a real SQLite file: create, list, revoke; a revoked key gets 401 inactive_api_key over HTTP.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { projectRoot } from '../../server/config';
import { hashApiKey } from '../../server/keys/api-key';
import { post, sharedService, type TestService } from '../helpers/service';

const run = promisify(execFile);

/** The CLI exactly as an operator runs it: `npm run keys -- …`, with the service's SQLITE_PATH. */
async function keysCli(service: TestService, ...args: string[]): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await run('npm', ['run', '-s', 'keys', '--', ...args], {
      cwd: projectRoot(),
      env: { ...process.env, SQLITE_PATH: service.config.sqlitePath, NODE_ENV: 'test' },
    });
    return { stdout, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout + e.stderr, code: e.code };
  }
}

const DOC = { from: 'CLI Co', to: 'Client', items: [{ name: 'Thing', quantity: 1, unit_cost: 1 }] };

describe('keys CLI', function () {
  this.timeout(60000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });

  it('creates a key that works, lists it without the key, revokes it, and the key then gets 401 inactive_api_key', async function () {
    const created = await keysCli(service, 'create', '--account', 'acme');
    expect(created.code).to.equal(0);
    const key = /sk_[0-9A-Za-z]{32}/.exec(created.stdout)?.[0];
    expect(key, created.stdout).to.be.a('string');
    expect(created.stdout).to.contain('shown only this once');

    const ok = await post(service, DOC, { key });
    expect(ok.status).to.equal(200);

    const listed = await keysCli(service, 'list', '--account', 'acme');
    expect(listed.code).to.equal(0);
    expect(listed.stdout).to.contain(key!.slice(0, 9));
    expect(listed.stdout).to.contain('acme');
    expect(listed.stdout).to.contain('free');
    expect(listed.stdout).to.contain('active');
    expect(listed.stdout, 'the list never shows a whole key').not.to.contain(key);

    const revoked = await keysCli(service, 'revoke', key!.slice(0, 9));
    expect(revoked.code).to.equal(0);
    expect(revoked.stdout).to.contain('Revoked');

    const denied = await post(service, DOC, { key });
    expect(denied.status).to.equal(401);
    expect(await denied.json()).to.deep.include({ error: 'inactive_api_key' });

    const after = await keysCli(service, 'list', '--account', 'acme', '--json');
    const rows = JSON.parse(after.stdout) as { prefix: string; active: boolean }[];
    expect(rows.find((r) => r.prefix === key!.slice(0, 9))?.active).to.equal(false);
  });

  it('stores only a SHA-256 hash of each key', async function () {
    const { stdout } = await keysCli(service, 'create', '--account', 'hash-check', '--plan', 'paid', '--quiet');
    const key = stdout.trim();
    expect(key).to.match(/^sk_[0-9A-Za-z]{32}$/);
    const db = new Database(service.config.sqlitePath, { readonly: true });
    try {
      const dump = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
      expect(dump).not.to.contain(key);
      expect(dump).to.contain(hashApiKey(key));
      const plan = db.prepare("SELECT plan FROM accounts WHERE name = 'hash-check'").get() as { plan: string };
      expect(plan.plan).to.equal('paid');
    } finally {
      db.close();
    }
  });

  it('refuses bad arguments with a usage message', async function () {
    const noAccount = await keysCli(service, 'create');
    expect(noAccount.code).to.equal(2);
    expect(noAccount.stdout).to.contain('--account');
    const badPlan = await keysCli(service, 'create', '--account', 'x', '--plan', 'gold');
    expect(badPlan.code).to.equal(2);
    expect(badPlan.stdout).to.contain('--plan must be one of free, paid');
    const unknown = await keysCli(service, 'revoke', 'sk_nothing');
    expect(unknown.code).to.equal(1);
    expect(unknown.stdout).to.contain('No key matches');
  });

  it('an unknown key gets 401 invalid_api_key and a missing key 401 invalid_request', async function () {
    const unknown = await post(service, DOC, { key: 'sk_' + 'a'.repeat(32) });
    expect(unknown.status).to.equal(401);
    const body = (await unknown.json()) as { error: string; message: string };
    expect(body.error).to.equal('invalid_api_key');
    expect(body.message).to.be.a('string');
    const missing = await post(service, DOC, { key: null });
    expect(missing.status).to.equal(401);
    // The reference's two fields as it has them, and the fields every error carries (docs/errors.md).
    const missingBody = (await missing.json()) as Record<string, unknown>;
    expect(missingBody).to.deep.include({
      error: 'invalid_request',
      message: 'No API key provided. Send your key in the Authorization header: Authorization: Bearer YOUR_API_KEY',
      type: 'invalid_request',
      code: 'missing_api_key',
      request_id: missing.headers.get('x-request-id'),
    });
    expect(Object.keys(missingBody).sort()).to.deep.equal(['code', 'error', 'message', 'request_id', 'type']);
  });
});
