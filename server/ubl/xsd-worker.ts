// Worker thread that owns libxmljs2: parses the UBL 2.1 XSDs once and validates documents against them, off the
// main event loop (a validation costs ~35 ms of CPU, as libxmljs2 compiles the schema on every validate()).
// libxmljs2 is not context-aware, so exactly one thread in the process may load it: this one.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import libxml from 'libxmljs2';

interface Request {
  id: number;
  xml: string;
  root: 'Invoice' | 'CreditNote';
}

const dir = (workerData as { xsdDir: string }).xsdDir;
const schemas = new Map<string, libxml.Document>();
try {
  for (const root of ['Invoice', 'CreditNote']) {
    const file = path.join(dir, 'maindoc', `UBL-${root}-2.1.xsd`);
    schemas.set(root, libxml.parseXml(fs.readFileSync(file, 'utf8'), { baseUrl: file }));
  }
  parentPort!.postMessage({ ready: true });
} catch (err) {
  parentPort!.postMessage({ ready: false, error: (err as Error).message });
}

parentPort!.on('message', (req: Request) => {
  try {
    const doc = libxml.parseXml(req.xml);
    const valid = doc.validate(schemas.get(req.root)!);
    const errors = valid ? [] : doc.validationErrors.map((e) => `line ${e.line ?? '?'}: ${e.message.trim()}`);
    parentPort!.postMessage({ id: req.id, errors });
  } catch (err) {
    parentPort!.postMessage({ id: req.id, errors: [`not well-formed: ${(err as Error).message}`] });
  }
});
