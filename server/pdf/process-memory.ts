// Resident memory of a browser's renderer processes, read from /proc (Linux). Chromium has no switch that caps a
// renderer's memory, and an address-space limit (ulimit -v) breaks it (it reserves terabytes), so the pool watches:
// a renderer above its limit is killed, which ends the render it was doing (see browser-pool.ts).
// Must not know about pages or documents. Elsewhere than Linux it reports nothing.
import fs from 'node:fs';

export interface RendererMemory {
  pid: number;
  rssMiB: number;
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

/** The renderer processes below `rootPid` (its process tree), with their resident size. */
export function rendererMemory(rootPid: number): RendererMemory[] {
  const out: RendererMemory[] = [];
  for (const pid of descendants(rootPid)) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      out.push({ pid, rssMiB: kb / 1024 });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/**
 * Every `intervalMs`, kills each renderer below `rootPid()` whose resident size is above `maxRssMiB` (its render then
 * fails: the page's crash event). Chromium has no switch for this.
 */
export function watchRendererMemory(opts: {
  intervalMs: number;
  maxRssMiB: number;
  rootPid: () => number | undefined;
  onKill: (rssMiB: number) => void;
}): { stop(): void } {
  const timer = setInterval(() => {
    const root = opts.rootPid();
    if (!root) return;
    for (const r of rendererMemory(root)) {
      if (r.rssMiB <= opts.maxRssMiB) continue;
      try {
        process.kill(r.pid, 'SIGKILL');
        opts.onKill(r.rssMiB);
      } catch {
        // Already gone.
      }
    }
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
