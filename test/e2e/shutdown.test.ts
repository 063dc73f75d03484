// SIGTERM ends the service, whoever reads its logs (server/logger.ts): started as its own process (real Chromium,
// real SQLite), given 20 renders in flight and a log that has filled its pipe because the reader stopped reading (a
// socket, as a parent process's pipe is, or a FIFO, as Docker's is), it answers every render and exits 0. A security
// review saw it never exit, stuck in a write to standard output inside process.exit, 3 times in 3.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { tempDir } from '../helpers/service';

/** Starts the service with `stdout` as its standard output. */
function start(stdout: 'pipe' | number): ChildProcess {
  const dir = tempDir('shutdown');
  return spawn(process.execPath, ['-r', 'tsx/cjs', path.join(projectRoot(), 'server', 'main.ts')], {
    cwd: projectRoot(),
    // Without the rules workers (RECEIVED_EINVOICES=false): what is tested is the log and the exit, and each worker
    // would load every rule set first (fault-injection.test.ts stops a service with its rules worker running).
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: path.join(dir, 'db'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      RECEIVED_EINVOICES: 'false',
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
}

const urlOf = (log: string): string => /"url":"([^"]+)"/.exec(log)![1]!;
const keyOf = (log: string): string => /sk_[0-9A-Za-z]{32}/.exec(log)![0];

/** Until the service has logged that it is ready, from a stream; then the stream is paused: nobody reads any more. */
function untilReady(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/"msg":"ready"/.test(out)) {
        stream.removeListener('data', onData);
        stream.pause();
        resolve(out);
      }
    };
    stream.on('data', onData);
  });
}

/** Fills the log: a thousand and a half refused requests, each a line of about 400 bytes (several pipes' worth), each
 * on a connection of its own that it closes (none is left idle for the shutdown to close under a later request). */
async function fillLog(url: string): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    await new Promise<void>((resolve, reject) => {
      const req = http.request(`${url}/`, {
        method: 'POST',
        agent: false,
        headers: { authorization: 'Bearer sk_x', 'content-type': 'application/json', connection: 'close' },
      });
      req.on('response', (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end('{');
    });
  }
}

/** 20 renders in flight, then SIGTERM: every render's status, and how the process ended. */
async function stopWithRendersInFlight(
  child: ChildProcess,
  url: string,
  key: string,
): Promise<{ statuses: number[]; code: number | null }> {
  const body = JSON.stringify({ from: 'A', to: 'B', items: Array.from({ length: 200 }, (_, i) => ({ name: `item ${i}`, unit_cost: 1 })) });
  const renders = Array.from({ length: 20 }, () =>
    fetch(`${url}/`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body }).then(
      async (r) => (await r.arrayBuffer(), r.status),
    ),
  );
  // Every render in flight (queued, printing or printed) before SIGTERM: a request still on its way when the server
  // closes is another matter (its connection may be refused or reset, as on any server).
  for (let i = 0; i < 400; i++) {
    const r = (await (await fetch(`${url}/readyz`)).json()) as { queueDepth: number; activeRenders: number; rendersCompleted: number };
    if (r.queueDepth + r.activeRenders + r.rendersCompleted >= 20) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return { statuses: await Promise.all(renders), code: await exited };
}

describe('SIGTERM ends the service whoever reads its logs', function () {
  this.timeout(120000);
  const children: ChildProcess[] = [];
  after(() => children.forEach((c) => c.kill('SIGKILL')));

  it('a log reader that stopped reading (a socket, as a parent process reads): every render answered, then exit 0', async function () {
    const child = start('pipe');
    children.push(child);
    const log = await untilReady(child.stdout!);
    await fillLog(urlOf(log));
    const { statuses, code } = await stopWithRendersInFlight(child, urlOf(log), keyOf(log));
    expect(statuses).to.deep.equal(Array(20).fill(200));
    expect(code).to.equal(0);
  });

  it('a log reader that stopped reading (a FIFO, as Docker reads): every render answered, then exit 0', async function () {
    const fifo = path.join(tempDir('fifo'), 'log');
    execFileSync('mkfifo', [fifo]);
    // The reading end opened first, without waiting for a writer; then the writing end, which a reader lets open.
    const reader = new net.Socket({
      fd: fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK),
      readable: true,
      writable: false,
    });
    const writer = fs.openSync(fifo, 'w');
    const child = start(writer);
    fs.closeSync(writer);
    children.push(child);
    const log = await untilReady(reader);
    await fillLog(urlOf(log));
    const { statuses, code } = await stopWithRendersInFlight(child, urlOf(log), keyOf(log));
    expect(statuses).to.deep.equal(Array(20).fill(200));
    expect(code).to.equal(0);
    reader.destroy();
  });

  it('a reader that reads gets every line, the last one written as the process ends', async function () {
    const child = start('pipe');
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    while (!/"msg":"ready"/.test(out)) await new Promise((resolve) => setTimeout(resolve, 50));
    await fillLog(urlOf(out));
    const { code } = await stopWithRendersInFlight(child, urlOf(out), keyOf(out));
    expect(code).to.equal(0);
    const lines = out
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    // Each refused request is a line: wrong keys (401), then the address refused for them (429).
    expect(lines.filter((l) => /"status":(401|429)/.test(l)).length).to.equal(1500);
    expect(lines.filter((l) => l.includes('"route":"/"') && l.includes('"status":200')).length).to.equal(20);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).to.include('shutting down: finishing requests in flight');
  });
});
