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
}

export async function startRedis(): Promise<TestRedis> {
  const dir = tempDir('redis');
  const socket = path.join(dir, 'redis.sock');
  const proc: ChildProcess = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(socket)) {
    if (Date.now() > deadline || proc.exitCode !== null)
      throw new Error('redis-server did not start (is it installed? scripts/install-system.sh)');
    await new Promise((r) => setTimeout(r, 20));
  }
  const client = new Redis({ path: socket });
  await client.ping();
  await client.quit();
  return {
    url: `unix://${socket}`,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
      }
    },
  };
}
