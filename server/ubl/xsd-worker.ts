// Worker thread that owns the XSD engine (libxml2-wasm: libxml2 compiled to WebAssembly). It compiles the UBL 2.1
// Invoice and CreditNote schemas once, at start-up, and validates documents against them off the main event loop.
// It must not build, change or repair documents: it only says whether the bytes it was given are valid.
// Why libxml2-wasm and not libxmljs2: libxmljs2's validate() re-compiles the schema on every call (about 40 ms of CPU
// for UBL, more than a whole PDF print) and cannot run in more than one thread; a compiled XsdValidator here
// validates a one-page invoice in well under a millisecond. The schema engine is the same libxml2.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

interface Request {
  id: number;
  xml: string;
  root: 'Invoice' | 'CreditNote';
}

type Libxml = typeof import('libxml2-wasm', { with: { 'resolution-mode': 'import' } });

// libxml2-wasm is an ES module; this file is compiled to CommonJS, so it is loaded with a dynamic import (kept as
// import() by TypeScript's node16 module mode).
async function load(dir: string): Promise<{ lib: Libxml; validators: Map<string, InstanceType<Libxml['XsdValidator']>> }> {
  const lib = await import('libxml2-wasm');
  const { xmlRegisterFsInputProviders } = await import('libxml2-wasm/lib/nodejs.mjs');
  // The schemas import their siblings by relative schemaLocation; they are read from the XSD folder.
  xmlRegisterFsInputProviders();
  const validators = new Map<string, InstanceType<Libxml['XsdValidator']>>();
  for (const root of ['Invoice', 'CreditNote']) {
    const file = path.join(dir, 'maindoc', `UBL-${root}-2.1.xsd`);
    const xsd = lib.XmlDocument.fromBuffer(fs.readFileSync(file), { url: file });
    validators.set(root, lib.XsdValidator.fromDoc(xsd));
  }
  return { lib, validators };
}

const port = parentPort!;
load((workerData as { xsdDir: string }).xsdDir).then(
  ({ lib, validators }) => {
    // Documents are parsed without network access or external entities: they are ours, and never need either.
    // HUGE lifts libxml2's 10 MB text-node limit, which a long document's base64 PDF could reach.
    const options = lib.ParseOption.XML_PARSE_NONET | lib.ParseOption.XML_PARSE_NO_XXE | lib.ParseOption.XML_PARSE_HUGE;
    port.on('message', (req: Request) =>
      port.postMessage({ id: req.id, errors: validate(lib, validators.get(req.root)!, req.xml, options) }),
    );
    port.postMessage({ ready: true });
  },
  (err: Error) => port.postMessage({ ready: false, error: err.message }),
);

function validate(lib: Libxml, validator: InstanceType<Libxml['XsdValidator']>, xml: string, option: number): string[] {
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
