// The embedded files of a parsed PDF and which one is the invoice: every file specification listed in the catalog's
// /Names /EmbeddedFiles name tree (walked without recursion, each node once, so a cyclic or deep tree costs at most
// its own size) or in the catalog's /AF, and among them the Factur-X / ZUGFeRD invoice by its file name.
// It reads and decides; it decodes nothing and checks nothing (pdfa-catalog.ts checks these file specifications).
import { PDFArray, PDFDict, type PDFContext, type PDFObject, type PDFRawStream } from '@cantoo/pdf-lib';
import { arrayAt, dictAt, items, name, resolve, streamAt, text, textAt, where } from './pdf-objects';

/** The invoice file names, in the order they are looked for: Factur-X 1.0 and ZUGFeRD 2.1+, ZUGFeRD 2.1+ XRechnung,
 * ZUGFeRD 2.0, ZUGFeRD 1.0 (the last two differ only in case). */
export const INVOICE_NAMES = ['factur-x.xml', 'xrechnung.xml', 'zugferd-invoice.xml', 'ZUGFeRD-invoice.xml'] as const;
export type InvoiceName = (typeof INVOICE_NAMES)[number];

export interface FileSpec {
  spec: PDFDict;
  /** "12 0 obj" when the specification is an indirect object. */
  location?: string;
  /** /UF, else /F, else the name tree's key. */
  fileName?: string;
  inNames: boolean;
  inAF: boolean;
}

/** Name tree nodes visited at most: a real file has a handful. */
const MAX_NAME_TREE_NODES = 10_000;

type Files = Map<PDFDict, FileSpec>;

function add(files: Files, context: PDFContext, raw: PDFObject | undefined, key: string | undefined, from: 'names' | 'af'): void {
  const spec = resolve(context, raw);
  if (!(spec instanceof PDFDict)) return;
  let file = files.get(spec);
  if (!file) {
    const fileName = textAt(context, spec, 'UF') ?? textAt(context, spec, 'F') ?? key;
    file = { spec, location: where(raw), fileName, inNames: false, inAF: false };
    files.set(spec, file);
  }
  if (from === 'names') file.inNames = true;
  else file.inAF = true;
}

function walkNameTree(context: PDFContext, root: PDFDict | undefined, files: Files): void {
  const seen = new Set<PDFObject>();
  const stack: PDFDict[] = root ? [root] : [];
  while (stack.length > 0 && seen.size < MAX_NAME_TREE_NODES) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const pairs = arrayAt(context, node, 'Names');
    for (let i = 0; pairs && i + 1 < pairs.size(); i += 2) {
      add(files, context, pairs.get(i + 1), text(resolve(context, pairs.get(i))), 'names');
    }
    for (const kid of items(context, arrayAt(context, node, 'Kids'))) if (kid instanceof PDFDict) stack.push(kid);
  }
}

/** Every file specification of /Names /EmbeddedFiles and /AF, each once. */
export function embeddedFiles(context: PDFContext, catalog: PDFDict): FileSpec[] {
  const files: Files = new Map();
  walkNameTree(context, dictAt(context, dictAt(context, catalog, 'Names'), 'EmbeddedFiles'), files);
  const af = resolve(context, catalog.get(name('AF')));
  if (af instanceof PDFArray) for (let i = 0; i < af.size(); i++) add(files, context, af.get(i), undefined, 'af');
  return [...files.values()];
}

/** The invoice among `files`: by exact name in INVOICE_NAMES order, else by a name that differs only in case. */
export function pickInvoice(files: FileSpec[]): { file: FileSpec; name: InvoiceName; exact: boolean } | undefined {
  for (const wanted of INVOICE_NAMES) {
    const file = files.find((f) => f.fileName === wanted);
    if (file) return { file, name: wanted, exact: true };
  }
  for (const wanted of INVOICE_NAMES) {
    const file = files.find((f) => f.fileName?.toLowerCase() === wanted.toLowerCase());
    if (file) return { file, name: wanted, exact: false };
  }
  return undefined;
}

/** The embedded file stream of a file specification (/EF /UF, else /EF /F). */
export function embeddedStream(context: PDFContext, spec: PDFDict): PDFRawStream | undefined {
  const ef = dictAt(context, spec, 'EF');
  return streamAt(context, ef, 'UF') ?? streamAt(context, ef, 'F');
}
