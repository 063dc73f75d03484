// The file name a document is sent under (the API's attachment name, the CLI's default output, the UBL attachment).
import type { DocumentRequest } from './model';

/** `invoice-1.pdf`; characters unsafe in a file name become `_`. */
export function pdfFilename(doc: Pick<DocumentRequest, 'type' | 'number'>): string {
  const number = doc.number ? `-${doc.number.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80)}` : '';
  return `${doc.type}${number}.pdf`;
}
