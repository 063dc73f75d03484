// The command-line validator: a received e-invoice (UBL or CII XML, or a Factur-X / ZUGFeRD PDF) checked against its
// XSD and every official rule set of its specification, as POST /validate does, without HTTP, keys or Chromium.
// Prints a summary (each rule set, then each finding), or the report as JSON with --json. Exit code 0 when valid,
// 1 when it breaks rules, 2 when the file is no e-invoice or cannot be read.
//   npm run validate -- FILE.xml|FILE.pdf [--json]
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { acquireRulesPool } from '../einvoice/rules/rules-pool';
import type { ValidationReport } from '../einvoice/received/check';
import { acquireXsdValidator } from '../einvoice/xsd-validator';
import { DomainError } from '../errors';
import { checkReceivedBody } from '../received-pipeline';

const USAGE = 'Usage: npm run validate -- FILE.xml|FILE.pdf [--json]';

/** The report as a person reads it: the verdict, each rule set, then each finding with where it is. */
export function summary(file: string, r: ValidationReport): string {
  const lines = [
    `${file}: ${r.valid ? 'valid' : 'NOT valid'} (${r.syntax.toUpperCase()} ${r.document_type.replace('_', ' ')}, ${r.specification ?? 'no specification'})`,
  ];
  for (const set of r.rule_sets) {
    const state = set.skipped ?? `${set.fatal} error${set.fatal === 1 ? '' : 's'}, ${set.warnings} warning${set.warnings === 1 ? '' : 's'}`;
    lines.push(`  ${set.name} ${set.version}: ${state}`);
  }
  for (const f of [...r.errors, ...r.warnings]) {
    const where = f.line !== undefined ? `line ${f.line}:${f.column ?? 1}` : f.location;
    lines.push(`  ${f.severity === 'fatal' ? 'error' : f.severity} ${f.rule} at ${where}: ${f.message}`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' } } });
  if (positionals.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const file = positionals[0]!;
  const bytes = fs.readFileSync(file);
  const kind = bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? 'pdf' : 'xml';
  const config = loadConfig({ ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'test' });
  const xsd = acquireXsdValidator(config);
  const rules = acquireRulesPool(config);
  try {
    await Promise.all([xsd.validator.ready(), rules.pool.ready()]);
    const { report } = await checkReceivedBody({ kind, bytes }, xsd.validator, rules.pool);
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : summary(file, report));
    return report.valid ? 0 : 1;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    process.stderr.write(`${file}: ${err.message}\n`);
    return 2;
  } finally {
    await rules.release();
    await xsd.release();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: Error) => {
      process.stderr.write(`${err.stack}\n`);
      process.exitCode = 2;
    },
  );
}
