// Request bodies to plain objects (decisions §1): JSON, or form fields in qs bracket notation where a repeated scalar
// key keeps its last value. Anything else is a 415. Must not validate fields (validate.ts does).
import qs from 'qs';
import { errors } from '../errors';

export type BodyKind = 'json' | 'form';

/** The deepest nesting a JSON body may have: documents need 4 levels; deeper ones are refused before any walk. */
export const MAX_JSON_DEPTH = 32;

/** Which parser a Content-Type selects; throws 415 for any other type, or for a charset other than UTF-8. */
export function bodyKind(contentType: string | undefined): BodyKind {
  const [type, ...params] = (contentType ?? '').split(';');
  const mime = type!.trim().toLowerCase();
  let kind: BodyKind;
  if (mime === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mime)) kind = 'json';
  else if (mime === 'application/x-www-form-urlencoded') kind = 'form';
  else throw errors.unsupportedMediaType(contentType);
  // Bodies are read as UTF-8; a body declared in another charset would be read wrong (Acm\uFFFD), so it is refused.
  for (const param of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(param);
    if (m && !/^(utf-?8|us-ascii)$/i.test(m[1]!)) throw errors.unsupportedCharset(m[1]!);
  }
  return kind;
}

/** How deeply a parsed JSON value nests (iteratively: a 100,000-level body must not overflow the stack). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export function parseBody(kind: BodyKind, raw: Buffer, maxItems: number): unknown {
  // A UTF-8 byte order mark (some Windows clients send one) is not part of the document.
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw errors.emptyBody();
  if (kind === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw errors.malformedJson((err as Error).message);
    }
    if (depthOf(parsed) > MAX_JSON_DEPTH) throw errors.malformedJson(`nested more than ${MAX_JSON_DEPTH} levels deep`);
    return parsed;
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
