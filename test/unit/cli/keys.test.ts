// The keys CLI (cli/keys.ts) on a store in memory: each command's arguments (a missing or dashed value, a plan that is
// none, a bad month refused with KeyStoreError; an unknown command gives the usage and exit 2), what it prints, and
// its exit code (0 done, 1 nothing matched). The CLI as a process is test/e2e/keys-cli.test.ts's.
import { expect } from 'chai';
import { KEYS_COMMAND, runKeysCli } from '../../../server/cli/keys';
import { KeyStoreError } from '../../../server/keys/key-store';
import { SqliteKeyStore } from '../../../server/keys/sqlite/store';

const NOW = new Date(Date.UTC(2026, 4, 15));

describe('keys CLI', function () {
  let store: SqliteKeyStore;
  let lines: string[];
  const run = (...args: string[]) => runKeysCli(args, store, (s) => void lines.push(s), { free: 100, paid: null }, NOW);
  const refusal = async (...args: string[]): Promise<string> => {
    try {
      await run(...args);
    } catch (err) {
      expect(err).to.be.instanceOf(KeyStoreError);
      return (err as Error).message;
    }
    throw new Error(`${args.join(' ')}: not refused`);
  };
  beforeEach(function () {
    store = new SqliteKeyStore(':memory:');
    lines = [];
  });
  afterEach(async function () {
    await store.close();
  });

  it('gives the usage for no command, an unknown one (exit 2) and help (exit 0)', async function () {
    expect(await run()).to.equal(2);
    expect(await run('delete-everything')).to.equal(2);
    expect(await run('help')).to.equal(0);
    expect(await run('--help')).to.equal(0);
    expect(lines.every((l) => l.startsWith('Usage:'))).to.equal(true);
    expect(lines[0]).to.contain(`${KEYS_COMMAND} create --account NAME`);
  });

  it('creates a key for a trimmed account name, printing it once, or alone with --quiet', async function () {
    expect(await run('create', '--account', '  team  ', '--plan', 'paid')).to.equal(0);
    const key = /sk_[0-9A-Za-z]{32}/.exec(lines.join('\n'))![0];
    expect(lines.join('\n').split(key).length - 1, 'printed once').to.equal(1);
    expect(lines[0]).to.equal('Created a key for account "team" (plan paid). It is shown only this once:\n');
    expect(await store.authenticate(key)).to.deep.equal({ status: 'ok', account: 'team', plan: 'paid' });
    lines = [];
    await run('create', '--account', 'team', '--quiet');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^sk_[0-9A-Za-z]{32}$/);
  });

  it('refuses create without an account, a blank one, a dashed value, or a plan that is none', async function () {
    expect(await refusal('create')).to.equal('create needs --account NAME');
    expect(await refusal('create', '--account', '   ')).to.equal('create needs --account NAME');
    expect(await refusal('create', '--account', '--plan', 'paid')).to.equal('--account needs a value');
    expect(await refusal('create', '--account')).to.equal('--account needs a value');
    expect(await refusal('create', '--account', 'a', '--plan', 'gold')).to.equal('--plan must be one of free, paid');
    expect(await store.countKeys()).to.equal(0);
  });

  it('lists keys as an aligned table (prefixes, never keys), as JSON, or says there are none', async function () {
    expect(await run('list')).to.equal(0);
    expect(lines).to.deep.equal(['No keys.']);
    const { key, info } = await store.createKey('a@example.com');
    lines = [];
    await run('list');
    expect(lines[0]).to.match(/^KEY +ACCOUNT +PLAN +STATUS +CREATED +LAST USED$/);
    expect(lines[1])
      .to.contain(`${info.prefix}…`)
      .and.contain('a@example.com')
      .and.contain('active')
      .and.match(/never$/);
    expect(lines[1]!.indexOf('a@example.com')).to.equal(lines[0]!.indexOf('ACCOUNT'));
    expect(lines.join('\n')).to.not.contain(key);
    lines = [];
    await run('list', '--account', 'a@example.com', '--json');
    expect(JSON.parse(lines[0]!)).to.deep.equal([info]);
  });

  it('revokes by the prefix as list shows it (with …), says when nothing matches (exit 1), refuses no target', async function () {
    const { info } = await store.createKey('a');
    expect(await run('revoke', `${info.prefix}…`)).to.equal(0);
    expect(lines).to.deep.equal([`Revoked ${info.prefix}… of account "a".`]);
    expect(await run('revoke', 'sk_nothing')).to.equal(1);
    expect(lines[1]).to.equal('No key matches sk_nothing.');
    expect(await refusal('revoke')).to.equal('revoke needs the key or its prefix (as shown by list)');
  });

  it('sets a plan of an existing account, exit 1 for none, and refuses a missing or unknown plan', async function () {
    await store.createKey('a');
    expect(await run('set-plan', '--account', 'a', '--plan', 'paid')).to.equal(0);
    expect(lines).to.deep.equal(['Account "a" is now on the paid plan.']);
    expect(await run('set-plan', '--account', 'b', '--plan', 'paid')).to.equal(1);
    expect(await refusal('set-plan', '--account', 'a')).to.equal('--plan is required');
    expect(await refusal('set-plan', '--plan', 'paid')).to.equal('set-plan needs --account NAME');
    expect(await refusal('set-plan', '--account', 'a', '--plan', 'constructor')).to.equal('--plan must be one of free, paid');
  });

  it("shows an account's usage against its plan's limit, with the reset date for this month only", async function () {
    await store.createKey('a');
    await store.addUsage('a', '2026-05', 7);
    expect(await run('usage', '--account', 'a')).to.equal(0);
    expect(lines[0]).to.equal('a: 7 / 100 documents in 2026-05 (free plan; resets 2026-06-01)');
    await run('usage', '--account', 'a', '--month', '2026-04');
    expect(lines[1]).to.equal('a: 0 / 100 documents in 2026-04 (free plan)');
    await store.setPlan('a', 'paid');
    await run('usage', '--account', 'a');
    expect(lines[2]).to.equal('a: 7 / unlimited documents in 2026-05 (paid plan; resets 2026-06-01)');
  });

  it('refuses usage without an account or with a month that is not YYYY-MM; exit 1 for an unknown account', async function () {
    expect(await refusal('usage')).to.equal('usage needs --account NAME');
    for (const month of ['2026-5', '202605', '2026-05-01', '2026-05; DROP TABLE usage'])
      expect(await refusal('usage', '--account', 'a', '--month', month), month).to.equal('--month must look like 2026-11');
    expect(await run('usage', '--account', 'nobody')).to.equal(1);
    expect(lines).to.deep.equal(['No account "nobody".']);
  });
});
