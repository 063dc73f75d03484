// Request bodies to plain objects (decisions §1): JSON, or form fields in qs bracket notation where a repeated scalar
// key keeps its last value. Anything else is a 415. Must not validate fields (validate.ts does).
import qs from 'qs';
import { errors } from '../errors';

export type BodyKind = 'json' | 'form';

/** Which parser a Content-Type selects; throws 415 for any other type. */
export function bodyKind(contentType: string | undefined): BodyKind {
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mime === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mime)) return 'json';
  if (mime === 'application/x-www-form-urlencoded') return 'form';
  throw errors.unsupportedMediaType(contentType);
}

export function parseBody(kind: BodyKind, raw: Buffer, maxItems: number): unknown {
  // A UTF-8 byte order mark (some Windows clients send one) is not part of the document.
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw errors.emptyBody();
  if (kind === 'json') {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw errors.malformedJson((err as Error).message);
    }
  }
  return qs.parse(text, {
    // Lists as long as the item limit stay lists (qs's default turns index 21+ into object keys).
    arrayLimit: maxItems,
    parameterLimit: Infinity,
    depth: 5,
    duplicates: 'last',
    allowPrototypes: false,
    charset: 'utf-8',
  });
}
