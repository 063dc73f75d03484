// The service as the benchmark runs it: the built server as its own process (a temporary SQLite file, its printed
// development key), a lean HTTP client, and its Prometheus sums.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

export interface BenchService {
  url: string;
  key: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startService(root: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-bench-'));
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'dist', 'server', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: path.join(dir, 'db.sqlite'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/"msg":"ready"/.test(out)) {
        child.stdout!.off('data', onData);
        child.stdout!.resume(); // keep draining the access log
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => reject(new Error(`service exited:\n${out}`)));
  });
  return {
    url: /"url":"([^"]+)"/.exec(out)![1]!,
    key: /sk_[0-9A-Za-z]{32}/.exec(out)![0],
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * The load generator's client: node:http with kept-alive connections. It shares the 2 cores with the service and
 * Chromium, so it is kept lean: fetch (undici) cost 2.4 ms of CPU per request here, this 1.0 ms.
 */
export function postTo(
  base: string,
  key: string,
): (route: string, body: string | Buffer, contentType?: string, headers?: Record<string, string>) => Promise<Reply> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  return (route, body, contentType = 'application/json', headers = {}) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: route,
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${key}`, 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/** The service's Prometheus sums and counts (series without labels, and `route` labels summed). */
export async function serviceMetrics(base: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^(docgen_\w+_(?:sum|count))(?:\{[^}]*\})? ([\d.e+-]+)$/gm))
    out.set(m[1]!, (out.get(m[1]!) ?? 0) + Number(m[2]));
  return out;
}
