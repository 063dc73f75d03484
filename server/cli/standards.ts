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

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { mirror: { type: 'string' }, dest: { type: 'string' }, 'from-sources': { type: 'boolean' }, help: { type: 'boolean' } },
  });
  const command = positionals[0] ?? 'install';
  if (values.help || positionals.length > 1 || !['install', 'check'].includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const dest = path.resolve(values.dest ?? (process.env.STANDARDS_DIR || path.join(projectRoot(), 'vendor')));
  const manifest = STANDARDS_MANIFEST;
  if (command === 'check') {
    const problems = readRecord(dest) ? installedProblems(manifest, dest) : [`${dest} holds no installed standards`];
    process.stdout.write(problems.length ? `${problems.map((p) => `- ${p}`).join('\n')}\n` : `${dest}: as the manifest names\n`);
    return problems.length ? 1 : 0;
  }
  const mirrorOption = values.mirror ?? (process.env.STANDARDS_MIRROR || undefined);
  const mirror = mirrorOption ? path.resolve(mirrorOption) : undefined;
  if (mirror && !fs.existsSync(mirror)) {
    process.stderr.write(`standards: the mirror ${mirror} does not exist\n`);
    return 2;
  }
  const started = Date.now();
  const log = (line: string): void => void process.stdout.write(`standards: ${line}\n`);
  log(`installing into ${dest} from ${mirror ? `the mirror ${mirror}` : 'the publishers'}`);
  const s = await installStandards({ manifest, dest, mirror, fromSources: values['from-sources'], log });
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
