// One PDF of several (POST /batch with Accept: application/pdf): every page of each document, in order, with
// @cantoo/pdf-lib. Each source is parsed, its pages copied, and dropped before the next; the merged document itself
// is held until it is written (a PDF's cross-reference table comes last, and pdf-lib writes the file whole).
// Knows nothing of HTTP.
import { PDFDocument } from '@cantoo/pdf-lib';

export class PdfMerger {
  private readonly merged = PDFDocument.create();
  pages = 0;

  async add(pdf: Uint8Array): Promise<void> {
    const out = await this.merged;
    const source = await PDFDocument.load(pdf);
    const copies = await out.copyPages(source, source.getPageIndices());
    for (const page of copies) out.addPage(page);
    this.pages += copies.length;
  }

  async save(meta: { title: string; creator: string }): Promise<Uint8Array> {
    const out = await this.merged;
    out.setTitle(meta.title);
    out.setCreator(meta.creator);
    return out.save();
  }
}
