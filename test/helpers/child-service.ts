// The real service as its own process (`server/main.ts` under tsx, development mode, a fresh SQLite file), for tests
// that must see it as a client does: its own event loop (its main thread's CPU time, from /proc), signals, exit codes.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/config';
import { tempDir } from './service';

export interface ChildService {
  url: string;
  /** The development key the service printed at its first start. */
  key: string;
  child: ChildProcess;
  /** Everything the process wrote so far. */
  output(): string;
  /** The process's exit code, when it exits. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** `nodeArgs`: Node's own options before the script (V8 flags). */
export async function startChildService(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<ChildService> {
  const dir = tempDir('child');
  const child = spawn(process.execPath, [...nodeArgs, '-r', 'tsx/cjs', path.join(projectRoot(), 'server', 'main.ts')], {
    cwd: projectRoot(),
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: path.join(dir, 'db.sqlite'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const startedAt = Date.now();
  while (!/"msg":"ready"/.test(out)) {
    if (Date.now() - startedAt > 30000 || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: /"url":"([^"]+)"/.exec(out)![1]!,
    key: /sk_[0-9A-Za-z]{32}/.exec(out)![0],
    child,
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The CPU time (ms) the process's main thread (its event loop) has used so far, from /proc (user and system, to the
 * scheduler's tick of 10 ms). Time spent waiting for a core is not counted: a loaded machine does not change it. */
export function mainThreadCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  // From the state on (the third field): utime and stime are the 14th and 15th fields, in ticks of 1/100 s.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
