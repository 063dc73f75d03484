// The keys CLI (decisions §9): create, list and revoke API keys, for operators (the account page comes later).
// Uses the same SQLITE_PATH as the service. A new key is printed once; only its hash is stored.
import { ConfigError, loadConfig } from '../config';
import { KeyStoreError, PLANS, type KeyStore, type Plan } from '../keys/key-store';
import { SqliteKeyStore } from '../keys/sqlite-key-store';

const USAGE = `Usage:
  npm run keys -- create --account NAME [--plan free|paid] [--quiet]
  npm run keys -- list [--account NAME] [--json]
  npm run keys -- revoke KEY_OR_PREFIX`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new KeyStoreError(`--${name} needs a value`);
  return value;
}

export async function runKeysCli(args: string[], store: KeyStore, out: (s: string) => void): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create': {
      const account = option(rest, 'account');
      if (!account || !account.trim()) throw new KeyStoreError('create needs --account NAME');
      const plan = option(rest, 'plan');
      if (plan !== undefined && !PLANS.includes(plan as Plan)) throw new KeyStoreError(`--plan must be one of ${PLANS.join(', ')}`);
      const { key, info } = await store.createKey(account.trim(), plan as Plan | undefined);
      if (rest.includes('--quiet')) out(key);
      else {
        out(`Created a key for account "${info.account}" (plan ${info.plan}). It is shown only this once:\n`);
        out(`    ${key}\n`);
        out(`Revoke it with: npm run keys -- revoke ${info.prefix}`);
      }
      return 0;
    }
    case 'list': {
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
      for (const r of [head, ...rows]) out(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
      return 0;
    }
    case 'revoke': {
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
      store = new SqliteKeyStore(config.sqlitePath);
      process.exitCode = await runKeysCli(process.argv.slice(2), store, (s) => process.stdout.write(`${s}\n`));
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
