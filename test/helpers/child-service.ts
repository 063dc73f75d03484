// The real service as its own process (`server/main.ts` under tsx, development mode, a fresh SQLite file), for tests
// that must see it as a client does: its own event loop (read from its /metrics), signals, exit codes.
import { spawn, type ChildProcess } from 'node:child_process';
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

export async function startChildService(env: Record<string, string> = {}): Promise<ChildService> {
  const dir = tempDir('child');
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(projectRoot(), 'server', 'main.ts')], {
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

/** The service's longest event-loop delay (ms) since the previous call: prom-client's nodejs_eventloop_lag_max_seconds,
 * whose histogram every scrape of /metrics resets. */
export async function eventLoopLagMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^nodejs_eventloop_lag_max_seconds\s+([0-9.e+-]+)$/m.exec(text);
  if (!m) throw new Error('no nodejs_eventloop_lag_max_seconds in /metrics');
  return Number(m[1]) * 1000;
}
