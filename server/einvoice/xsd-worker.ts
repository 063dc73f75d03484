// Worker thread that owns the XSD engine (libxml2-wasm: libxml2 compiled to WebAssembly). It compiles the schemas it
// is given once, at start-up (UBL 2.1 Invoice and CreditNote, CII D16B CrossIndustryInvoice, the Factur-X profiles: see
// xsd-validator.ts, which says where they are), and validates documents against them off the main event loop.
// It must not build, change or repair documents: it only says whether the bytes it was given are valid.
// Why libxml2-wasm and not libxmljs2: libxmljs2's validate() re-compiles the schema on every call (about 40 ms of CPU
// for UBL, more than a whole PDF print) and cannot run in more than one thread; a compiled XsdValidator here
// validates a one-page invoice in well under a millisecond. The schema engine is the same libxml2.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { bytesOf, textOf } from './shared-text';

interface Request {
  id: number;
  /** The document, as a string or as shared UTF-8 bytes (shared-text.ts). */
  xml: string | Uint8Array;
  /** A key of one of the schema sets' files (Invoice, CreditNote, CrossIndustryInvoice, FacturX-EN16931 …). */
  root: string;
  /** Answer `details` (with columns) besides the one-line `errors`. */
  detailed?: boolean;
}

/** One XSD (or well-formedness) error where libxml2 found it; see XsdProblem in xsd-validator.ts. */
interface Detail {
  message: string;
  wellFormed: boolean;
  line?: number;
  column?: number;
  xpath?: string;
}

/** The problems described of one document: libxml2 reports one per attribute too many, so a hostile document has a
 * million (20,000 attributes on each element); the rest are counted. */
const MAX_XSD_PROBLEMS = 100;

/** A named group of main schema files, by root (a failure names the group: "the UBL XSDs could not be loaded"). */
interface SchemaSet {
  name: string;
  files: Record<string, string>;
}

type Libxml = typeof import('libxml2-wasm', { with: { 'resolution-mode': 'import' } });
type Validator = InstanceType<Libxml['XsdValidator']>;

class SetLoadError extends Error {
  constructor(
    readonly set: string,
    cause: Error,
  ) {
    super(cause.message);
  }
}

// libxml2-wasm is an ES module; this file is compiled to CommonJS, so it is loaded with a dynamic import (kept as
// import() by TypeScript's node16 module mode).
async function load(sets: SchemaSet[]): Promise<{ lib: Libxml; validators: Map<string, Validator> }> {
  const lib = await import('libxml2-wasm');
  const { xmlRegisterFsInputProviders } = await import('libxml2-wasm/lib/nodejs.mjs');
  // The schemas import their siblings by relative schemaLocation; they are read from the schema's own folder.
  xmlRegisterFsInputProviders();
  const validators = new Map<string, Validator>();
  for (const set of sets) {
    for (const [root, file] of Object.entries(set.files)) {
      try {
        const xsd = lib.XmlDocument.fromBuffer(fs.readFileSync(file), { url: file });
        validators.set(root, lib.XsdValidator.fromDoc(xsd));
      } catch (err) {
        throw new SetLoadError(set.name, err as Error);
      }
    }
  }
  return { lib, validators };
}

const port = parentPort!;
load((workerData as { schemas: SchemaSet[] }).schemas).then(
  ({ lib, validators }) => {
    // Documents are parsed without network access or external entities: they are ours, and never need either.
    // HUGE lifts libxml2's 10 MB text-node limit, which a long document's base64 PDF could reach.
    const options = lib.ParseOption.XML_PARSE_NONET | lib.ParseOption.XML_PARSE_NO_XXE | lib.ParseOption.XML_PARSE_HUGE;
    port.on('message', (req: Request) => {
      const validator = validators.get(req.root);
      const { details, total } = validator
        ? validate(lib, validator, req.xml, options)
        : { details: [{ message: `no schema for ${req.root}`, wellFormed: true }], total: 1 };
      // `errors`: one line each, as every caller before the structured form read them.
      const errors = details.map(
        (d) => `${d.wellFormed ? '' : 'not well-formed: '}${d.line === undefined ? '' : `line ${d.line}: `}${d.message}`,
      );
      if (total > details.length)
        errors.push(`${total - details.length} more problem${total - details.length === 1 ? '' : 's'} not listed`);
      port.postMessage({ id: req.id, errors, details: req.detailed ? details : undefined, total });
    });
    port.postMessage({ ready: true });
  },
  (err: Error) => port.postMessage({ ready: false, error: err.message, set: err instanceof SetLoadError ? err.set : undefined }),
);

/** The first MAX_XSD_PROBLEMS problems of `xml`, and how many there are. */
function validate(lib: Libxml, validator: Validator, xml: string | Uint8Array, option: number): { details: Detail[]; total: number } {
  let doc: InstanceType<Libxml['XmlDocument']> | undefined;
  let wellFormed = false;
  try {
    doc = lib.XmlDocument.fromBuffer(bytesOf(xml), { option });
    wellFormed = true;
    validator.validate(doc);
    return { details: [], total: 0 };
  } catch (err) {
    const details = (err as { details?: { message: string; line?: number; col?: number; xpath?: string }[] }).details;
    if (!details?.length) return { details: [{ message: (err as Error).message.trim(), wellFormed }], total: 1 };
    const lines = new LineIndex(textOf(xml));
    return { details: described(details.slice(0, MAX_XSD_PROBLEMS), lines, wellFormed), total: details.length };
  } finally {
    // The document lives in the WebAssembly heap, outside the garbage collector's reach.
    doc?.dispose();
  }
}

/** libxml2's problems with their message trimmed and their place in the text. */
function described(
  details: { message: string; line?: number; col?: number; xpath?: string }[],
  lines: LineIndex,
  wellFormed: boolean,
): Detail[] {
  return details.map((d) => {
    const message = d.message.trim();
    const at = d.line ? locate(lines, d.line, d.col, message, d.xpath) : undefined;
    return { message, wellFormed, ...(at ?? {}), ...(d.xpath ? { xpath: d.xpath } : {}) };
  });
}

/** Where each line of a text starts, computed once per document with errors. */
class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  line(n: number): string | undefined {
    const start = this.starts[n - 1];
    if (start === undefined) return undefined;
    const end = this.starts[n];
    return this.text.slice(start, end === undefined ? undefined : end - 1);
  }
}

/** The line and column (1-based) of an error. libxml2 gives the column of a well-formedness error but only the line
 * of a validity error (the line its element's start tag ends on): the column is that of the start tag of the element
 * the error names (`Element '{ns}Name'`, else the last step of its XPath), searched on that line and, for a start tag
 * spread over lines, up to 50 lines before it; the line's first character when it is not found. */
function locate(
  lines: LineIndex,
  line: number,
  col: number | undefined,
  message: string,
  xpath: string | undefined,
): { line: number; column: number } {
  if (col && col > 0) return { line, column: col };
  const named =
    /^Element '(?:\{[^}]*\})?([^']+)'/.exec(message)?.[1] ??
    xpath
      ?.split('/')
      .pop()
      ?.replace(/\[\d+\]$/, '')
      .replace(/^.*:/, '');
  if (named && /^[\p{L}_][\p{L}\p{N}_.-]*$/u.test(named)) {
    const tag = new RegExp(`<(?:[\\p{L}_][\\p{L}\\p{N}_.-]*:)?${named.replace(/\./g, '\\.')}(?=[\\s/>]|$)`, 'u');
    for (let n = line; n >= Math.max(1, line - 50); n--) {
      const text = lines.line(n);
      if (text === undefined) break;
      const found = tag.exec(text);
      if (found) return { line: n, column: found.index + 1 };
    }
  }
  const text = lines.line(line) ?? '';
  return { line, column: text.length - text.trimStart().length + 1 };
}
