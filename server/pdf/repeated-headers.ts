// Finds the table header rows Chromium repeats at the top of each later page, in the structure tree: Chromium tags
// each repeat as more content of the first page's header cells (a column `TH` and what it holds), so the header is
// read once per page. PDF/UA wants the repeats as artifacts (pagination), the header read once where it first
// stands. This module says which marked-content sequences (page, MCID) are repeats and writes the structure
// elements and parent-tree arrays without them; content-marks.ts retags the sequences in the pages' content.
// It reads through pdf-file.ts and changes no bytes itself.
import { PDFArray, PDFDict, PDFName, PDFNull, PDFNumber, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import { serialize, type PageRef, type PdfFile } from './pdf-file';

export interface RepeatedHeaders {
  /** Page index → the MCIDs on it that repeat a header. */
  byPage: Map<number, Set<number>>;
  /** Object number → new body, for the structure elements and parent-tree arrays changed. */
  objects: Map<number, string>;
}

const name = (v: PDFObject | undefined) => (v instanceof PDFName ? v.decodeText() : undefined);

/** True when `scope` (a structure element's /A: one attribute dictionary or an array of them) says Column. */
function columnScoped(file: PdfFile, a: PDFObject | undefined): boolean {
  const value = file.resolve(a);
  const dicts = value instanceof PDFArray ? value.asArray().map((x) => file.dict(x)) : [file.dict(value)];
  return dicts.some((d) => name(d?.get(PDFName.of('Scope'))) === 'Column');
}

/** True when element `num` is a column header cell or lies inside one (at most a few levels down). */
function inColumnHeader(file: PdfFile, num: number): boolean {
  let ref: PDFObject | undefined = PDFRef.of(num);
  for (let depth = 0; depth < 8 && ref instanceof PDFRef; depth++) {
    const elem = file.dict(ref);
    const s = name(elem?.get(PDFName.of('S')));
    if (!elem || s === undefined) return false;
    if (s === 'TH') return columnScoped(file, elem.get(PDFName.of('A')));
    if (s === 'TR' || s === 'Table' || s === 'Document' || s === 'TBody' || s === 'THead') return false;
    ref = elem.get(PDFName.of('P'));
  }
  return false;
}

/** A parent-tree array and, when indirect, its object number. */
type ParentArray = { array: PDFArray; num?: number };

/** The parent tree's arrays: number (a page's /StructParents) → the array and, when indirect, its object number. */
function parentArrays(file: PdfFile, root: PDFDict): Map<number, ParentArray> | undefined {
  const tree = file.dict(root.get(PDFName.of('ParentTree')));
  const nums = file.array(tree?.get(PDFName.of('Nums')));
  if (!tree || !nums || tree.has(PDFName.of('Kids'))) return undefined;
  const out = new Map<number, ParentArray>();
  for (let i = 0; i + 1 < nums.size(); i += 2) {
    const key = nums.get(i);
    const value = nums.get(i + 1);
    const array = file.array(value);
    if (!(key instanceof PDFNumber) || !array) continue;
    // A direct array cannot be replaced on its own: such trees are left as they are.
    if (!(value instanceof PDFRef)) return undefined;
    out.set(key.asNumber(), { array, num: value.objectNumber });
  }
  return out;
}

/** Each page's parent-tree array, and element → the pages (indexes) its content is on. */
function pagesOfElements(pages: PageRef[], arrays: Map<number, ParentArray>) {
  const seenOn = new Map<number, Set<number>>();
  const pageArrays = pages.map((page, index) => {
    const key = page.dict.get(PDFName.of('StructParents'));
    const entry = key instanceof PDFNumber ? arrays.get(key.asNumber()) : undefined;
    entry?.array.asArray().forEach((elem) => {
      if (!(elem instanceof PDFRef)) return;
      const set = seenOn.get(elem.objectNumber) ?? new Set<number>();
      set.add(index);
      seenOn.set(elem.objectNumber, set);
    });
    return entry;
  });
  return { pageArrays, seenOn };
}

/** The column header elements whose content is on more than one page: element → its first page. */
function repeatedHeaderElements(file: PdfFile, seenOn: Map<number, Set<number>>): Map<number, number> {
  const headers = new Map<number, number>();
  for (const [num, on] of seenOn) {
    if (on.size > 1 && inColumnHeader(file, num)) headers.set(num, Math.min(...on));
  }
  return headers;
}

/** The parent-tree arrays without the repeats (null in their place), written to `objects`; the repeats noted by page
 * in `byPage` and as `${page object number}:${mcid}` in `removed`. */
function parentArraysWithoutRepeats(
  pages: PageRef[],
  pageArrays: (ParentArray | undefined)[],
  headers: Map<number, number>,
  out: RepeatedHeaders & { removed: Set<string> },
): void {
  const { byPage, removed, objects } = out;
  pageArrays.forEach((entry, index) => {
    if (!entry?.num) return;
    let changed = false;
    const items = entry.array.asArray().map((elem, mcid) => {
      const first = elem instanceof PDFRef ? headers.get(elem.objectNumber) : undefined;
      if (first === undefined || first >= index) return elem;
      const set = byPage.get(index) ?? new Set<number>();
      set.add(mcid);
      byPage.set(index, set);
      removed.add(`${pages[index]!.ref.objectNumber}:${mcid}`);
      changed = true;
      return PDFNull;
    });
    if (changed) objects.set(entry.num, `[${items.map(serialize).join(' ')}]`);
  });
}

/** The header elements without their `removed` marked content among their kids, written to `objects`. */
function elementsWithoutRepeats(file: PdfFile, headers: Map<number, number>, removed: Set<string>, objects: Map<number, string>): void {
  for (const num of headers.keys()) {
    const elem = file.dict(PDFRef.of(num))!;
    const kids = elem.get(PDFName.of('K'));
    if (!(kids instanceof PDFArray)) continue;
    const pg = elem.get(PDFName.of('Pg'));
    const kept = kids.asArray().filter((kid) => {
      if (kid instanceof PDFNumber) return !(pg instanceof PDFRef && removed.has(`${pg.objectNumber}:${kid.asNumber()}`));
      const mcr = kid instanceof PDFDict ? kid : undefined;
      const page = mcr?.get(PDFName.of('Pg')) ?? pg;
      const mcid = mcr?.get(PDFName.of('MCID'));
      return !(page instanceof PDFRef && mcid instanceof PDFNumber && removed.has(`${page.objectNumber}:${mcid.asNumber()}`));
    });
    if (kept.length === kids.size()) continue;
    const copy = elem.clone();
    copy.set(PDFName.of('K'), file.context.obj(kept));
    objects.set(num, serialize(copy));
  }
}

/** The repeats in `file`'s structure tree, and the objects to write without them. */
export function repeatedHeaders(file: PdfFile, pages: PageRef[]): RepeatedHeaders {
  const none: RepeatedHeaders = { byPage: new Map(), objects: new Map() };
  // A header row repeats only on a second page: a one-page document's structure tree is not read at all.
  if (pages.length < 2) return none;
  const root = file.dict(file.catalog().dict.get(PDFName.of('StructTreeRoot')));
  const arrays = root && parentArrays(file, root);
  if (!arrays) return none;
  // Only elements on more than one page can be repeats.
  const { pageArrays, seenOn } = pagesOfElements(pages, arrays);
  const headers = repeatedHeaderElements(file, seenOn);
  if (headers.size === 0) return none;
  const out = { byPage: new Map<number, Set<number>>(), removed: new Set<string>(), objects: new Map<number, string>() };
  parentArraysWithoutRepeats(pages, pageArrays, headers, out);
  elementsWithoutRepeats(file, headers, out.removed, out.objects);
  return { byPage: out.byPage, objects: out.objects };
}
