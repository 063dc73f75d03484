// Request bodies to plain objects (docs/decisions.md §1): JSON, or form fields in qs bracket notation where a repeated scalar
// key keeps its last value. The kind of body is given (the edge reads it from the request: http/body-kind.ts). Must
// not validate fields (validate.ts does).
import { isUtf8 } from 'node:buffer';
import qs from 'qs';
import { errors } from '../errors';

/** How a body is written: JSON, or form fields (application/x-www-form-urlencoded). */
export type BodyKind = 'json' | 'form';

/** A parsed body: a JSON value (a form is an object). Not `unknown`, so that a body still being read (the Promise
 * of pipeline.parse) cannot be handed to validation: the compiler refuses it. */
export type ParsedBody = Record<string, unknown> | unknown[] | string | number | boolean | null;

/** The deepest nesting a JSON body may have (docs/api.md, the contract): documents need 4 levels; deeper ones are
 * refused before any walk. */
export const MAX_JSON_DEPTH = 64;

/** Bounds of a body before it is turned into objects. */
export interface BodyLimits {
  /** The longest list of line items (qs keeps lists this long as lists). */
  maxItems: number;
  /** The most values a body may hold: the fields of a form (qs spends about 8 µs a field, so 30,000 `items[]=x`
   * took 0.3 s of the event loop before a single one was validated), or the values of a JSON body (objects, lists
   * and scalars). A document within its limits never needs more. */
  maxValues: number;
}

/** The most values a document within `maxItems` and `maxCustomFields` can reasonably need: a line item with every
 * EN 16931 term of a line (about 25 fields, a few identifiers, classifications, attributes and adjustments) fits in
 * 40, a custom field in 3, and the rest of a document (parties, labels, every e_invoice group with its lists) in
 * 1,500. */
export function maxBodyValues(maxItems: number, maxCustomFields: number): number {
  return maxItems * 40 + maxCustomFields * 3 + 1500;
}

/** The top-level field of a form key: `items` of `items[3][name]`. */
function formField(pair: string): string {
  const end = pair.search(/[[=]/);
  return decodeURIComponentSafe(end < 0 ? pair : pair.slice(0, end)).slice(0, 60);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Refuses a form of more than `max` fields before qs reads it, naming the field that sends the most. */
function checkFormSize(text: string, max: number): void {
  let count = 1;
  for (let i = text.indexOf('&'); i >= 0 && count <= max; i = text.indexOf('&', i + 1)) count++;
  if (count <= max) return;
  const perField = new Map<string, number>();
  for (const pair of text.split('&')) {
    const field = formField(pair);
    perField.set(field, (perField.get(field) ?? 0) + 1);
  }
  const [field, n] = [...perField].sort((a, b) => b[1] - a[1])[0]!;
  throw errors.validation([
    { field: field || '(body)', message: `${field || 'the form'} sends ${n} form fields; a form may send at most ${max} in all` },
  ]);
}

/** Counts the values of a parsed JSON body (objects, lists and scalars) and its depth, stopping as soon as either
 * is over its bound: the recursion never goes deeper than MAX_JSON_DEPTH + 1, and nothing is allocated per value. */
class JsonWalk {
  values = 0;
  tooDeep = false;
  constructor(private readonly maxValues: number) {}

  /** False once a bound is passed. */
  walk(value: unknown, depth: number): boolean {
    if (++this.values > this.maxValues) return false;
    if (value === null || typeof value !== 'object') return true;
    if (depth > MAX_JSON_DEPTH) {
      this.tooDeep = true;
      return false;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (!this.walk(value[i], depth + 1)) return false;
      return true;
    }
    for (const key in value) if (!this.walk((value as Record<string, unknown>)[key], depth + 1)) return false;
    return true;
  }
}

/** Refuses a JSON body nested too deep (malformed_json) or holding more values than a document can need
 * (validation_failed naming the top-level field that holds the most: a string field sent a list of 16,000 objects cost
 * 50-100 ms of normalizing and validating before it was refused). */
function checkJsonShape(parsed: unknown, maxValues: number): void {
  const walk = new JsonWalk(maxValues);
  if (walk.walk(parsed, 1)) return;
  if (walk.tooDeep) throw errors.malformedJson(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  let field = '(body)';
  let most = 0;
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [key, value] of Object.entries(parsed)) {
      const w = new JsonWalk(Infinity);
      w.walk(value, 2);
      if (w.values > most) [field, most] = [key.slice(0, 60), w.values];
    }
  }
  throw errors.validation([
    { field, message: `${field} holds ${most || 'too many'} values; a document may hold at most ${maxValues} in all` },
  ]);
}

/** The body as an object; `form` reads a checked form (qs by default; read-body.ts passes another to do it in a worker). */
export function parseBody(kind: BodyKind, raw: Buffer, limits: BodyLimits, form: typeof parseForm = parseForm): ParsedBody {
  const text = utf8Text(kind, raw);
  if (text.trim() === '') throw errors.emptyBody();
  if (kind === 'json') {
    let parsed: ParsedBody;
    try {
      parsed = JSON.parse(text) as ParsedBody;
    } catch (err) {
      throw errors.malformedJson((err as Error).message);
    }
    checkJsonShape(parsed, limits.maxValues);
    return parsed;
  }
  checkFormSize(text, limits.maxValues);
  try {
    return form({ text, arrayLimit: limits.maxItems });
  } catch (err) {
    if (err instanceof FormNotUtf8Error) throw formNotUtf8(err.message);
    throw err;
  }
}

/**
 * The body's text. Bytes that are not UTF-8 are refused, with where they are: read as U+FFFD they would print as
 * replacement characters nobody sent (a Latin-1 body declared as such is refused at the edge, http/body-kind.ts). A
 * UTF-8 byte order mark (some Windows clients send one) is not part of the document.
 */
function utf8Text(kind: BodyKind, raw: Buffer): string {
  if (!isUtf8(raw)) {
    const at = firstNonUtf8(raw);
    const before = raw.subarray(Math.max(0, at - 20), at).toString('utf8');
    const reason = `byte 0x${raw[at]!.toString(16).toUpperCase().padStart(2, '0')} at offset ${at}, after "${before}", is not UTF-8`;
    throw kind === 'json' ? errors.malformedJson(reason) : formNotUtf8(reason);
  }
  return raw.toString('utf8').replace(/^\uFEFF/, '');
}

/** The refusal of a form whose bytes, or whose percent escapes, are not UTF-8 (`message` says where). */
export const formNotUtf8 = (message: string) => errors.validation([{ field: '(body)', message: `the body must be UTF-8: ${message}` }]);

/** Where the first byte sequence that is not UTF-8 starts in `bytes` (which isUtf8 refused). */
function firstNonUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const trailing = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    // isUtf8 on the one sequence refuses what the lead byte alone cannot tell: overlong forms, surrogates, a cut end.
    if (trailing < 0 || !isUtf8(bytes.subarray(i, i + trailing + 1))) return i;
    i += trailing + 1;
  }
  return bytes.length - 1;
}

/** How qs reads a form (docs/decisions.md §1): the last of a repeated scalar key wins, lists as long as the item limit stay
 * lists (qs's default turns index 21+ into object keys), no prototypes, percent escapes read as UTF-8 (formText).
 * Also run by form-worker.ts. */
export function parseForm({ text, arrayLimit }: { text: string; arrayLimit: number }): ParsedBody {
  return qs.parse(text, {
    arrayLimit,
    parameterLimit: Infinity,
    depth: 5,
    duplicates: 'last',
    allowPrototypes: false,
    charset: 'utf-8',
    decoder: formText,
  });
}

/** A form key or value whose percent escapes are not UTF-8 (`%FF`): refused as a body of such bytes is. */
export class FormNotUtf8Error extends Error {}

/** A `%` not followed by two hex digits. */
const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/**
 * A form key or value as its text: `+` a space and percent escapes read as UTF-8. Escapes of bytes that are not UTF-8
 * (`from=A%FF`, which qs alone keeps as the text "A%FF") are refused; a `%` not followed by two hex digits stays as
 * sent (a sloppy client's bare `50%`).
 */
function formText(encoded: string): string {
  const text = encoded.replace(/\+/g, ' ');
  if (!text.includes('%')) return text;
  // A stray `%` (the published VAT example sends `fields[tax]=%`) would make decodeURIComponent throw, and a thrown
  // error records a stack trace: such text goes to the byte reading below at once.
  if (!STRAY_PERCENT.test(text)) {
    try {
      return decodeURIComponent(text);
    } catch {
      // Escapes of bytes that are not UTF-8: read as bytes below, and refused there.
    }
  }
  // The escapes read as bytes, the rest (a stray `%` among it) as it is.
  const parts: Buffer[] = [];
  let plain = 0;
  for (let at = text.indexOf('%'); at >= 0; at = text.indexOf('%', at + 1)) {
    if (!/^[0-9A-Fa-f]{2}$/.test(text.slice(at + 1, at + 3))) continue;
    parts.push(Buffer.from(text.slice(plain, at), 'utf8'), Buffer.from([parseInt(text.slice(at + 1, at + 3), 16)]));
    plain = at + 3;
  }
  parts.push(Buffer.from(text.slice(plain), 'utf8'));
  const bytes = Buffer.concat(parts);
  if (!isUtf8(bytes)) throw new FormNotUtf8Error(`the form value "${text.slice(0, 40)}" has percent escapes that are not UTF-8`);
  return bytes.toString('utf8');
}

/** Forms of more fields than this are read by qs in a worker thread (form-thread.ts): qs costs 4-20 µs a field, so a
 * form of 12,450 fields held the event loop 40-160 ms. */
export const FORM_FIELDS_ON_THREAD = 1000;

/** The number of fields of a form body (its `&`-separated pairs). */
export function formFieldCount(raw: Buffer): number {
  let count = 1;
  for (let i = raw.indexOf(0x26); i >= 0; i = raw.indexOf(0x26, i + 1)) count++;
  return count;
}
