// The standards command: installs every artefact of standards/manifest.json into the standards folder (vendor/, or
// STANDARDS_DIR) from its publisher, or from a mirror folder (STANDARDS_MIRROR or --mirror), checking each SHA-256,
// and compiles the rule sets (server/standards/install.ts); `check` says what the folder lacks of what the manifest
// names. docs/standards.md explains the manifest and how to move to a new release.
//   npm run standards [-- install] [--mirror DIR] [--from-sources] [--dest DIR]
//   npm run standards -- check [--dest DIR]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../config';
import { STANDARDS_MANIFEST } from '../einvoice/rules/rule-sets';
import { InstallError, installStandards } from '../standards/install';
import { installedProblems, readRecord } from '../standards/installed';
import { ManifestError } from '../standards/manifest';

const USAGE = `Usage:
  npm run standards [-- install] [--mirror DIR] [--from-sources] [--dest DIR]
  npm run standards -- check [--dest DIR]
STANDARDS_MIRROR and STANDARDS_DIR are the defaults of --mirror and --dest.`;

/** What the command line asks for: `install` (the default) or `check`, into `dest` (--dest, else STANDARDS_DIR, else
 * vendor/), from `mirror` (--mirror, else STANDARDS_MIRROR; absent: the publishers), both absolute; or the usage, with
 * the exit code (0 for --help, 2 for arguments it does not take). Throws node:util's error for an unknown option. */
export function parseStandardsArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { usage: number } | { command: 'install' | 'check'; dest: string; mirror?: string; fromSources?: boolean } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { mirror: { type: 'string' }, dest: { type: 'string' }, 'from-sources': { type: 'boolean' }, help: { type: 'boolean' } },
  });
  const command = positionals[0] ?? 'install';
  if (values.help || positionals.length > 1 || (command !== 'install' && command !== 'check')) return { usage: values.help ? 0 : 2 };
  const dest = path.resolve(values.dest ?? (env.STANDARDS_DIR || path.join(projectRoot(), 'vendor')));
  const mirrorOption = values.mirror ?? (env.STANDARDS_MIRROR || undefined);
  return { command, dest, mirror: mirrorOption ? path.resolve(mirrorOption) : undefined, fromSources: values['from-sources'] };
}

async function main(argv: string[]): Promise<number> {
  const args = parseStandardsArgs(argv);
  if ('usage' in args) {
    process.stderr.write(`${USAGE}\n`);
    return args.usage;
  }
  const { command, dest, mirror } = args;
  const manifest = STANDARDS_MANIFEST;
  if (command === 'check') {
    const problems = readRecord(dest) ? installedProblems(manifest, dest) : [`${dest} holds no installed standards`];
    process.stdout.write(problems.length ? `${problems.map((p) => `- ${p}`).join('\n')}\n` : `${dest}: as the manifest names\n`);
    return problems.length ? 1 : 0;
  }
  if (mirror && !fs.existsSync(mirror)) {
    process.stderr.write(`standards: the mirror ${mirror} does not exist\n`);
    return 2;
  }
  const started = Date.now();
  const log = (line: string): void => void process.stdout.write(`standards: ${line}\n`);
  log(`installing into ${dest} from ${mirror ? `the mirror ${mirror}` : 'the publishers'}`);
  const s = await installStandards({ manifest, dest, mirror, fromSources: args.fromSources, log });
  log(
    `done in ${((Date.now() - started) / 1000).toFixed(1)} s: artefacts ${s.artefacts.installed.length} installed, ` +
      `${s.artefacts.kept.length} already there; rule sets ${s.compiled.compiled.length} compiled, ` +
      `${s.compiled.fromMirror.length} from the mirror's compiled copies, ${s.compiled.kept.length} already there`,
  );
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: Error) => {
      const known = err instanceof InstallError || err instanceof ManifestError;
      process.stderr.write(`standards: ${known ? err.message : err.stack}\n`);
      process.exitCode = known ? 1 : 2;
    },
  );
}
