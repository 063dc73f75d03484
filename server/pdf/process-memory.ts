// A browser's renderer processes as /proc (Linux) shows them: resident memory and whether they are stopped. Chromium
// has no switch that caps a renderer's memory, and an address-space limit (ulimit -v) breaks it (it reserves
// terabytes), so the pool watches: a renderer above its limit is killed, which ends the render it was doing (see
// browser-pool.ts). A stopped renderer (SIGSTOP) never answers again, idle or printing, and holds its memory: it is
// killed too, and its page replaced. Must not know about pages or documents. Elsewhere than Linux it reports nothing.
import fs from 'node:fs';

export interface RendererMemory {
  pid: number;
  rssMiB: number;
  /** Stopped by a signal (state T in /proc/<pid>/stat). */
  stopped: boolean;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Every live descendant of `rootPid` (not `rootPid` itself), from /proc. */
export function descendants(rootPid: number): number[] {
  let pids: number[];
  try {
    pids = fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const ppid = parentOf(pid);
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const stack = [...(children.get(rootPid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The renderer processes below `rootPid` (its process tree), with their resident size and state. */
export function rendererMemory(rootPid: number): RendererMemory[] {
  const out: RendererMemory[] = [];
  for (const pid of descendants(rootPid)) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      out.push({ pid, rssMiB: kb / 1024, stopped: /^State:\s+T\b/m.test(status) });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/**
 * Every `intervalMs`, kills each renderer below `rootPid()` whose resident size is above `maxRssMiB` (0: no limit),
 * and each one found stopped twice in a row (so for at least `intervalMs`): its render then fails at once (the page's
 * crash event) and is retried on a fresh page, and an idle page of it is replaced. Chromium has no switch for either.
 */
export function watchRenderers(opts: {
  intervalMs: number;
  maxRssMiB: number;
  rootPid: () => number | undefined;
  onKill: (rssMiB: number) => void;
  onStopped: (pid: number) => void;
}): { stop(): void } {
  let stoppedBefore = new Set<number>();
  const timer = setInterval(() => {
    const root = opts.rootPid();
    if (!root) return;
    const stopped = new Set<number>();
    for (const r of rendererMemory(root)) {
      const overMemory = opts.maxRssMiB > 0 && r.rssMiB > opts.maxRssMiB;
      if (r.stopped) stopped.add(r.pid);
      if (!overMemory && !(r.stopped && stoppedBefore.has(r.pid))) continue;
      try {
        process.kill(r.pid, 'SIGKILL');
        if (overMemory) opts.onKill(r.rssMiB);
        else opts.onStopped(r.pid);
      } catch {
        // Already gone.
      }
    }
    stoppedBefore = stopped;
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
