// The command-line renderer: a request file in, a PDF (or, with --ubl, the UBL e-invoice) out, through the same
// pipeline as the HTTP API, without HTTP or keys. The request file is the JSON body of a request, or a published
// example ({request: {body, headers}}), whose form bodies are read as the API reads them.
//   npm run render -- examples/invoice.json [--theme slate] [--lang fr-FR] [--page-size a4] [--ubl] [-o out.pdf]
import fs from 'node:fs';
import path from 'node:path';
import { DomainError, isRequestProblem } from '../errors';
import { openLocalPipeline, type LocalPipeline } from '../local-pipeline';
import type { DocumentPipeline } from '../pipeline';

const USAGE = 'Usage: npm run render -- FILE.json [--theme classic|slate] [--lang TAG] [--page-size letter|a4] [--ubl] [-o OUT]';

interface Options {
  file: string;
  theme?: string;
  lang?: string;
  pageSize?: string;
  ubl: boolean;
  out?: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { file: '', ubl: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--theme') opts.theme = next();
    else if (a === '--lang') opts.lang = next();
    else if (a === '--page-size') opts.pageSize = next();
    else if (a === '--ubl') opts.ubl = true;
    else if (a === '-o' || a === '--out') opts.out = next();
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else opts.file = a;
  }
  if (!opts.file) throw new Error(USAGE);
  return opts;
}

/** The body and headers of a request file: a plain JSON body, or an example with `request.body`. */
export function readRequestFile(file: string): { body: Buffer; contentType: string; acceptLanguage?: string } {
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const request = parsed.request as { body?: unknown; headers?: Record<string, string> } | undefined;
  if (request && request.body !== undefined) {
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    return {
      body: Buffer.from(body),
      contentType: headers['content-type'] ?? 'application/json',
      acceptLanguage: headers['accept-language'],
    };
  }
  return { body: Buffer.from(JSON.stringify(parsed)), contentType: 'application/json' };
}

export async function renderFile(opts: Options, pipeline: DocumentPipeline): Promise<{ bytes: Buffer; filename: string; locale: string }> {
  const req = readRequestFile(opts.file);
  const body = pipeline.parse(req.contentType, req.body) as Record<string, unknown>;
  if (opts.theme) body.theme = opts.theme;
  if (opts.pageSize) body.page_size = opts.pageSize;
  const locale = pipeline.locale(opts.lang ?? req.acceptLanguage);
  const prepared = pipeline.prepare(body, locale);
  if (opts.ubl) {
    const { xml, filename } = await pipeline.renderUbl(prepared);
    return { bytes: Buffer.from(xml), filename, locale: locale.tag };
  }
  const { pdf, filename } = await pipeline.renderPdf(prepared);
  return { bytes: Buffer.from(pdf), filename, locale: locale.tag };
}

if (require.main === module) {
  (async () => {
    let opts: Options;
    try {
      opts = parseArgs(process.argv.slice(2));
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(2);
    }
    let local: LocalPipeline | undefined;
    try {
      local = await openLocalPipeline({ ubl: opts.ubl });
      const pipeline = local.pipeline;
      const { bytes, filename } = await renderFile(opts, pipeline);
      const out = opts.out ?? filename;
      fs.writeFileSync(out, bytes);
      process.stdout.write(`${path.resolve(out)} (${bytes.length} bytes)\n`);
    } catch (err) {
      if (err instanceof DomainError) {
        const details = err.facts.details ? `\n  ${err.facts.details.map((d) => d.message).join('\n  ')}` : '';
        process.stderr.write(`${err.message}${details}\n`);
        process.exitCode = isRequestProblem(err.code) ? 2 : 1;
      } else {
        process.stderr.write(`${(err as Error).stack}\n`);
        process.exitCode = 1;
      }
    } finally {
      await local?.close();
    }
  })();
}
