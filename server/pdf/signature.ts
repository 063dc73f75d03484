// Signs a finished PDF (PAdES baseline B-B, or B-T with a timestamp) by one more incremental update, so that the
// bytes before it, and with them PDF/A-3 and PDF/UA-1, stay as they were; or, for a PDF fresh from Chromium, as the
// last part of the update that makes it PDF/A and PDF/UA (signUpdate: one update, the file read once). An invisible signature field on the first
// page (a zero-size widget, printable and locked, with an empty appearance, tagged as a `Form` element holding an
// OBJR in the structure tree, its /TU and /Contents saying whose signature it is), the catalog's /AcroForm, and the
// signature dictionary (SubFilter ETSI.CAdES.detached, /M the signing time) whose /ByteRange covers the whole file
// but its own /Contents. The CMS is cms.ts'; the objects are found and written through pdf-file.ts. The frame of the
// signature dictionary and the size of /Contents are fixed when the signer is made.
import { createHash } from 'node:crypto';
import { PDFArray, PDFName, PDFNumber, PDFRef } from '@cantoo/pdf-lib';
import { cpuTurn } from '../cpu-turns';
import { CmsSigner } from './cms';
import { pdfDateText, pdfString } from './metadata';
import { pageList, PdfFile, PdfStructureError, PdfUpdate, serialize, type UpdateBody } from './pdf-file';
import type { SigningKey } from './signing-key';

export interface SignerOptions {
  /** Returns an RFC 3161 token for a SHA-256 imprint (level B-T); absent: level B-B. */
  timestamp?: (imprint: Buffer) => Promise<Buffer>;
}

/** Room for a timestamp token: the token's own signature, certificates and TSTInfo. */
const TIMESTAMP_ROOM = 24 * 1024;
const BYTE_RANGE_WIDTH = 10;

/** A /ByteRange array of fixed width, so that the real one replaces the placeholder byte for byte. */
const byteRange = (range: number[]) => `[${range.map((n) => String(n).padEnd(BYTE_RANGE_WIDTH, ' ')).join(' ')}]`;

export class PdfSigner {
  private readonly cms: CmsSigner;
  /** The /Contents placeholder's size in bytes (its hex is twice that); measured by prepare(). */
  private contentsBytes = 0;
  readonly level: 'B-B' | 'B-T';

  constructor(
    readonly key: SigningKey,
    private readonly opts: SignerOptions = {},
  ) {
    this.cms = new CmsSigner(key);
    this.level = opts.timestamp ? 'B-T' : 'B-B';
  }

  /** Measures the CMS of this key once (an ECDSA signature varies by a few bytes), with room to spare: start-up. */
  async prepare(): Promise<this> {
    const probe = await this.cms.sign(Buffer.alloc(32));
    this.contentsBytes = probe.length + 256 + (this.opts.timestamp ? TIMESTAMP_ROOM : 0);
    return this;
  }

  /** `pdf` with the signature appended; `now` is the signing time. */
  async sign(pdf: Uint8Array, now: Date = new Date()): Promise<Buffer> {
    await cpuTurn(); // the whole file read to find its objects (cpu-turns.ts)
    return this.signUpdate(new PdfUpdate(new PdfFile(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength))), now);
  }

  /** `update`'s file with the update and the signature in it: the signature's objects are the update's last change. */
  async signUpdate(update: PdfUpdate, now: Date = new Date()): Promise<Buffer> {
    if (this.contentsBytes === 0) await this.prepare();
    const { file, objects, catalog } = update;
    const page = pageList(file)[0];
    if (!page) throw new PdfStructureError('the PDF has no page to hold the signature field');
    if (catalog.has(PDFName.of('AcroForm'))) throw new PdfStructureError('the PDF has a form already');
    const [sigNum, fieldNum, apNum, formNum] = [update.reserve(), update.reserve(), update.reserve(), update.reserve()];

    objects.set(
      sigNum,
      `<</Type /Sig\n/Filter /Adobe.PPKLite\n/SubFilter /ETSI.CAdES.detached\n/Name ${pdfString(this.key.signer)}\n` +
        `/M (${pdfDateText(now)})\n/ByteRange ${byteRange([0, 0, 0, 0])}\n` +
        `/Contents <${'0'.repeat(this.contentsBytes * 2)}>>>`,
    );
    const label = pdfString(`Digital signature of ${this.key.signer}`);
    const structParent = this.tagField(file, page.ref, fieldNum, formNum, objects);
    objects.set(
      fieldNum,
      `<</Type /Annot\n/Subtype /Widget\n/FT /Sig\n/T (Signature1)\n/TU ${label}\n/Contents ${label}\n/V ${sigNum} 0 R\n` +
        `/Rect [0 0 0 0]\n/F 132\n/P ${page.ref.objectNumber} 0 R\n/AP <</N ${apNum} 0 R>>` +
        `${structParent === undefined ? '' : `\n/StructParent ${structParent}`}>>`,
    );
    objects.set(apNum, { dict: '<</Type /XObject\n/Subtype /Form\n/BBox [0 0 0 0]\n/Length 0>>', data: Buffer.alloc(0) });

    const pageDict = page.dict.clone();
    const annots = file.array(page.dict.get(PDFName.of('Annots')))?.asArray() ?? [];
    pageDict.set(PDFName.of('Annots'), file.context.obj([...annots, PDFRef.of(fieldNum)]));
    objects.set(page.ref.objectNumber, serialize(pageDict));
    catalog.set(PDFName.of('AcroForm'), file.context.obj({ Fields: [PDFRef.of(fieldNum)], SigFlags: 3 }));

    return this.fill(update.write(), file.bytes.length, sigNum);
  }

  /**
   * Puts the field into the structure tree (PDF/UA 7.18: a widget belongs to a Form element): a Form element with
   * an OBJR, appended to the document element; the parent tree maps the widget's /StructParent to it. Returns that
   * key, or undefined when the PDF has no structure tree to add to.
   */
  private tagField(file: PdfFile, page: PDFRef, fieldNum: number, formNum: number, objects: Map<number, UpdateBody>): number | undefined {
    const rootRef = file.catalog().dict.get(PDFName.of('StructTreeRoot'));
    const root = file.dict(rootRef);
    const treeRef = root?.get(PDFName.of('ParentTree'));
    const tree = file.dict(treeRef);
    const nums = file.array(tree?.get(PDFName.of('Nums')));
    const kids = root?.get(PDFName.of('K'));
    const docRef = kids instanceof PDFRef ? kids : file.array(kids)?.get(0);
    const doc = docRef instanceof PDFRef ? file.dict(docRef) : undefined;
    if (!(rootRef instanceof PDFRef) || !(treeRef instanceof PDFRef) || !root || !tree || !nums || !doc || !(docRef instanceof PDFRef)) {
      return undefined;
    }
    // These are read from the file: an earlier step of the same update must not have changed them.
    if ([rootRef, treeRef, docRef, page].some((ref) => objects.has(ref.objectNumber))) {
      throw new PdfStructureError('the structure tree or the page was changed earlier in this update');
    }
    const next = root.get(PDFName.of('ParentTreeNextKey'));
    const key = next instanceof PDFNumber ? next.asNumber() : nums.size() / 2;

    const newRoot = root.clone();
    newRoot.set(PDFName.of('ParentTreeNextKey'), file.context.obj(key + 1));
    objects.set(rootRef.objectNumber, serialize(newRoot));
    const newTree = tree.clone();
    newTree.set(PDFName.of('Nums'), file.context.obj([...nums.asArray(), file.context.obj(key), PDFRef.of(formNum)]));
    objects.set(treeRef.objectNumber, serialize(newTree));
    const docKids = doc.get(PDFName.of('K'));
    const list = docKids instanceof PDFArray ? docKids.asArray() : docKids ? [docKids] : [];
    const newDoc = doc.clone();
    newDoc.set(PDFName.of('K'), file.context.obj([...list, PDFRef.of(formNum)]));
    objects.set(docRef.objectNumber, serialize(newDoc));
    objects.set(
      formNum,
      `<</Type /StructElem\n/S /Form\n/P ${docRef.objectNumber} 0 R\n/Pg ${page.objectNumber} 0 R\n` +
        `/K <</Type /OBJR\n/Obj ${fieldNum} 0 R\n/Pg ${page.objectNumber} 0 R>>>>`,
    );
    return key;
  }

  /** Writes the /ByteRange into its placeholder, hashes the covered bytes, and writes the CMS into /Contents; the
   * signature dictionary `sigNum` is looked for in the update, which starts at `updateAt`. */
  private async fill(out: Buffer, updateAt: number, sigNum: number): Promise<Buffer> {
    const from = out.indexOf(`${sigNum} 0 obj\n<</Type /Sig`, updateAt, 'latin1');
    if (from < 0) throw new PdfStructureError('the signature dictionary is not in the update');
    const head = out.subarray(from, from + 4096).toString('latin1');
    const rangeAt = from + head.indexOf('/ByteRange [') + '/ByteRange '.length;
    const contentsAt = from + head.indexOf('/Contents <') + '/Contents '.length; // at '<'
    const contentsEnd = contentsAt + 2 + this.contentsBytes * 2; // after '>'
    if (out[contentsAt] !== 0x3c || out[contentsEnd - 1] !== 0x3e) throw new PdfStructureError('the signature placeholder moved');
    out.write(byteRange([0, contentsAt, contentsEnd, out.length - contentsEnd]), rangeAt, 'latin1');
    const digest = createHash('sha256').update(out.subarray(0, contentsAt)).update(out.subarray(contentsEnd)).digest();
    const cms = await this.cms.sign(digest, this.opts.timestamp);
    if (cms.length > this.contentsBytes) throw new PdfStructureError('the signature is larger than its placeholder');
    out.write(cms.toString('hex'), contentsAt + 1, 'latin1');
    return out;
  }
}
