// The document information every PDF carries (Title, Author, Creator, Producer, dates) and the PDF syntax of its
// values: text strings and dates. archive.ts writes it into the file (with the XMP that must say the same); pdfa3.ts
// writes the same values for Factur-X. Chromium already writes the title of <title> and the document language (/Lang
// from <html lang>). Builds text only.

/** The PDF Producer entry of every PDF the service makes (Info dictionary, and the XMP of a PDF/A). */
export const PRODUCER = 'docgen-service (Chromium Skia/PDF)';

export interface PdfMetadata {
  title?: string;
  author?: string;
  creator?: string;
}

/** A PDF text string: ASCII in a literal string, anything else as UTF-16BE with a byte order mark. */
export function pdfString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const utf16 = Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
  return `<${utf16.toString('hex').toUpperCase()}>`;
}

/** A PDF date (`D:20261123152316Z`): UTC to the second, for the Info dictionary and a PDF/A's file parameters. */
export function pdfDateText(date: Date): string {
  return `D:${date.toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`;
}
