// npm run test:e2e [-- --jobs N] [FILE …]: the end-to-end suite (test/e2e: the service over real HTTP) and the
// integration suite (test/integration: one module with its real outside: worker processes, the official rules, the
// received-PDF reader, real timers) in N mocha processes at once (the machine's cores, at most 4; 1 runs them as one
// mocha), each with its own shared service and Chromium and one rules pool held for its run (test/helpers/e2e-hooks.ts),
// as `mocha FILE …` would run its share. The files are dealt longest first to the shard with the least time so far, by the times of
// test/e2e/durations.json (seconds per file, measured by `npm run test:e2e -- --record`; a file it lacks counts as the
// median). Each shard's spec report is printed whole when it ends, then the counts of all; the exit code is the first
// shard's that failed. The files of the suite do not depend on each other, nor on the machine being idle: each starts
// what it needs on its own ports, sockets and temporary folders.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const E2E = path.join(ROOT, 'test', 'e2e');
const SUITES = [E2E, path.join(ROOT, 'test', 'integration')];
const DURATIONS = path.join(E2E, 'durations.json');

/** Every *.test.ts under `dir`, as paths from the project's root. */
function testFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.relative(ROOT, path.join(dir, f)));
}

interface Shard {
  files: string[];
  seconds: number;
}

/** The files dealt into `jobs` shards of about equal time (longest first, each to the shard with the least). */
export function deal(files: string[], durations: Record<string, number>, jobs: number): Shard[] {
  const known = files
    .map((f) => durations[f])
    .filter((s): s is number => s !== undefined)
    .sort((a, b) => a - b);
  const median = known.length > 0 ? known[Math.floor(known.length / 2)]! : 1;
  const shards: Shard[] = Array.from({ length: Math.max(1, jobs) }, () => ({ files: [], seconds: 0 }));
  for (const file of [...files].sort((a, b) => (durations[b] ?? median) - (durations[a] ?? median) || a.localeCompare(b))) {
    const shard = shards.reduce((least, s) => (s.seconds < least.seconds ? s : least));
    shard.files.push(file);
    shard.seconds += durations[file] ?? median;
  }
  return shards.filter((s) => s.files.length > 0);
}

interface ShardRun {
  code: number;
  output: string;
  /** Seconds per file, from the JSON lines of the recording reporter (--record). */
  timings: Record<string, number>;
}

function runShard(index: number, shard: Shard, record: boolean, onOutput: (chunk: string) => void): Promise<ShardRun> {
  const mocha = path.join(ROOT, 'node_modules', '.bin', 'mocha');
  const args = [
    // After the TypeScript loader (a --require here comes before .mocharc's).
    ...['--require', 'tsx/cjs', '--require', path.join(ROOT, 'test', 'helpers', 'e2e-hooks.ts')],
    ...(record ? ['--reporter', path.join(ROOT, 'test', 'helpers', 'timing-reporter.cjs')] : []),
    ...shard.files,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(mocha, args, { cwd: ROOT, env: { ...process.env, E2E_SHARD: String(index) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // Read as text by the streams' own decoders, so that a character split across two chunks stays whole.
    const take = (chunk: string) => {
      output += chunk;
      onOutput(chunk);
    };
    child.stdout.setEncoding('utf8').on('data', take);
    child.stderr.setEncoding('utf8').on('data', take);
    child.on('error', reject);
    child.on('close', (code) => {
      const timings: Record<string, number> = {};
      for (const m of output.matchAll(/^@file-seconds (\S+) ([\d.]+)$/gm)) timings[m[1]!] = Number(m[2]);
      resolve({ code: code ?? 1, output: output.replace(/^@file-seconds .*\n/gm, ''), timings });
    });
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const record = argv.includes('--record');
  const jobsAt = argv.indexOf('--jobs');
  const jobs = jobsAt >= 0 ? Number(argv[jobsAt + 1]) : Math.min(4, os.availableParallelism());
  const named = argv.filter((a, i) => !a.startsWith('--') && (jobsAt < 0 || i !== jobsAt + 1));
  const files = (named.length > 0 ? named : SUITES.flatMap(testFiles)).map((f) => path.relative(ROOT, path.resolve(ROOT, f))).sort();
  const durations = fs.existsSync(DURATIONS) ? (JSON.parse(fs.readFileSync(DURATIONS, 'utf8')) as Record<string, number>) : {};
  const shards = deal(files, durations, jobs);
  const started = Date.now();
  console.log(
    `e2e and integration: ${files.length} files in ${shards.length} shard(s) of about ${shards.map((s) => Math.round(s.seconds)).join(', ')} s`,
  );
  // A line a minute while the shards run (their reports come whole at their ends): how far each has got.
  const outputs: string[] = shards.map(() => '');
  const progress = setInterval(() => {
    const done = outputs.map(
      (o, i) => `shard ${i + 1}: ${(o.match(/✔/g) ?? []).length} passed, ${(o.match(/^\s+\d+\) /gm) ?? []).length} failed`,
    );
    console.log(`e2e: ${((Date.now() - started) / 1000).toFixed(0)} s: ${done.join('; ')}`);
  }, 60_000);
  const runs = await Promise.all(
    shards.map(async (shard, i) => {
      const run = await runShard(i + 1, shard, record, (chunk) => (outputs[i] += chunk));
      console.log(
        `\n── shard ${i + 1} of ${shards.length}: ${shard.files.length} files, exit ${run.code}, ${((Date.now() - started) / 1000).toFixed(0)} s ──`,
      );
      process.stdout.write(run.output);
      return run;
    }),
  );
  clearInterval(progress);
  const count = (word: string) => runs.reduce((n, r) => n + Number(new RegExp(`(\\d+) ${word}`).exec(r.output)?.[1] ?? 0), 0);
  console.log(
    `\ne2e: ${count('passing')} passing, ${count('failing')} failing, ${count('pending')} pending in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (record) {
    // The files that ran get their new times; the others keep theirs (a run of some files, or one that stopped
    // early, records what it measured and no more); files that are gone are dropped.
    const measured = Object.assign({}, ...runs.map((r) => r.timings)) as Record<string, number>;
    const all = { ...durations, ...measured };
    const sorted = Object.fromEntries(
      Object.keys(all)
        .filter((k) => fs.existsSync(path.join(ROOT, k)))
        .sort()
        .map((k) => [k, Math.round(all[k]! * 10) / 10]),
    );
    fs.writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
    console.log(`e2e: ${Object.keys(measured).length} file times written to ${path.relative(ROOT, DURATIONS)}`);
  }
  process.exitCode = runs.find((r) => r.code !== 0)?.code ?? 0;
}

if (require.main === module) void main();
