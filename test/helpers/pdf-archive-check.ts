// The PDF/A-3 and PDF/UA-1 requirements the tests check, read from the file alone and independently of the code that
// wrote it: the objects through `qpdf --json` (pdfa-reader.ts), the fonts through `pdffonts`, the XMP through
// libxml2, and the pages' content (decoded by qpdf) scanned here with the fonts' own ToUnicode maps, so that the
// text of each marked-content sequence (tagged, artifact or neither) can be read. `archiveCheck` returns a summary
// and the list of problems (empty when every check passes); it asserts nothing itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { embeddedFonts } from './pdf-layout';
import { qpdfJson, readXmp, str, type Dict, type Json, type QpdfFile } from './pdfa-reader';
import { tempDir } from './service';

/** One structure element in reading order (the tree walked depth first). */
export interface Elem {
  s: string;
  depth: number;
  /** Its /T (a merged PDF's Parts are titled with their documents' titles). */
  title?: string;
  alt?: string;
  lang?: string;
  scope?: string;
  /** The marked content it holds directly: [page index, MCID]. */
  mcrs: [number, number][];
  /** Its object (`12 0 R`) when indirect, its /ID, and the /Headers its table attributes name. */
  ref?: string;
  id?: string;
  headers: string[];
  /** The objects (annotations) it holds through OBJRs. */
  objs: string[];
}

/** What each page paints, by marked-content sequence. */
export interface PageMarks {
  /** The text of the sequences under /Artifact. */
  artifactText: string;
  /** The text of each tagged sequence, by MCID, in the order the content stream has them. */
  tagged: Map<number, string>;
  /** Painting operators outside any marked content. */
  untagged: number;
}

export interface ArchiveSummary {
  pages: number;
  xmp: { part?: string; conformance?: string; pdfua?: string; title?: string; language?: string };
  outputIntent: string;
  fonts: string;
  headerCells: string;
  figures: string[];
  firstHeading?: string;
  untaggedPaints: number;
  pageNumbersAsArtifacts: string;
  repeatedHeaderArtifacts: number;
  readingOrder: string;
}

/** A ToUnicode CMap as code → text (bfchar and bfrange, both forms). */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const hexText = (h: string) => Buffer.from(h, 'hex').swap16().toString('utf16le');
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>/g)) map.set(parseInt(m[1]!, 16), hexText(m[2]!));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]+>|\[[^\]]*\])/g)) {
      const [lo, hi] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
      const dst = m[3]!;
      if (dst.startsWith('[')) {
        [...dst.matchAll(/<([0-9a-fA-F]+)>/g)].forEach((d, i) => map.set(lo + i, hexText(d[1]!)));
      } else {
        const base = Buffer.from(dst.slice(1, -1), 'hex');
        for (let c = lo; c <= hi; c++) {
          const b = Buffer.from(base);
          b.writeUInt16BE(b.readUInt16BE(b.length - 2) + (c - lo), b.length - 2);
          map.set(c, b.swap16().toString('utf16le'));
        }
      }
    }
  }
  return map;
}

const TOKEN = /<<[\s\S]*?>>|<[0-9a-fA-F\s]*>|\[(?:\([^)]*\)|[^\]])*\]|\((?:\\.|[^\\)])*\)|\/[^\s/[\]()<>{}%]+|[^\s/[\]()<>{}%]+/g;
const PAINT = new Set(['f', 'F', 'f*', 'S', 's', 'B', 'B*', 'b', 'b*', 'Do', 'sh']);

function pageMarks(file: QpdfFile, page: Dict): PageMarks {
  const resources = file.dict(page['/Resources']);
  const fonts = new Map<string, Map<number, string>>();
  for (const [name, ref] of Object.entries(resources['/Font'] ? file.dict(resources['/Font']) : {})) {
    const font = file.dict(ref);
    fonts.set(name, font['/ToUnicode'] ? toUnicode(file.data(font['/ToUnicode']).toString('latin1')) : new Map());
  }
  const contents = page['/Contents'];
  const refs = Array.isArray(contents) ? contents : [contents];
  const text = refs.map((r) => file.data(r as Json).toString('latin1')).join('\n');
  const marks: PageMarks = { artifactText: '', tagged: new Map(), untagged: 0 };
  const stack: { tag: string; mcid?: number }[] = [];
  let font = new Map<number, string>();
  let operands: string[] = [];
  for (const [token] of text.matchAll(TOKEN)) {
    if (/^(<|\[|\(|\/|[-+.\d])/.test(token)) {
      operands.push(token);
      continue;
    }
    const op = token;
    if (op === 'BDC' || op === 'BMC') {
      const mcid = /\/MCID\s+(\d+)/.exec(operands[1] ?? '');
      stack.push({ tag: operands[0] ?? '', mcid: mcid ? Number(mcid[1]) : undefined });
    } else if (op === 'EMC') stack.pop();
    else if (op === 'Tf') font = fonts.get(operands[0]!) ?? new Map();
    else if (op === 'Tj' || op === 'TJ' || PAINT.has(op)) {
      const shown = [...operands.join(' ').matchAll(/<([0-9a-fA-F]+)>/g)]
        .map((m) => (m[1]!.match(/.{4}/g) ?? []).map((c) => font.get(parseInt(c, 16)) ?? '\ufffd').join(''))
        .join('');
      const tagged = [...stack].reverse().find((e) => e.mcid !== undefined);
      if (stack.some((e) => e.tag === '/Artifact')) marks.artifactText += shown;
      else if (tagged) marks.tagged.set(tagged.mcid!, (marks.tagged.get(tagged.mcid!) ?? '') + shown);
      else marks.untagged++;
    }
    operands = [];
  }
  return marks;
}

/** The structure tree in reading order. */
function structure(file: QpdfFile, pageIndex: (ref: Json | undefined) => number): Elem[] {
  const catalog = file.dict(file.trailer['/Root']);
  const out: Elem[] = [];
  const walk = (k: Json | undefined, depth: number, pg: Json | undefined, into?: Elem): void => {
    const v = file.resolve(k);
    if (typeof v === 'number') {
      into?.mcrs.push([pageIndex(pg), v]);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth, pg, into);
      return;
    }
    const d = v as Dict | undefined;
    if (!d || typeof d !== 'object') return;
    if (d['/Type'] === '/MCR') {
      into?.mcrs.push([pageIndex(d['/Pg'] ?? pg), d['/MCID'] as number]);
      return;
    }
    if (d['/Type'] === '/OBJR') {
      into?.objs.push(d['/Obj'] as string);
      return;
    }
    if (!d['/S']) return;
    const attrs = file.resolve(d['/A']);
    const list = (Array.isArray(attrs) ? attrs : attrs ? [attrs] : []).map((a) => file.dict(a));
    const scope = list.find((a) => a['/Scope'])?.['/Scope'];
    const elem: Elem = {
      s: (d['/S'] as string).slice(1),
      depth,
      alt: d['/Alt'] ? str(d['/Alt']) : undefined,
      title: d['/T'] ? str(d['/T']) : undefined,
      lang: d['/Lang'] ? str(d['/Lang']) : undefined,
      scope: typeof scope === 'string' ? scope.slice(1) : undefined,
      mcrs: [],
      ref: typeof k === 'string' ? k : undefined,
      id: d['/ID'] ? str(d['/ID']) : undefined,
      objs: [],
      headers: list.flatMap((a) => ((file.resolve(a['/Headers']) as Json[] | undefined) ?? []).map((h) => str(h))),
    };
    out.push(elem);
    walk(d['/K'], depth + 1, d['/Pg'] ?? pg, elem);
  };
  walk(file.dict(catalog['/StructTreeRoot'])['/K'], 0, undefined);
  return out;
}

/** A number tree's leaves: key → value (through /Kids). */
function numberTree(file: QpdfFile, node: Json | undefined, out = new Map<number, Json>()): Map<number, Json> {
  const d = file.dict(node);
  const nums = (file.resolve(d['/Nums']) as Json[] | undefined) ?? [];
  for (let i = 0; i + 1 < nums.length; i += 2) out.set(nums[i] as number, nums[i + 1]!);
  for (const kid of (file.resolve(d['/Kids']) as Json[] | undefined) ?? []) numberTree(file, kid, out);
  return out;
}

/** Every page's object reference, in order. */
function pageRefs(file: QpdfFile): string[] {
  const out: string[] = [];
  const walk = (ref: Json | undefined) => {
    const d = file.dict(ref);
    if (d['/Kids']) for (const k of d['/Kids'] as Json[]) walk(k);
    else out.push(ref as string);
  };
  walk(file.dict(file.trailer['/Root'])['/Pages']);
  return out;
}

/** The elements of each Part (a merged PDF's documents), or all of them as one when there is no Part. */
function divisions(elems: Elem[]): Elem[][] {
  const parts: Elem[][] = [];
  let depth = -1;
  for (const e of elems) {
    if (e.s === 'Part') {
      parts.push([]);
      depth = e.depth;
    } else if (parts.length > 0 && e.depth > depth) parts[parts.length - 1]!.push(e);
  }
  return parts.length > 0 ? parts : [elems];
}

export interface ArchiveCheck {
  summary: ArchiveSummary;
  problems: string[];
  elems: Elem[];
  pages: PageMarks[];
}

/** Reads `pdf` and checks what docs/pdf.md lists as checked for PDF/A-3 and PDF/UA-1. */
export async function archiveCheck(pdf: Uint8Array): Promise<ArchiveCheck> {
  const fileName = path.join(tempDir('archive-check'), 'doc.pdf');
  fs.writeFileSync(fileName, pdf);
  const problems: string[] = [];
  const check = (ok: unknown, problem: string) => {
    if (!ok) problems.push(problem);
  };
  const qpdfCheck = (() => {
    try {
      return execFileSync('qpdf', ['--check', fileName]).toString();
    } catch (err) {
      return String((err as { stdout?: Buffer }).stdout ?? err);
    }
  })();
  check(/No syntax or stream encoding errors/.test(qpdfCheck), `qpdf --check: ${qpdfCheck.trim().split('\n').pop()}`);

  const file = qpdfJson(fileName);
  const catalog = file.dict(file.trailer['/Root']);
  const info: Dict = file.trailer['/Info'] ? file.dict(file.trailer['/Info']) : {};
  const xmpRef = catalog['/Metadata'];
  const xmp = xmpRef ? (await readXmp(file.data(xmpRef).toString('utf8'))).props : {};
  const lang = catalog['/Lang'] ? str(catalog['/Lang']) : undefined;
  check(xmp['pdfaid:part'] === '3', `XMP pdfaid:part is ${xmp['pdfaid:part']}, not 3`);
  check(xmp['pdfaid:conformance'] === 'A', `XMP pdfaid:conformance is ${xmp['pdfaid:conformance']}, not A`);
  check(xmp['pdfuaid:part'] === '1', `XMP pdfuaid:part is ${xmp['pdfuaid:part']}, not 1`);
  check(lang && xmp['dc:language'] === lang, `XMP dc:language ${xmp['dc:language']} is not the catalog's /Lang ${lang}`);
  check(info['/Title'] && xmp['dc:title'] === str(info['/Title']), `XMP dc:title is not the Info /Title`);
  check(info['/Producer'] && xmp['pdf:Producer'] === str(info['/Producer']), `XMP pdf:Producer is not the Info /Producer`);
  check(catalog['/MarkInfo'] && file.dict(catalog['/MarkInfo'])['/Marked'] === true, 'the catalog has no /MarkInfo /Marked true');
  check(catalog['/ViewerPreferences'] && file.dict(catalog['/ViewerPreferences'])['/DisplayDocTitle'] === true, 'no /DisplayDocTitle true');
  const id = file.trailer['/ID'] as Json[] | undefined;
  check(Array.isArray(id) && id.length === 2, 'the trailer has no /ID');
  check(!file.trailer['/Encrypt'], 'the file is encrypted');

  const intents = (file.resolve(catalog['/OutputIntents']) as Json[] | undefined) ?? [];
  const srgb = intents.map((i) => file.dict(i)).find((i) => i['/S'] === '/GTS_PDFA1');
  const icc = srgb?.['/DestOutputProfile'] ? file.objects.get(srgb['/DestOutputProfile'] as string) : undefined;
  check(srgb && icc?.dict?.['/N'] === 3 && icc.data!.length > 0, 'no GTS_PDFA1 OutputIntent with a 3-component ICC profile');

  // No JavaScript, no launch or remote actions, no external file references anywhere in the file.
  for (const o of file.objects.values()) {
    const d = (o.dict ?? o.value) as Dict | null;
    if (!d || typeof d !== 'object' || Array.isArray(d)) continue;
    check(!['/JavaScript', '/Launch', '/GoToR', '/ImportData', '/SubmitForm'].includes(d['/S'] as string), `an action ${d['/S']}`);
    check(!('/JS' in d) && !('/AA' in d), 'JavaScript or an additional action');
  }

  const fonts = embeddedFonts(pdf);
  check(
    fonts.every((f) => f.embedded),
    `fonts not embedded: ${fonts.filter((f) => !f.embedded).map((f) => f.name)}`,
  );

  const refs = pageRefs(file);
  const pageIndex = (ref: Json | undefined) => refs.indexOf(ref as string);
  for (const ref of refs) {
    const annots = (file.resolve(file.dict(ref)['/Annots']) as Json[] | undefined) ?? [];
    if (annots.length > 0) check(file.dict(ref)['/Tabs'] === '/S', 'a page with annotations has no /Tabs /S');
  }
  const elems = structure(file, pageIndex);
  const pages = refs.map((ref) => pageMarks(file, file.dict(ref)));
  const untagged = pages.reduce((n, p) => n + p.untagged, 0);
  check(untagged === 0, `${untagged} painting operators outside any tag or artifact`);

  const ths = elems.filter((e) => e.s === 'TH');
  const scoped = ths.filter((e) => e.scope === 'Row' || e.scope === 'Column');
  check(scoped.length === ths.length, `${ths.length - scoped.length} of ${ths.length} TH cells without /Scope`);
  const figures = elems.filter((e) => e.s === 'Figure');
  check(
    figures.every((f) => f.alt),
    'a Figure without /Alt',
  );
  const headings = elems.filter((e) => /^H\d?$/.test(e.s));
  check(headings[0]?.s === 'H1', `the first heading is ${headings[0]?.s ?? 'missing'}, not H1`);
  // One H1 a document; a merged PDF holds one document a Part, each with its own H1 first.
  for (const [i, part] of divisions(elems).entries()) {
    const own = part.filter((e) => /^H\d?$/.test(e.s));
    check(own[0]?.s === 'H1' && own.filter((h) => h.s === 'H1').length === 1, `not exactly one H1, first, in document ${i + 1}`);
  }

  // Every MCID a page has in its content belongs to one element, and the elements hold them in the content's order.
  const held = new Map<string, number>();
  elems.forEach((e, i) => e.mcrs.forEach(([p, m]) => held.set(`${p}:${m}`, i)));
  let outOfOrder = 0;
  pages.forEach((page, p) => {
    let last = -1;
    for (const [mcid, text] of page.tagged) {
      const at = held.get(`${p}:${mcid}`);
      check(at !== undefined, `page ${p + 1} MCID ${mcid} is in no structure element`);
      if (at === undefined || text.trim() === '') continue;
      if (at < last) outOfOrder++;
      last = Math.max(last, at);
    }
  });
  check(outOfOrder === 0, `${outOfOrder} text sequences out of reading order`);

  // The parent tree leads from each page's marked content back to the element that holds it (what a reader uses to
  // go from the page to the structure), and the table cells' /Headers name identifiers that exist, once each.
  const root = file.dict(catalog['/StructTreeRoot']);
  const parents = numberTree(file, root['/ParentTree']);
  let misparented = 0;
  refs.forEach((ref, p) => {
    const key = file.dict(ref)['/StructParents'];
    const array = typeof key === 'number' ? ((file.resolve(parents.get(key)) as Json[] | undefined) ?? []) : [];
    for (const mcid of pages[p]!.tagged.keys()) {
      const at = held.get(`${p}:${mcid}`);
      if (at !== undefined && array[mcid] !== elems[at]!.ref) misparented++;
    }
  });
  for (const ref of refs) {
    for (const annot of (file.resolve(file.dict(ref)['/Annots']) as Json[] | undefined) ?? []) {
      const key = file.dict(annot)['/StructParent'];
      const owner = typeof key === 'number' ? elems.find((e) => e.ref === parents.get(key)) : undefined;
      if (!owner?.objs.includes(annot as string)) misparented++;
    }
  }
  check(misparented === 0, `${misparented} marked-content sequences or annotations whose parent-tree entry is not their element`);
  const ids = elems.flatMap((e) => (e.id === undefined ? [] : [e.id]));
  check(new Set(ids).size === ids.length, `${ids.length - new Set(ids).size} element identifiers used twice`);
  const unknown = elems.flatMap((e) => e.headers).filter((h) => !ids.includes(h));
  check(unknown.length === 0, `${unknown.length} table /Headers naming no element`);

  // Page numbers ("Page 2 of 3", in any language: digits of the page and the count) only as artifacts.
  // Each document counts its own pages: in a merged PDF, page p is page k of n of the Part whose content it holds.
  const numbering = pages.map((_, p) => ({ k: p + 1, n: pages.length }));
  for (const part of divisions(elems)) {
    const own = [...new Set(part.flatMap((e) => e.mcrs.map(([page]) => page)))].sort((x, y) => x - y);
    if (part !== elems) own.forEach((page, k) => (numbering[page] = { k: k + 1, n: own.length }));
  }
  const numbered = pages.filter((page, p) => new RegExp(`(^|\\D)${numbering[p]!.k}\\D+${numbering[p]!.n}(\\D|$)`).test(page.artifactText));
  const taggedPageOf = pages.filter((page) => [...page.tagged.values()].some((t) => /\b\d+\s*\/\s*\d+\b|Page \d+ of \d+/.test(t)));
  check(taggedPageOf.length === 0, 'a page number is tagged as content');
  // A header row repeated on a later page is an artifact there: a column header cell and what it holds are tagged on
  // one page only.
  const spread: number[] = [];
  elems.forEach((th, i) => {
    if (th.s !== 'TH' || th.scope !== 'Column') return;
    const pagesOf = new Set(th.mcrs.map(([p]) => p));
    for (let j = i + 1; j < elems.length && elems[j]!.depth > th.depth; j++) elems[j]!.mcrs.forEach(([p]) => pagesOf.add(p));
    if (pagesOf.size > 1) spread.push(i);
  });
  check(spread.length === 0, `${spread.length} column header cells tagged on more than one page`);

  return {
    problems,
    elems,
    pages,
    summary: {
      pages: pages.length,
      xmp: {
        part: xmp['pdfaid:part'],
        conformance: xmp['pdfaid:conformance'],
        pdfua: xmp['pdfuaid:part'],
        title: xmp['dc:title'],
        language: xmp['dc:language'],
      },
      outputIntent: srgb ? `${srgb['/S']} ${str(srgb['/OutputConditionIdentifier'])}, ICC ${icc?.data?.length ?? 0} bytes` : 'none',
      fonts: `${fonts.filter((f) => f.embedded).length} of ${fonts.length} embedded`,
      headerCells: `${scoped.length} of ${ths.length} TH scoped (${scoped.filter((t) => t.scope === 'Column').length} Column)`,
      figures: figures.map((f) => f.alt ?? '(no Alt)'),
      firstHeading: headings[0]?.s,
      untaggedPaints: untagged,
      pageNumbersAsArtifacts: `${numbered.length} of ${pages.length} pages`,
      repeatedHeaderArtifacts: pages.slice(1).filter((p) => p.artifactText.length > 0).length,
      readingOrder: outOfOrder === 0 ? 'as in the content' : `${outOfOrder} out of order`,
    },
  };
}
