// The file name a document is sent under (the API's attachment name, a batch's ZIP entries, the CLI's default output,
// the UBL attachment): the type and the document's number, in NFC, characters unsafe in a file name made `_`, cut at
// a whole character (never inside a surrogate pair or before a combining mark) so that it stays at most 80 characters
// of number and 255 bytes of UTF-8 in all (what file systems and unzip accept).
import type { DocumentRequest } from './model';

/** The most characters (grapheme clusters) of the number a file name keeps. */
export const MAX_NUMBER_CHARACTERS = 80;
/** The longest file name, in bytes of UTF-8: the limit of ext4, NTFS (in UTF-16 units, fewer), APFS and unzip. */
export const MAX_FILENAME_BYTES = 255;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` cut after its last whole character (grapheme cluster) that keeps it within `maxBytes` of UTF-8 and
 * `maxCharacters` characters. */
export function cutWhole(text: string, maxBytes: number, maxCharacters = Number.POSITIVE_INFINITY): string {
  // A text within both bounds stays whole, without segmenting it (its characters are at most its UTF-16 units): every
  // document's short number took the segmenter's 10-20 µs.
  if (text.length <= maxCharacters && Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  let count = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = Buffer.byteLength(segment, 'utf8');
    if (count === maxCharacters || bytes + size > maxBytes) break;
    out += segment;
    bytes += size;
    count++;
  }
  return out;
}

/** `invoice-1.pdf`: letters, marks and digits of any script, `.`, `_` and `-` kept, anything else (spaces, slashes,
 * controls, unpaired surrogates) made `_`. */
export function pdfFilename(doc: Pick<DocumentRequest, 'type' | 'number'>): string {
  const ext = '.pdf';
  if (!doc.number) return `${doc.type}${ext}`;
  const safe = doc.number.normalize('NFC').replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '_');
  const room = MAX_FILENAME_BYTES - Buffer.byteLength(`${doc.type}-${ext}`);
  return `${doc.type}-${cutWhole(safe, room, MAX_NUMBER_CHARACTERS)}${ext}`;
}

/** File names made unique within one archive, compared in NFC and without case (so that two numbers a reader cannot
 * tell apart get two entries): the second `invoice-1.pdf` becomes `invoice-1-2.pdf`, then `-3`, the stem cut at a whole
 * character when the suffix would take the name past MAX_FILENAME_BYTES. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  name(filename: string): string {
    const name = filename.normalize('NFC');
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) {
      const suffix = `-${n}${ext}`;
      candidate = `${cutWhole(stem, MAX_FILENAME_BYTES - Buffer.byteLength(suffix))}${suffix}`;
    }
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
