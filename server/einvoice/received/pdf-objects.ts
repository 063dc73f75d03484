// Reading values out of a parsed, untrusted PDF (a @cantoo/pdf-lib PDFContext) without ever throwing on a wrong type:
// every helper answers undefined for a missing key, a dangling reference or a value of another type, so that the
// checks report a broken file instead of failing on it. Read-only; knows no PDF/A or Factur-X rule.
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFContext,
  type PDFObject,
} from '@cantoo/pdf-lib';

export const name = (key: string): PDFName => PDFName.of(key);

/** The object a reference points at (a direct value as it is). */
export function resolve(context: PDFContext, value: PDFObject | undefined): PDFObject | undefined {
  return value instanceof PDFRef ? context.lookup(value) : value;
}

/** The dictionary at `key` of `dict` (a stream's dictionary counts), resolved. */
export function dictAt(context: PDFContext, dict: PDFDict | undefined, key: string): PDFDict | undefined {
  const value = resolve(context, dict?.get(name(key)));
  if (value instanceof PDFDict) return value;
  return value instanceof PDFRawStream ? value.dict : undefined;
}

export function arrayAt(context: PDFContext, dict: PDFDict | undefined, key: string): PDFArray | undefined {
  const value = resolve(context, dict?.get(name(key)));
  return value instanceof PDFArray ? value : undefined;
}

export function streamAt(context: PDFContext, dict: PDFDict | undefined, key: string): PDFRawStream | undefined {
  const value = resolve(context, dict?.get(name(key)));
  return value instanceof PDFRawStream ? value : undefined;
}

/** A name's text without the slash ("GTS_PDFA1"). */
export function nameAt(context: PDFContext, dict: PDFDict | undefined, key: string): string | undefined {
  const value = resolve(context, dict?.get(name(key)));
  return value instanceof PDFName ? value.decodeText() : undefined;
}

export function numberAt(context: PDFContext, dict: PDFDict | undefined, key: string): number | undefined {
  const value = resolve(context, dict?.get(name(key)));
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

/** A text string's text (PDFDocEncoding or UTF-16 with its BOM), literal or hex. */
export function textAt(context: PDFContext, dict: PDFDict | undefined, key: string): string | undefined {
  return text(resolve(context, dict?.get(name(key))));
}

export function text(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) {
    try {
      return value.decodeText();
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A string's bytes (a checksum). */
export function bytesOf(value: PDFObject | undefined): Uint8Array | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.asBytes() : undefined;
}

/** The entries of an array, each resolved. */
export function items(context: PDFContext, array: PDFArray | undefined): (PDFObject | undefined)[] {
  if (!array) return [];
  const out: (PDFObject | undefined)[] = [];
  for (let i = 0; i < array.size(); i++) out.push(resolve(context, array.get(i)));
  return out;
}

/** Where an object is, for a Check's location: "12 0 obj", or undefined for a direct value. */
export function where(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFRef ? `${value.objectNumber} ${value.generationNumber} obj` : undefined;
}
