// The PDF/A-3 checks made over every object of a received PDF in one pass (each indirect object and the dictionaries
// and arrays written directly inside it; references are not followed, so cycles cost nothing):
// - PDFA3-FONTS-EMBEDDED: every font other than Type 3 (and Type 0, whose descendant font is checked itself) has a
//   /FontDescriptor with a /FontFile, /FontFile2 or /FontFile3 stream (ISO 19005-3 6.2.11.4.1). Fonts are checked
//   wherever they are, used or not; whether the embedded program holds every glyph used is not checked;
// - PDFA3-ACTIONS: no JavaScript, Launch, Sound, Movie, ResetForm, ImportData, Hide, SetOCGState, Rendition, Trans or
//   GoTo3DView action, no named action beyond the four page moves, no /AA additional actions, no /JavaScript name
//   tree (6.6.1, 6.6.2);
// - PDFA3-STREAMS: no stream with its data in an external file (/F, /FFilter, /FDecodeParms) and no LZWDecode filter
//   (6.1.7).
// Reads only; transparency, colour spaces, annotations' appearances and the content streams are not checked.
import { PDFArray, PDFDict, PDFName, PDFRawStream, type PDFContext, type PDFObject, type PDFRef } from '@cantoo/pdf-lib';
import { fatal, type Check } from './pdf-check';
import { dictAt, resolve, streamAt } from './pdf-objects';

// Names are interned by pdf-lib: compared by identity, never decoded (this pass meets every dictionary of the file).
const N = (...names: string[]) => names.map((n) => PDFName.of(n));
const TYPE = PDFName.of('Type');
const SUBTYPE = PDFName.of('Subtype');
const FONT = PDFName.of('Font');
const TYPE3 = PDFName.of('Type3');
const TYPE0 = PDFName.of('Type0');
const AA = PDFName.of('AA');
const S = PDFName.of('S');
const P = PDFName.of('P');
const ACTION = PDFName.of('Action');
const NAMED = PDFName.of('Named');
const NAME_N = PDFName.of('N');
const FILTER = PDFName.of('Filter');
const LZW = PDFName.of('LZWDecode');
const BASE_FONT = PDFName.of('BaseFont');
const FONT_FILES = ['FontFile', 'FontFile2', 'FontFile3'];
const EXTERNAL = N('F', 'FFilter', 'FDecodeParms');
const FORBIDDEN_ACTIONS = new Set(
  N('JavaScript', 'Launch', 'Sound', 'Movie', 'ResetForm', 'ImportData', 'Hide', 'SetOCGState', 'Rendition', 'Trans', 'GoTo3DView'),
);
const NAMED_ACTIONS = new Set(N('NextPage', 'PrevPage', 'FirstPage', 'LastPage'));
/** How deep the direct values inside one object are looked at (real files nest a few levels). */
const MAX_NESTING = 32;
/** How many objects each rule names in its message. */
const NAMED_IN_MESSAGE = 5;

interface Findings {
  fonts: string[];
  actions: string[];
  streams: string[];
}

const label = (ref: PDFRef) => `${ref.objectNumber} ${ref.generationNumber} obj`;
const at = (context: PDFContext, dict: PDFDict, key: PDFName) => resolve(context, dict.get(key));
const text = (value: PDFObject | undefined) => (value instanceof PDFName ? value.decodeText() : '(unnamed)');

function fontProblem(context: PDFContext, font: PDFDict): string | undefined {
  const subtype = at(context, font, SUBTYPE);
  if (subtype === TYPE3 || subtype === TYPE0) return undefined;
  const descriptor = dictAt(context, font, 'FontDescriptor');
  if (FONT_FILES.some((k) => streamAt(context, descriptor, k))) return undefined;
  return text(at(context, font, BASE_FONT));
}

function actionProblem(context: PDFContext, dict: PDFDict): string | undefined {
  if (dict.has(AA)) return 'additional actions (/AA)';
  const type = at(context, dict, TYPE);
  // /S names many things (structure roles, transitions, soft masks): an action has /Type /Action or none, and no
  // structure element's /P parent.
  if ((type !== undefined && type !== ACTION) || dict.has(P)) return undefined;
  const s = at(context, dict, S);
  if (!(s instanceof PDFName)) return undefined;
  if (FORBIDDEN_ACTIONS.has(s)) return `a ${s.decodeText()} action`;
  const named = s === NAMED ? at(context, dict, NAME_N) : undefined;
  return named instanceof PDFName && !NAMED_ACTIONS.has(named) ? `the named action ${named.decodeText()}` : undefined;
}

function streamProblem(context: PDFContext, stream: PDFRawStream): string | undefined {
  const external = EXTERNAL.find((k) => stream.dict.has(k));
  if (external) return `its data in an external file (${external.asString()})`;
  const filter = at(context, stream.dict, FILTER);
  const filters = filter instanceof PDFArray ? filter.asArray().map((f) => resolve(context, f)) : [filter];
  return filters.includes(LZW) ? 'the LZWDecode filter' : undefined;
}

function visitDict(context: PDFContext, dict: PDFDict, where: string, found: Findings): void {
  if (at(context, dict, TYPE) === FONT) {
    const font = fontProblem(context, dict);
    if (font) found.fonts.push(`${font} (${where})`);
  }
  const action = actionProblem(context, dict);
  if (action) found.actions.push(`${action} (${where})`);
}

/** One object and the values written directly inside it. */
function visit(context: PDFContext, ref: PDFRef, object: PDFObject, found: Findings): void {
  const where = label(ref);
  if (object instanceof PDFRawStream) {
    const problem = streamProblem(context, object);
    if (problem) found.streams.push(`${problem} (${where})`);
  }
  const stack: [PDFObject, number][] = [[object instanceof PDFRawStream ? object.dict : object, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > MAX_NESTING) continue;
    if (value instanceof PDFDict) {
      visitDict(context, value, where, found);
      for (const v of value.values()) if (v instanceof PDFDict || v instanceof PDFArray) stack.push([v, depth + 1]);
    } else if (value instanceof PDFArray) {
      for (let i = 0; i < value.size(); i++) {
        const v = value.get(i);
        if (v instanceof PDFDict || v instanceof PDFArray) stack.push([v, depth + 1]);
      }
    }
  }
}

function report(rule: string, what: string, list: string[]): Check[] {
  if (list.length === 0) return [];
  const more = list.length > NAMED_IN_MESSAGE ? `, and ${list.length - NAMED_IN_MESSAGE} more` : '';
  return [fatal(rule, `${what}: ${list.slice(0, NAMED_IN_MESSAGE).join('; ')}${more}`)];
}

export function objectChecks(context: PDFContext, catalog: PDFDict): Check[] {
  const found: Findings = { fonts: [], actions: [], streams: [] };
  for (const [ref, object] of context.enumerateIndirectObjects()) visit(context, ref, object, found);
  if (dictAt(context, dictAt(context, catalog, 'Names'), 'JavaScript')) {
    found.actions.push('a /JavaScript name tree (catalog)');
  }
  return [
    ...report('PDFA3-FONTS-EMBEDDED', 'fonts without an embedded font program', found.fonts),
    ...report('PDFA3-ACTIONS', 'actions PDF/A-3 forbids', found.actions),
    ...report('PDFA3-STREAMS', 'streams PDF/A-3 forbids', found.streams),
  ];
}
