// A document request's Content-Type read into the body kind the core parses (documents/parse-body.ts): JSON (also any
// `+json` type) or a form, in UTF-8. Any other media type or charset is refused here, naming the header; the core is
// handed a BodyKind and never sees the header.
import type { BodyKind } from '../documents/parse-body';
import { requestErrors } from './request-errors';

/** The media types a document request is read from, as the refusal names them. */
const DOCUMENT_MEDIA_TYPES = 'application/json or application/x-www-form-urlencoded';

/** Which parser a Content-Type selects; unsupported_media_type for any other type, or for a charset other than UTF-8. */
export function bodyKind(contentType: string | undefined): BodyKind {
  const [type, ...params] = (contentType ?? '').split(';');
  const mime = type!.trim().toLowerCase();
  let kind: BodyKind;
  if (mime === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mime)) kind = 'json';
  else if (mime === 'application/x-www-form-urlencoded') kind = 'form';
  else throw requestErrors.unsupportedMediaType(contentType, DOCUMENT_MEDIA_TYPES);
  // Bodies are read as UTF-8; a body declared in another charset would be read wrong (Acm\uFFFD), so it is refused.
  for (const param of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(param);
    if (m && !/^(utf-?8|us-ascii)$/i.test(m[1]!)) throw requestErrors.unsupportedCharset(m[1]!);
  }
  return kind;
}
