// The PDF/A-3 checks that start from the catalog of a received PDF:
// - PDFA3-OUTPUTINTENT: a /GTS_PDFA1 OutputIntent whose /DestOutputProfile is an ICC profile (its header read: size,
//   'acsp', a colour space matching /N), and every OutputIntent's profile the same object (ISO 19005-3 6.2.3);
// - PDFA3-AF: the invoice's file specification listed in the catalog's /AF, with an /AFRelationship of PDF/A-3 (6.8);
//   FX-AF-RELATIONSHIP: that relationship one Factur-X allows (Data, Source, Alternative);
// - PDFA3-FILESPEC: every embedded file's specification has /F and /UF, an /AFRelationship, a place in /AF, and its
//   stream a MIME /Subtype (6.8); the invoice's /Subtype text/xml (a warning otherwise, as Factur-X asks);
// - PDF-EMBEDDED-CHECKSUM: the invoice's /Params /CheckSum (MD5) and /Size, when given, match its bytes;
// - PDF-PAGE-TREE: the page tree is a tree (no node reached twice) with at least one page, walked without recursion.
// What the profile's colours, the ICC's content beyond its header, and the pages' contents must be is not checked.
import { createHash } from 'node:crypto';
import { PDFDict, type PDFContext, type PDFRawStream } from '@cantoo/pdf-lib';
import { fatal, warning, type Check } from './pdf-check';
import { decodeBounded } from './pdf-bounds';
import { arrayAt, bytesOf, dictAt, items, name, nameAt, numberAt, resolve, streamAt, textAt, where } from './pdf-objects';
import { embeddedStream, type FileSpec } from './pdf-attachment';

const MAX_ICC_BYTES = 4 * 1024 * 1024;
const ICC_SPACES: Record<string, number> = { 'RGB ': 3, GRAY: 1, CMYK: 4 };

/** Why an ICC profile's bytes are not one for /N `n`, or undefined when its header is sound. */
function iccProblem(icc: Uint8Array, n: number | undefined): string | undefined {
  if (icc.length < 128) return 'it is shorter than an ICC header';
  const view = Buffer.from(icc.buffer, icc.byteOffset, icc.byteLength);
  if (view.toString('latin1', 36, 40) !== 'acsp') return "it has no ICC signature 'acsp'";
  if (view.readUInt32BE(0) > icc.length) return 'its header declares more bytes than it has';
  const space = view.toString('latin1', 16, 20);
  if (ICC_SPACES[space] === undefined) return `its colour space '${space.trim()}' is not RGB, GRAY or CMYK`;
  if (n !== ICC_SPACES[space]) return `its colour space '${space.trim()}' does not match /N ${n ?? '(none)'}`;
  return undefined;
}

export function outputIntentChecks(context: PDFContext, catalog: PDFDict): Check[] {
  const intents = items(context, arrayAt(context, catalog, 'OutputIntents')).filter((i): i is PDFDict => i instanceof PDFDict);
  const pdfa = intents.filter((i) => nameAt(context, i, 'S') === 'GTS_PDFA1');
  if (pdfa.length === 0) return [fatal('PDFA3-OUTPUTINTENT', 'the catalog has no /OutputIntents entry with /S /GTS_PDFA1', 'catalog')];
  const out: Check[] = [];
  const profiles = new Set(intents.map((i) => resolve(context, i.get(name('DestOutputProfile')))).filter((p) => p !== undefined));
  if (profiles.size > 1)
    out.push(fatal('PDFA3-OUTPUTINTENT', 'the OutputIntents name different ICC profiles (PDF/A-3 allows one)', 'catalog'));
  const raw = pdfa[0]!.get(name('DestOutputProfile'));
  const icc = streamAt(context, pdfa[0], 'DestOutputProfile');
  if (!icc) return [...out, fatal('PDFA3-OUTPUTINTENT', 'the GTS_PDFA1 OutputIntent has no /DestOutputProfile ICC stream', 'catalog')];
  const { bytes, why } = decodeBounded(icc, MAX_ICC_BYTES);
  const problem = bytes ? iccProblem(bytes, numberAt(context, icc.dict, 'N')) : why;
  if (problem) out.push(fatal('PDFA3-OUTPUTINTENT', `the OutputIntent's ICC profile is not usable: ${problem}`, where(raw)));
  return out;
}

const PDFA3_RELATIONSHIPS = ['Source', 'Data', 'Alternative', 'Supplement', 'Unspecified'];
const FACTURX_RELATIONSHIPS = ['Data', 'Source', 'Alternative'];

export function afChecks(context: PDFContext, invoice: FileSpec): Check[] {
  const at = invoice.location;
  const out: Check[] = [];
  if (!invoice.inAF) out.push(fatal('PDFA3-AF', `${invoice.fileName} is not listed in the catalog's /AF (associated files)`, at));
  const relationship = nameAt(context, invoice.spec, 'AFRelationship');
  if (!relationship || !PDFA3_RELATIONSHIPS.includes(relationship)) {
    out.push(
      fatal(
        'PDFA3-AF',
        `${invoice.fileName} has /AFRelationship ${relationship ?? '(none)'}, not one of ${PDFA3_RELATIONSHIPS.join(', ')}`,
        at,
      ),
    );
  } else if (!FACTURX_RELATIONSHIPS.includes(relationship)) {
    out.push(
      warning(
        'FX-AF-RELATIONSHIP',
        `${invoice.fileName} has /AFRelationship ${relationship}; Factur-X asks for Data, Source or Alternative`,
        at,
      ),
    );
  }
  return out;
}

export function fileSpecChecks(context: PDFContext, files: FileSpec[], invoice: FileSpec): Check[] {
  const out: Check[] = [];
  for (const file of files) {
    const label = file.fileName ?? '(an unnamed file)';
    const missing = ['F', 'UF'].filter((k) => textAt(context, file.spec, k) === undefined);
    if (missing.length)
      out.push(fatal('PDFA3-FILESPEC', `the file specification of ${label} has no /${missing.join(' or /')}`, file.location));
    if (file !== invoice && !nameAt(context, file.spec, 'AFRelationship')) {
      out.push(fatal('PDFA3-FILESPEC', `the embedded file ${label} has no /AFRelationship`, file.location));
    }
    if (file !== invoice && !file.inAF) out.push(fatal('PDFA3-FILESPEC', `the embedded file ${label} is not listed in /AF`, file.location));
    const stream = embeddedStream(context, file.spec);
    const subtype = stream && nameAt(context, stream.dict, 'Subtype');
    if (!stream) out.push(fatal('PDFA3-FILESPEC', `the file specification of ${label} has no embedded file stream`, file.location));
    else if (!subtype) out.push(fatal('PDFA3-FILESPEC', `the embedded file ${label} has no MIME /Subtype`, file.location));
    else if (file === invoice && subtype !== 'text/xml') {
      out.push(warning('PDFA3-FILESPEC', `the invoice ${label} has /Subtype /${subtype}; Factur-X asks for text/xml`, file.location));
    }
  }
  return out;
}

/** The invoice's /Params /CheckSum and /Size against its decoded bytes. */
export function checksumChecks(context: PDFContext, stream: PDFRawStream, xml: Uint8Array, location?: string): Check[] {
  const params = dictAt(context, stream.dict, 'Params');
  const out: Check[] = [];
  const sum = bytesOf(resolve(context, params?.get(name('CheckSum'))));
  if (sum && !Buffer.from(sum).equals(createHash('md5').update(xml).digest())) {
    out.push(
      fatal(
        'PDF-EMBEDDED-CHECKSUM',
        "the invoice's bytes do not match its /Params /CheckSum (MD5): the file was altered or damaged",
        location,
      ),
    );
  }
  const size = numberAt(context, params, 'Size');
  if (size !== undefined && size !== xml.length) {
    out.push(warning('PDF-EMBEDDED-CHECKSUM', `the invoice has ${xml.length} bytes, its /Params /Size says ${size}`, location));
  }
  return out;
}

export function pageTreeChecks(context: PDFContext, catalog: PDFDict): Check[] {
  const root = dictAt(context, catalog, 'Pages');
  if (!root) return [fatal('PDF-PAGE-TREE', 'the catalog has no /Pages page tree', 'catalog')];
  const seen = new Set<PDFDict>();
  const stack = [root];
  let pages = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) return [fatal('PDF-PAGE-TREE', 'the page tree reaches a node twice (a cycle or a shared kid)', 'catalog')];
    seen.add(node);
    if (nameAt(context, node, 'Type') === 'Page') pages++;
    for (const kid of items(context, arrayAt(context, node, 'Kids'))) if (kid instanceof PDFDict) stack.push(kid);
  }
  return pages === 0 ? [fatal('PDF-PAGE-TREE', 'the page tree has no page', 'catalog')] : [];
}
