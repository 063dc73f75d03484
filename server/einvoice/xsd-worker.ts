// Worker thread that owns the XSD engine (libxml2-wasm: libxml2 compiled to WebAssembly). It compiles the schemas it
// is given once, at start-up (UBL 2.1 Invoice and CreditNote, CII D16B CrossIndustryInvoice, the Factur-X profiles: see
// xsd-validator.ts, which says where they are), and validates documents against them off the main event loop.
// It must not build, change or repair documents: it only says whether the bytes it was given are valid.
// Why libxml2-wasm and not libxmljs2: libxmljs2's validate() re-compiles the schema on every call (about 40 ms of CPU
// for UBL, more than a whole PDF print) and cannot run in more than one thread; a compiled XsdValidator here
// validates a one-page invoice in well under a millisecond. The schema engine is the same libxml2.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

interface Request {
  id: number;
  xml: string;
  /** A key of one of the schema sets' files (Invoice, CreditNote, CrossIndustryInvoice, FacturX-EN16931 …). */
  root: string;
}

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
      const errors = validator ? validate(lib, validator, req.xml, options) : [`no schema for ${req.root}`];
      port.postMessage({ id: req.id, errors });
    });
    port.postMessage({ ready: true });
  },
  (err: Error) => port.postMessage({ ready: false, error: err.message, set: err instanceof SetLoadError ? err.set : undefined }),
);

function validate(lib: Libxml, validator: Validator, xml: string, option: number): string[] {
  let doc: InstanceType<Libxml['XmlDocument']> | undefined;
  try {
    doc = lib.XmlDocument.fromBuffer(Buffer.from(xml, 'utf8'), { option });
    validator.validate(doc);
    return [];
  } catch (err) {
    const details = (err as { details?: { message: string; line?: number }[] }).details;
    const prefix = err instanceof lib.XmlValidateError ? '' : 'not well-formed: ';
    if (!details?.length) return [`${prefix}${(err as Error).message.trim()}`];
    return details.map((d) => `${prefix}line ${d.line ?? '?'}: ${d.message.trim()}`);
  } finally {
    // The document lives in the WebAssembly heap, outside the garbage collector's reach.
    doc?.dispose();
  }
}
