// The real service for the tests: real HTTP on a free local port, a real SQLite file in a temp folder and real
// Chromium. One instance is shared by every test file (started on first use, closed by the root hook); the services
// a file starts of its own share the process's one loading of the data files (project-assets.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, projectRoot, type Config } from '../../server/config';
import type { PdfRenderer } from '../../server/pdf/renderer';
import { projectAssets } from './project-assets';
import { smallPdf } from './small-pdf';
import { startService, type RunningService, type StartOptions } from '../../server/service';

export interface TestService extends RunningService {
  key: string;
  dir: string;
  config: Config;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `docgen-${prefix}-`));
}

/** A copy of the project's data files (and a link to its node_modules) to change without touching the repository. */
export function copyProjectData(dirs = ['schemas', 'codes', 'locales', 'templates', 'themes', 'examples']): string {
  const root = tempDir('project');
  for (const dir of dirs) fs.cpSync(path.join(projectRoot(), dir), path.join(root, dir), { recursive: true });
  fs.symlinkSync(path.join(projectRoot(), 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

export async function startTestService(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestService> {
  const dir = tempDir('svc');
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    SQLITE_PATH: path.join(dir, 'keys.db'),
    LOGO_ALLOW_PRIVATE: 'true',
    LOGO_TIMEOUT_MS: '2000',
    // Tests of one process share 127.0.0.1: the fuzz test's hundreds of wrong keys must not lock the others out.
    // The limit itself is tested with its default (test/e2e/account.test.ts).
    API_KEY_FAILURES_PER_MINUTE: '0',
    CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '',
    ...env,
  });
  // The repository's data files, loaded once per process for every service that reads them as they are.
  const service = await startService(config, { assets: options.root === undefined ? projectAssets(config.limits) : undefined, ...options });
  const { key } = await service.keys.createKey('test-account', 'paid');
  return Object.assign(service, { key, dir, config });
}

let shared: Promise<TestService> | undefined;

/** The shared instance (with real Chromium). */
export function sharedService(): Promise<TestService> {
  shared ??= startTestService();
  return shared;
}

export async function closeSharedService(): Promise<void> {
  if (shared) {
    const s = await shared.catch(() => undefined);
    shared = undefined;
    await s?.close();
  }
}

export interface PostOptions {
  path?: string;
  key?: string | null;
  headers?: Record<string, string>;
  method?: string;
}

/** POSTs a JSON object (or a raw string / Buffer as is) to the service. */
export async function post(service: { url: string; key: string }, body: unknown, opts: PostOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  let payload: string | Buffer | undefined;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    payload = body;
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? service.key}`;
  Object.assign(headers, opts.headers);
  return fetch(`${service.url}${opts.path ?? '/'}`, {
    method: opts.method ?? 'POST',
    headers,
    body: Buffer.isBuffer(payload) ? new Uint8Array(payload) : payload,
  });
}

let fakePdf: Buffer | undefined;
/** What the stand-in renderer prints: a real one-page PDF (every PDF is then made PDF/A, which reads its objects). */
export function fakePrint(): Uint8Array {
  fakePdf ??= smallPdf();
  return new Uint8Array(fakePdf);
}

/** A stand-in for Chromium, for fast tests of what surrounds rendering (quota, errors); real rendering is tested apart. */
export function fakeRenderer(render: PdfRenderer['render'] = async () => fakePrint()): PdfRenderer {
  return {
    render,
    isReady: () => true,
    stats: () => ({
      active: 0,
      queued: 0,
      idlePages: 0,
      renders: 0,
      browserRestarts: 0,
      blockedRequests: 0,
      pagesReplaced: 0,
      framesWritten: 0,
      renderersKilled: 0,
    }),
    close: async () => undefined,
  };
}

/** POSTs `body` and returns the answer's bytes; anything but a 200 fails the test with its status and body. */
export async function postOk(service: { url: string; key: string }, body: unknown, opts: PostOptions = {}): Promise<Buffer> {
  const res = await post(service, body, opts);
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}
