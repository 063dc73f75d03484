// A real Redis server for the tests: redis-server on a unix socket in a temp folder (no TCP port to collide on),
// without persistence, stopped after the tests that started it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { tempDir } from './service';

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
  /** Starts the stopped server again on the same socket (with `persist`, with the data it had). */
  start(): Promise<void>;
}

/** A server; `persist`: an append-only file, so that a stop (SIGTERM, which writes it) and a start keep the data. */
export async function startRedis(opts: { persist?: boolean } = {}): Promise<TestRedis> {
  const dir = tempDir('redis');
  const socket = path.join(dir, 'redis.sock');
  const args = ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--dir', dir];
  args.push('--appendonly', opts.persist ? 'yes' : 'no');
  let proc: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    fs.rmSync(socket, { force: true });
    const started: ChildProcess = spawn('redis-server', args, { stdio: 'ignore' });
    proc = started;
    const deadline = Date.now() + 10_000;
    while (!fs.existsSync(socket)) {
      if (Date.now() > deadline || started.exitCode !== null)
        throw new Error('redis-server did not start (is it installed? scripts/install-system.sh)');
      await new Promise((r) => setTimeout(r, 20));
    }
    const client = new Redis({ path: socket });
    await client.ping();
    await client.quit();
  };
  await start();
  return {
    url: `unix://${socket}`,
    async stop() {
      const running = proc;
      if (running && running.exitCode === null) {
        running.kill('SIGTERM');
        await new Promise((r) => running.once('exit', r));
      }
    },
    start,
  };
}
