// One tagged PDF of several (a batch asked for as one PDF), made with @cantoo/pdf-lib's object copier:
// every page of each document in order, and each document's structure tree kept as a `Part` (titled with the
// document's title, keeping its /Lang) under one `Document` of the whole, so that the merged file is as accessible as
// its parts. What ties a structure tree to its pages is renumbered on the way: the pages' /StructParents and the
// annotations' /StructParent move past the keys of the documents before, the parent tree is rebuilt with the moved
// keys, and element identifiers (with the table cells' /Headers that name them) take a per-document prefix so that
// they stay unique. An outline lists the documents. The result is made PDF/A-3a and PDF/UA-1 by archive.ts, like any
// other PDF; signing it is the caller's (last) step. Each source is parsed, copied and dropped before the next; the
// merged document is held until it is written. Knows no document type and no HTTP.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObjectCopier,
  PDFPage,
  PDFPageLeaf,
  PDFRef,
  PDFString,
  type PDFContext,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { archivePdf } from './archive';
import type { PdfMetadata } from './metadata';

const N = (name: string) => PDFName.of(name);

/** A text string's value, whatever its encoding. */
function textOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
}

/** The leaves of a number tree (/Nums) or name tree (/Names): key and value pairs in order, through /Kids. */
function treeEntries(ctx: PDFContext, node: PDFObject | undefined, leaf: 'Nums' | 'Names', depth = 0): [PDFObject, PDFObject][] {
  const dict = node instanceof PDFRef ? ctx.lookup(node) : node;
  if (!(dict instanceof PDFDict) || depth > 32) return [];
  const out: [PDFObject, PDFObject][] = [];
  const pairs = ctx.lookup(dict.get(N(leaf)));
  if (pairs instanceof PDFArray) for (let i = 0; i + 1 < pairs.size(); i += 2) out.push([pairs.get(i), pairs.get(i + 1)]);
  const kids = ctx.lookup(dict.get(N('Kids')));
  if (kids instanceof PDFArray) for (const kid of kids.asArray()) out.push(...treeEntries(ctx, kid, leaf, depth + 1));
  return out;
}

/** Identifiers Chromium writes (`node00000034`): rewritten with a prefix only when they are plain printable ASCII. */
const PLAIN_ID = /^[\x21-\x7e]+$/;
const prefixed = (prefix: string, id: PDFObject): PDFObject => {
  const text = textOf(id);
  return text !== undefined && PLAIN_ID.test(text) && !/[()\\]/.test(text) ? PDFString.of(prefix + text) : id;
};

/** Gives every structure element under `top` (in the source, before copying) its identifier with `prefix`, and
 * the /Headers of its table attributes the same. Walks elements only: marked-content and object references stop. */
function prefixIds(ctx: PDFContext, top: PDFObject, prefix: string): void {
  const stack: PDFObject[] = [top];
  const seen = new Set<PDFDict>();
  while (stack.length > 0) {
    const elem = ctx.lookup(stack.pop());
    if (!(elem instanceof PDFDict) || seen.has(elem)) continue;
    const type = elem.get(N('Type'));
    if (type instanceof PDFName && type !== N('StructElem')) continue; // MCR, OBJR
    seen.add(elem);
    const id = elem.get(N('ID'));
    if (id) elem.set(N('ID'), prefixed(prefix, id));
    const attrs = ctx.lookup(elem.get(N('A')));
    for (const attr of attrs instanceof PDFArray ? attrs.asArray() : [attrs]) {
      const dict = ctx.lookup(attr);
      const list = dict instanceof PDFDict ? ctx.lookup(dict.get(N('Headers'))) : undefined;
      if (list instanceof PDFArray) list.asArray().forEach((h, i) => list.set(i, prefixed(prefix, h)));
    }
    const kids = elem.get(N('K'));
    const list = ctx.lookup(kids);
    if (list instanceof PDFArray) stack.push(...list.asArray().reverse());
    else if (kids) stack.push(kids);
  }
}

interface Merged {
  doc: PDFDocument;
  /** The `Document` element every part hangs under, written by save(). */
  documentElem: PDFRef;
}

export class PdfMerger {
  private readonly merged: Promise<Merged> = PDFDocument.create({ updateMetadata: false }).then((doc) => ({
    doc,
    documentElem: doc.context.nextRef(),
  }));
  /** The parent tree of the whole: key, value (copied). */
  private readonly parentTree: PDFObject[] = [];
  private nextKey = 0;
  private readonly ids: [string, PDFObject][] = [];
  private readonly parts: PDFRef[] = [];
  private readonly outline: { title: string; page: PDFRef }[] = [];
  private readonly roleMap = new Map<PDFName, PDFObject>();
  private language?: PDFObject;
  pages = 0;

  /** Appends one tagged PDF: its pages, then its structure tree as a Part of the whole. */
  async add(pdf: Uint8Array): Promise<void> {
    const { doc: out, documentElem } = await this.merged;
    const source = await PDFDocument.load(pdf, { updateMetadata: false });
    const src = source.context;
    const copier = PDFObjectCopier.for(src, out.context);
    const offset = this.nextKey;
    const index = this.outline.length;
    const title = source.getTitle() ?? `Document ${index + 1}`;
    this.language ??= source.catalog.get(N('Lang'));
    this.copyPages(source, copier, out, offset, title);

    const root = src.lookup(source.catalog.get(N('StructTreeRoot')));
    if (!(root instanceof PDFDict)) return;
    const prefix = `d${index + 1}-`;
    this.copyParts(src, root, copier, out, { documentElem, prefix, title });
    this.copyParentTree(src, root, copier, offset);
    // After the elements: each identifier's element is already copied.
    for (const [key, ref] of treeEntries(src, root.get(N('IDTree')), 'Names')) {
      const id = prefixed(prefix, key);
      this.ids.push([textOf(id) ?? '', copier.copy(ref)]);
    }
    const roles = src.lookup(root.get(N('RoleMap')));
    if (roles instanceof PDFDict) for (const [k, v] of roles.entries()) this.roleMap.set(k, copier.copy(v));
  }

  /** The source's pages appended, their parent-tree keys (and their annotations') moved past `offset`; the first one
   * in the outline under `title`. */
  private copyPages(source: PDFDocument, copier: PDFObjectCopier, out: PDFDocument, offset: number, title: string): void {
    const pages = source.getPages();
    pages.forEach((page) => {
      const ref = copier.copy(page.ref) as PDFRef;
      const leaf = out.context.lookup(ref);
      if (!(leaf instanceof PDFPageLeaf)) throw new Error('a copied page is not a page');
      shiftKey(leaf, 'StructParents', offset);
      const annots = out.context.lookup(leaf.get(N('Annots')));
      if (annots instanceof PDFArray) {
        for (const annot of annots.asArray()) {
          const dict = out.context.lookup(annot);
          if (dict instanceof PDFDict) shiftKey(dict, 'StructParent', offset);
        }
      }
      out.addPage(PDFPage.of(leaf, ref, out));
      if (page === pages[0]) this.outline.push({ title, page: ref });
    });
    this.pages += pages.length;
  }

  /** The source's top structure elements copied as parts under the merged Document, their identifiers prefixed. */
  private copyParts(
    src: PDFContext,
    root: PDFDict,
    copier: PDFObjectCopier,
    out: PDFDocument,
    part: { documentElem: PDFRef; prefix: string; title: string },
  ): void {
    const tops = src.lookup(root.get(N('K')));
    const topList = tops instanceof PDFArray ? tops.asArray() : [root.get(N('K'))];
    for (const top of topList) {
      if (!top) continue;
      const elem = src.lookup(top);
      if (!(elem instanceof PDFDict)) continue;
      prefixIds(src, top, part.prefix);
      // The source's root stays behind: its parts hang under the merged Document instead.
      elem.delete(N('P'));
      if (elem.get(N('S')) === N('Document')) elem.set(N('S'), N('Part'));
      if (!elem.has(N('T'))) elem.set(N('T'), PDFHexString.fromText(part.title));
      const copied = copier.copy(top);
      const dict = out.context.lookup(copied);
      if (dict instanceof PDFDict) dict.set(N('P'), part.documentElem);
      this.parts.push(copied instanceof PDFRef ? copied : out.context.register(copied));
    }
  }

  /** The source's parent-tree entries added with their keys moved past `offset`; the next document's offset set. */
  private copyParentTree(src: PDFContext, root: PDFDict, copier: PDFObjectCopier, offset: number): void {
    let last = -1;
    for (const [key, value] of treeEntries(src, root.get(N('ParentTree')), 'Nums')) {
      if (!(key instanceof PDFNumber)) continue;
      this.parentTree.push(PDFNumber.of(key.asNumber() + offset), copier.copy(value));
      last = Math.max(last, key.asNumber());
    }
    const next = src.lookup(root.get(N('ParentTreeNextKey')));
    this.nextKey = offset + Math.max(last + 1, next instanceof PDFNumber ? next.asNumber() : 0);
  }

  /** The merged PDF, PDF/A-3a and PDF/UA-1 (archive.ts), titled `meta.title`. */
  async save(meta: PdfMetadata, producer: string, now?: Date): Promise<Buffer> {
    const { doc: out, documentElem } = await this.merged;
    const ctx = out.context;
    const rootRef = ctx.nextRef();
    ctx.assign(documentElem, ctx.obj({ Type: 'StructElem', S: 'Document', P: rootRef, K: this.parts }));
    if (this.language) ctx.lookup(documentElem, PDFDict).set(N('Lang'), this.language);
    // Name trees are sorted by key; the prefixes keep each document's identifiers together.
    const ids = [...this.ids].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).flatMap(([k, v]) => [PDFString.of(k), v]);
    const root = ctx.obj({
      Type: 'StructTreeRoot',
      K: documentElem,
      ParentTree: ctx.register(ctx.obj({ Nums: this.parentTree })),
      ParentTreeNextKey: this.nextKey,
    });
    if (ids.length > 0) root.set(N('IDTree'), ctx.register(ctx.obj({ Names: ids })));
    if (this.roleMap.size > 0) root.set(N('RoleMap'), ctx.obj(Object.fromEntries([...this.roleMap].map(([k, v]) => [k.decodeText(), v]))));
    ctx.assign(rootRef, root);

    const catalog = out.catalog;
    catalog.set(N('StructTreeRoot'), rootRef);
    catalog.set(N('MarkInfo'), ctx.obj({ Marked: true }));
    catalog.set(N('ViewerPreferences'), ctx.obj({ DisplayDocTitle: true }));
    if (this.language) catalog.set(N('Lang'), this.language);
    if (this.outline.length > 0) {
      catalog.set(N('Outlines'), this.writeOutline(ctx));
      catalog.set(N('PageMode'), N('UseOutlines'));
    }
    const bytes = await out.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
    return archivePdf(bytes, meta, producer, now);
  }

  /** One outline item per document, at its first page. */
  private writeOutline(ctx: PDFContext): PDFRef {
    const outlines = ctx.nextRef();
    const items = this.outline.map(() => ctx.nextRef());
    this.outline.forEach(({ title, page }, i) => {
      const item = ctx.obj({ Title: PDFHexString.fromText(title), Parent: outlines, Dest: [page, 'Fit'] });
      if (i > 0) item.set(N('Prev'), items[i - 1]!);
      if (i + 1 < items.length) item.set(N('Next'), items[i + 1]!);
      ctx.assign(items[i]!, item);
    });
    ctx.assign(outlines, ctx.obj({ Type: 'Outlines', First: items[0]!, Last: items[items.length - 1]!, Count: items.length }));
    return outlines;
  }
}

/** Moves a dictionary's parent-tree key (/StructParents of a page, /StructParent of an annotation) by `offset`. */
function shiftKey(dict: PDFDict, key: 'StructParents' | 'StructParent', offset: number): void {
  const value = dict.get(N(key));
  if (value instanceof PDFNumber) dict.set(N(key), PDFNumber.of(value.asNumber() + offset));
}
