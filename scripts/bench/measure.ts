// Measuring for the benchmark: closed-loop workers, contenders in alternating rounds, percentiles, and the resident
// memory of a process tree. Knows nothing of the service.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface Run {
  count: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
  /** CPU ms per document by party, when the run was metered (interleaved's `meters`). */
  cpuPerDoc?: Record<string, number>;
}

/** Named CPU counters in ms (treeCpuMs, ownCpuMs, selfCpuMs), read before and after each of a contender's rounds. */
export type CpuMeter = () => Record<string, number>;

export function summarize(times: number[], seconds: number): Run {
  const s = [...times].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return { count: s.length, seconds, throughput: s.length / seconds, p50: q(0.5), p99: q(0.99) };
}

/** `workers` closed-loop workers calling `job` for `seconds` (or until `count` jobs); the times also go to `into`. */
export async function closedLoop(
  workers: number,
  seconds: number,
  job: () => Promise<void>,
  count?: number,
  into?: number[],
): Promise<Run> {
  const times: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  let issued = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (count === undefined ? performance.now() < end : issued < count) {
        issued++;
        const t = performance.now();
        await job();
        times.push(performance.now() - t);
      }
    }),
  );
  into?.push(...times);
  return summarize(times, (performance.now() - start) / 1000);
}

/**
 * Side by side: the contenders run in alternating short rounds (the order rotating), so that the machine's drifts
 * (other tenants, thermal, caches) fall on all of them alike; each result sums its rounds. A contender with a meter
 * also gets the CPU its rounds used, per document, by party (what the meter names).
 */
export async function interleaved(
  workers: number,
  totalSeconds: number,
  roundSeconds: number,
  contenders: (() => Promise<void>)[],
  meters: (CpuMeter | undefined)[] = [],
): Promise<Run[]> {
  const rounds = Math.max(1, Math.round(totalSeconds / roundSeconds));
  const times: number[][] = contenders.map(() => []);
  const seconds: number[] = contenders.map(() => 0);
  const cpu: Record<string, number>[] = contenders.map(() => ({}));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const i = (r + k) % contenders.length;
      const before = meters[i]?.();
      const run = await closedLoop(workers, roundSeconds, contenders[i]!, undefined, times[i]);
      seconds[i] += run.seconds;
      if (before) for (const [party, ms] of Object.entries(meters[i]!())) cpu[i]![party] = (cpu[i]![party] ?? 0) + ms - before[party]!;
    }
  }
  return contenders.map((_, i) => {
    const run = summarize(times[i]!, seconds[i]!);
    if (!meters[i]) return run;
    return { ...run, cpuPerDoc: Object.fromEntries(Object.entries(cpu[i]!).map(([party, ms]) => [party, ms / run.count])) };
  });
}

/** Resident memory of a process and all its descendants, in MiB. */
export function treeRssMiB(pid: number): number {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='])
    .toString()
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const [p, pp, r] of out) {
    children.set(pp!, [...(children.get(pp!) ?? []), p!]);
    rss.set(p!, r!);
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total / 1024;
}

export const fmt = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : '-');

/** CPU time used so far by one process alone (user + system), in ms, to 10 ms. */
export function ownCpuMs(pid: number): number {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time used so far by this process (the benchmark: its HTTP and DevTools clients), in ms. */
export function selfCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * CPU time used so far by a process and all its descendants, in ms (/proc: user + system of each, and of the
 * children each has reaped), to 10 ms (the clock tick). Unlike a throughput, it does not move with what other
 * tenants of the machine do, only with the work done.
 */
export function treeCpuMs(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The command name (field 2) is in parentheses and may hold spaces: the fields after its last ')' are split.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
    stats.set(Number(entry), { ppid: Number(fields[1]), ticks: utime! + stime! + cutime! + cstime! });
  }
  const children = new Map<number, number[]>();
  for (const [p, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), p]);
  let ticks = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    ticks += stats.get(p)?.ticks ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return ticks * 10;
}
