// UBL 2.1 XSD validation, run in a worker thread (xsd-worker.ts) so that PDF requests never wait behind it.
// The schemas are compiled once, at start-up; a missing XSD folder stops start-up. A crashed worker is restarted and
// its pending validations fail. This is the main thread's only door to the XSD engine.
// One worker per XSD folder serves the whole process (acquireXsdValidator() hands out references; the last release()
// stops it), so that services and tools started in one process compile the schemas once.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export class XsdLoadError extends Error {}

interface Pending {
  resolve: (errors: string[]) => void;
  reject: (err: Error) => void;
}

export class XsdValidator {
  private worker!: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private started!: Promise<void>;

  constructor(private readonly xsdDir: string) {
    const missing = ['Invoice', 'CreditNote']
      .map((root) => path.join(xsdDir, 'maindoc', `UBL-${root}-2.1.xsd`))
      .filter((f) => !fs.existsSync(f));
    if (missing.length) {
      throw new XsdLoadError(`UBL 2.1 XSD files are missing: ${missing.join(', ')} (set UBL_XSD_DIR, or run scripts/install-standards.sh)`);
    }
    this.spawn();
  }

  /** Resolves when the worker has parsed the schemas. */
  ready(): Promise<void> {
    return this.started;
  }

  /** The XSD errors of `xml` (empty when valid). */
  validate(xml: string, root: 'Invoice' | 'CreditNote'): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('the XSD validator is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, xml, root });
    });
  }

  /** Whether the worker answers a validation within `ms` (for readiness). */
  async check(ms = 1000): Promise<boolean> {
    if (this.closed) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const answer = this.validate('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>', 'Invoice').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker.terminate();
  }

  private spawn(): void {
    const ts = __filename.endsWith('.ts');
    const file = path.join(__dirname, `xsd-worker.${ts ? 'ts' : 'js'}`);
    // Under tsx (development, tests) the worker needs the TypeScript loader too.
    const worker = new Worker(file, { workerData: { xsdDir: this.xsdDir }, execArgv: ts ? ['--require', 'tsx/cjs'] : [] });
    this.worker = worker;
    this.started = new Promise((resolve, reject) => {
      worker.once('message', (m: { ready: boolean; error?: string }) =>
        m.ready ? resolve() : reject(new XsdLoadError(`the UBL XSDs could not be loaded: ${m.error}`)),
      );
    });
    this.started.catch(() => undefined);
    worker.on('message', (m: { id?: number; errors?: string[] }) => {
      if (m.id === undefined) return;
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      p?.resolve(m.errors ?? []);
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      if (this.closed) return;
      this.fail(new Error(`the XSD worker exited (${code})`));
      this.spawn();
    });
  }

  private fail(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

const shared = new Map<string, { validator: XsdValidator; refs: number }>();

export interface XsdValidatorRef {
  validator: XsdValidator;
  release(): Promise<void>;
}

/** The process's XSD validator for `xsdDir` (started on first use, stopped when the last reference is released). */
export function acquireXsdValidator(xsdDir: string): XsdValidatorRef {
  const dir = path.resolve(xsdDir);
  let entry = shared.get(dir);
  if (!entry) {
    entry = { validator: new XsdValidator(dir), refs: 0 };
    shared.set(dir, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    validator: held.validator,
    async release() {
      if (released) return;
      released = true;
      held.refs--;
      if (held.refs === 0 && shared.get(dir) === held) {
        shared.delete(dir);
        await held.validator.close();
      }
    },
  };
}
