// The command-line renderer: a request file in, a PDF (or with --ubl, --cii or --factur-x an e-invoice) out, through
// the same pipeline as the HTTP API, without HTTP or keys. The request file is the JSON body of a request, or a
// published example ({request: {body, headers}}), whose form bodies are read as the API reads them; or a received
// e-invoice (UBL or CII XML, a Factur-X PDF), shown as a PDF or converted as POST / and /ubl, /cii, /factur-x do.
// Several files are rendered in turn by one browser into a folder (-o, the current one by default), each output named
// after its file (`a.json` → `a.pdf`, or `a.xml` for UBL and CII); a file that fails is reported and the others go
// on. Arguments are read by Node's util.parseArgs.
//   npm run render -- examples/invoice.json [--theme slate] [--lang fr-FR] [--page-size a4] [--ubl|--cii|--factur-x] [-o out.pdf]
//   npm run render -- received.xml [--theme slate] [--lang de] [--ubl|--cii|--factur-x [--profile xrechnung]] [-o out.pdf]
//   npm run render -- examples/*.json [--ubl] -o rendered/
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { DomainError, errors, isRequestProblem } from '../errors';
import type { Profile } from '../einvoice/model';
import { PROFILES } from '../einvoice/profiles';
import type { ReceivedBody, ReceivedPipeline } from '../received-pipeline';
import { openLocalPipeline } from '../local-pipeline';
import type { DocumentPipeline } from '../pipeline';
import type { BodyKind } from '../documents/parse-body';
import type { LanguagePreferences } from '../render/labels/locale';
import { headerValues } from '../http/header-values';

const USAGE =
  'Usage: npm run render -- FILE.json|FILE.xml|FILE.pdf … [--theme ID] [--lang TAG] [--page-size letter|a4] [--ubl | --cii | --factur-x] [--profile NAME] [-o OUT]\n' +
  '  one file: OUT is the file written (by default the name the API gives it); several: OUT is a folder (by default the current one)';

/** What the file is made into: the PDF, or one of the e-invoices. */
export type Output = 'pdf' | 'ubl' | 'cii' | 'factur-x';

export interface Options {
  /** The files, in the order given: one or more. */
  files: string[];
  theme?: string;
  lang?: string;
  pageSize?: string;
  output: Output;
  /** A received e-invoice converted: the specification to write it to (`?profile=`). */
  profile?: string;
  out?: string;
}

const OPTIONS = {
  theme: { type: 'string' },
  lang: { type: 'string' },
  'page-size': { type: 'string' },
  ubl: { type: 'boolean' },
  cii: { type: 'boolean' },
  'factur-x': { type: 'boolean' },
  profile: { type: 'string' },
  out: { type: 'string', short: 'o' },
} as const;

export function parseArgs(argv: string[]): Options {
  let parsed: ReturnType<typeof parseArgv<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>;
  try {
    parsed = parseArgv({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${USAGE}`, { cause: err });
  }
  const { values, positionals } = parsed;
  const outputs = (['ubl', 'cii', 'factur-x'] as const).filter((o) => values[o]);
  if (positionals.length === 0 || outputs.length > 1) throw new Error(USAGE);
  return {
    files: positionals,
    theme: values.theme,
    lang: values.lang,
    pageSize: values['page-size'],
    output: outputs[0] ?? 'pdf',
    profile: values.profile,
    out: values.out,
  };
}

/** The body of a request file, with its kind and the language preferences its headers state: a plain JSON body, or an
 * example with `request.body` (its headers read as the API reads them). */
export function readRequestFile(file: string): { body: Buffer; kind: BodyKind; languages: LanguagePreferences } {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    // As the API answers a body that is not JSON: a request problem (exit 2), said in one line.
    throw errors.malformedJson((err as Error).message);
  }
  const request = parsed.request as { body?: unknown; headers?: Record<string, string> } | undefined;
  if (request && request.body !== undefined) {
    const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    return { body: Buffer.from(body), ...headerValues(request.headers) };
  }
  return { body: Buffer.from(JSON.stringify(parsed)), kind: 'json', languages: [] };
}

/** A received e-invoice rather than a request: an XML or PDF file (by its first bytes). */
export function receivedKindOf(file: string): ReceivedBody['kind'] | undefined {
  const head = fs
    .readFileSync(file)
    .subarray(0, 64)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  if (head.startsWith('%PDF-')) return 'pdf';
  return head.startsWith('<') ? 'xml' : undefined;
}

/** What one file was made into, with the name the API would give it. */
interface Rendered {
  bytes: Buffer;
  filename: string;
  locale: string;
}

/** A received e-invoice shown as a PDF, or converted (the profile as `?profile=` names it). */
async function renderReceivedFile(
  file: string,
  kind: ReceivedBody['kind'],
  opts: Options,
  pipeline: DocumentPipeline,
  received: ReceivedPipeline,
): Promise<Rendered> {
  const body: ReceivedBody = { kind, bytes: fs.readFileSync(file) };
  const locale = pipeline.locale(opts.lang === undefined ? [] : [opts.lang]);
  const show = { locale, theme: opts.theme };
  if (opts.output === 'pdf') {
    const { pdf, filename } = await received.show(body, show);
    return { bytes: Buffer.from(pdf), filename, locale: locale.tag };
  }
  if (opts.profile !== undefined && !Object.hasOwn(PROFILES, opts.profile)) {
    throw errors.validation([{ field: 'profile', message: `--profile must be one of ${Object.keys(PROFILES).join(', ')}` }]);
  }
  const out = await received.convert(body, opts.output, { ...show, profile: opts.profile as Profile | undefined });
  const bytes = 'xml' in out ? Buffer.from(out.xml) : Buffer.from(out.pdf);
  return { bytes, filename: out.filename, locale: locale.tag };
}

/** A request file made into its PDF or e-invoice. */
async function renderFile(file: string, opts: Options, pipeline: DocumentPipeline): Promise<Rendered> {
  const req = readRequestFile(file);
  const body = (await pipeline.parse(req.kind, req.body)) as Record<string, unknown>;
  if (opts.theme) body.theme = opts.theme;
  if (opts.pageSize) body.page_size = opts.pageSize;
  const locale = pipeline.locale(opts.lang === undefined ? req.languages : [opts.lang]);
  const prepared = pipeline.prepare(body, locale);
  if (opts.output === 'ubl' || opts.output === 'cii') {
    const { xml, filename } = await (opts.output === 'ubl' ? pipeline.renderUbl(prepared) : pipeline.renderCii(prepared));
    return { bytes: Buffer.from(xml), filename, locale: locale.tag };
  }
  const { pdf, filename } = opts.output === 'factur-x' ? await pipeline.renderFacturX(prepared) : await pipeline.renderPdf(prepared);
  return { bytes: Buffer.from(pdf), filename, locale: locale.tag };
}

/**
 * Where each file's output goes: with one file, `out` itself (undefined: the API's name, known after the render);
 * with several, `out` is a folder and each output is named after its file. Two files of the same name are refused
 * before anything is rendered.
 */
export function outputPaths(opts: Options): (string | undefined)[] {
  if (opts.files.length === 1) return [opts.out];
  const extension = opts.output === 'ubl' || opts.output === 'cii' ? '.xml' : '.pdf';
  const names = opts.files.map((file) => path.basename(file, path.extname(file)) + extension);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`two files would both be written to ${twice}: render them apart\n${USAGE}`);
  return names.map((name) => path.join(opts.out ?? '.', name));
}

/** The exit code for a failure: 2 for a request the pipeline refuses, 1 for anything else. */
function report(file: string | undefined, err: unknown): number {
  const where = file === undefined ? '' : `${file}: `;
  if (err instanceof DomainError) {
    const details = err.facts.details ? `\n  ${err.facts.details.map((d) => d.message).join('\n  ')}` : '';
    process.stderr.write(`${where}${err.message}${details}\n`);
    return isRequestProblem(err.code) ? 2 : 1;
  }
  process.stderr.write(`${where}${(err as Error).stack}\n`);
  return 1;
}

/** Renders each file in turn, writing what it makes; the exit code is 0, or 1 if any failed for a reason other
 * than its request (else 2). */
async function renderAll(opts: Options, outs: (string | undefined)[]): Promise<number> {
  const missing = opts.files.filter((file) => !fs.statSync(file, { throwIfNoEntry: false })?.isFile());
  if (missing.length > 0) {
    process.stderr.write(missing.map((file) => `${file}: no such file\n`).join(''));
    return 2;
  }
  const kinds = opts.files.map((file) => receivedKindOf(file));
  const local = await openLocalPipeline({ eInvoice: opts.output !== 'pdf', received: kinds.some((k) => k !== undefined) });
  let code = 0;
  try {
    if (opts.files.length > 1) fs.mkdirSync(opts.out ?? '.', { recursive: true });
    for (const [i, file] of opts.files.entries()) {
      try {
        const { bytes, filename } =
          kinds[i] !== undefined
            ? await renderReceivedFile(file, kinds[i], opts, local.pipeline, local.received!)
            : await renderFile(file, opts, local.pipeline);
        const out = outs[i] ?? filename;
        fs.writeFileSync(out, bytes);
        process.stdout.write(`${path.resolve(out)} (${bytes.length} bytes)\n`);
      } catch (err) {
        const failed = report(opts.files.length > 1 ? file : undefined, err);
        code = code === 1 ? 1 : failed;
      }
    }
  } finally {
    await local.close();
  }
  return code;
}

if (require.main === module) {
  (async () => {
    let opts: Options;
    let outs: (string | undefined)[];
    try {
      opts = parseArgs(process.argv.slice(2));
      outs = outputPaths(opts);
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(2);
    }
    try {
      process.exitCode = await renderAll(opts, outs);
    } catch (err) {
      process.exitCode = report(undefined, err);
    }
  })();
}
