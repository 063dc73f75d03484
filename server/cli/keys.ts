// The keys CLI (docs/decisions.md §9): create, list and revoke API keys, set plans and show usage, for operators.
// Uses the same store as the service (SQLITE_PATH, or REDIS_URL). A new key is printed once; only its hash is stored.
import { ConfigError, loadConfig, type Config } from '../config';
import { accountPlan, KeyStoreError, PLANS, type KeyStore, type Plan } from '../keys/key-store';
import { openStore } from '../keys/open-store';
import { limitOf, nextPeriodStart, periodOf } from '../quota/quota';

/** How this CLI is run where it runs: from the sources with npm (development), or compiled with node alone (the Docker
 * image has no npm and no tsx: `node dist/server/cli/keys.js`). Its hints name the same command. */
export const KEYS_COMMAND = __filename.endsWith('.js') ? 'node dist/server/cli/keys.js' : 'npm run keys --';

const USAGE = `Usage:
  ${KEYS_COMMAND} create --account NAME [--plan free|paid] [--quiet]
  ${KEYS_COMMAND} list [--account NAME] [--json]
  ${KEYS_COMMAND} revoke KEY_OR_PREFIX
  ${KEYS_COMMAND} set-plan --account NAME --plan free|paid
  ${KEYS_COMMAND} usage --account NAME [--month YYYY-MM]`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new KeyStoreError(`--${name} needs a value`);
  return value;
}

function planOption(rest: string[], required: boolean): Plan | undefined {
  const plan = option(rest, 'plan');
  if (plan === undefined && required) throw new KeyStoreError('--plan is required');
  if (plan !== undefined && !PLANS.includes(plan as Plan)) throw new KeyStoreError(`--plan must be one of ${PLANS.join(', ')}`);
  return plan as Plan | undefined;
}

type Out = (s: string) => void;

/** set-plan: moves an account to another plan. */
async function setPlanCommand(rest: string[], store: KeyStore, out: Out): Promise<number> {
  const account = option(rest, 'account');
  if (!account) throw new KeyStoreError('set-plan needs --account NAME');
  const plan = planOption(rest, true)!;
  if (!(await store.setPlan(account, plan))) {
    out(`No account "${account}".`);
    return 1;
  }
  out(`Account "${account}" is now on the ${plan} plan.`);
  return 0;
}

/** usage: an account's documents in a month against its plan's limit. */
async function usageCommand(rest: string[], store: KeyStore, out: Out, limits: Config['planLimits'], now: Date): Promise<number> {
  const account = option(rest, 'account');
  if (!account) throw new KeyStoreError('usage needs --account NAME');
  const month = option(rest, 'month') ?? periodOf(now);
  if (!/^\d{4}-\d{2}$/.test(month)) throw new KeyStoreError('--month must look like 2026-11');
  const keys = await store.listKeys(account);
  if (keys.length === 0) {
    out(`No account "${account}".`);
    return 1;
  }
  const plan = accountPlan(keys);
  const limit = limitOf(limits, plan);
  const used = await store.usage(account, month);
  const reset = month === periodOf(now) ? `; resets ${nextPeriodStart(now).toISOString().slice(0, 10)}` : '';
  out(`${account}: ${used} / ${limit ?? 'unlimited'} documents in ${month} (${plan} plan${reset})`);
  return 0;
}

/** create: a new key for an account, printed once. */
async function createCommand(rest: string[], store: KeyStore, out: Out): Promise<number> {
  const account = option(rest, 'account');
  if (!account || !account.trim()) throw new KeyStoreError('create needs --account NAME');
  const { key, info } = await store.createKey(account.trim(), planOption(rest, false));
  if (rest.includes('--quiet')) out(key);
  else {
    out(`Created a key for account "${info.account}" (plan ${info.plan}). It is shown only this once:\n`);
    out(`    ${key}\n`);
    out(`Revoke it with: ${KEYS_COMMAND} revoke ${info.prefix}`);
  }
  return 0;
}

/** list: the keys (of one account or all) as a table or as JSON. */
async function listCommand(rest: string[], store: KeyStore, out: Out): Promise<number> {
  const keys = await store.listKeys(option(rest, 'account'));
  if (rest.includes('--json')) {
    out(JSON.stringify(keys, null, 2));
    return 0;
  }
  if (keys.length === 0) {
    out('No keys.');
    return 0;
  }
  const rows = keys.map((k) => [k.prefix + '…', k.account, k.plan, k.active ? 'active' : 'revoked', k.createdAt, k.lastUsedAt ?? 'never']);
  const head = ['KEY', 'ACCOUNT', 'PLAN', 'STATUS', 'CREATED', 'LAST USED'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [head, ...rows])
    out(
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
  return 0;
}

/** revoke: a key, named by itself or by its prefix as list shows it. */
async function revokeCommand(rest: string[], store: KeyStore, out: Out): Promise<number> {
  const target = rest[0];
  if (!target) throw new KeyStoreError('revoke needs the key or its prefix (as shown by list)');
  const info = await store.revokeKey(target.replace(/…$/, ''));
  if (!info) {
    out(`No key matches ${target}.`);
    return 1;
  }
  out(`Revoked ${info.prefix}… of account "${info.account}".`);
  return 0;
}

/** Runs one command of the CLI; the exit code (0 done, 1 nothing matched, 2 usage). */
export async function runKeysCli(
  args: string[],
  store: KeyStore,
  out: Out,
  limits: Config['planLimits'] = { free: 100, paid: null },
  now: Date = new Date(),
): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'set-plan':
      return setPlanCommand(rest, store, out);
    case 'usage':
      return usageCommand(rest, store, out, limits, now);
    case 'create':
      return createCommand(rest, store, out);
    case 'list':
      return listCommand(rest, store, out);
    case 'revoke':
      return revokeCommand(rest, store, out);
    default:
      out(USAGE);
      return command === 'help' || command === '--help' ? 0 : 2;
  }
}

if (require.main === module) {
  (async () => {
    let store: KeyStore | undefined;
    try {
      const config = loadConfig();
      store = openStore(config);
      process.exitCode = await runKeysCli(process.argv.slice(2), store, (s) => process.stdout.write(`${s}\n`), config.planLimits);
    } catch (err) {
      if (err instanceof KeyStoreError || err instanceof ConfigError) {
        process.stderr.write(`${err.message}\n${err instanceof KeyStoreError ? USAGE + '\n' : ''}`);
        process.exitCode = 2;
      } else throw err;
    } finally {
      await store?.close();
    }
  })();
}
