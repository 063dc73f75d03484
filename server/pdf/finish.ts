// What follows Chromium's print for a PDF the service signs: PDF/A-3a + PDF/UA-1 (archive.ts) and the signature
// (signature.ts) written as one incremental update, so that the file is read once and copied once. A PDF that is
// changed further before it is signed (Factur-X) is archived alone and signed by PdfSigner.sign after.
// Knows no HTTP and no configuration.
import { cpuTurn } from '../cpu-turns';
import { archiveInto } from './archive';
import type { PdfMetadata } from './metadata';
import { PdfFile, PdfUpdate } from './pdf-file';
import type { PdfSigner } from './signature';

/** Chromium's `pdf` made PDF/A-3a and PDF/UA-1 and signed by `signer`, at `now`, in one update. */
export async function archiveAndSign(
  pdf: Uint8Array,
  meta: PdfMetadata,
  producer: string,
  signer: PdfSigner,
  now = new Date(),
): Promise<Buffer> {
  await cpuTurn(); // the file read and the update made: tens of ms for a long document (cpu-turns.ts)
  const update = new PdfUpdate(new PdfFile(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)));
  archiveInto(update, meta, producer, now);
  return signer.signUpdate(update, now);
}
