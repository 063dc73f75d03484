// Request clean-up that JSON Schema cannot express, run before validation (docs/decisions.md §1): empty strings and
// nulls count as absent, the legacy title alias, `fields.*` strings, currency case, URLs of non-ASCII letters in their
// ASCII form, and numeric strings read as decimals only in the fields the schemas make numbers, at any depth
// (found in them, numeric-fields.ts).
// Must not reject anything: every rejection comes from the schemas, so that all problems are reported together.
import type { NumericShape } from './numeric-fields';
import type { NumericFields } from './schema-registry';

type Json = unknown;
type JsonObject = Record<string, Json>;

/** A JSON object (not a list, not null). */
function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Returns a copy of `value` without null or empty-string members, at any depth (bodies are at most
 * MAX_JSON_DEPTH deep, parse-body.ts). A `__proto__` member is dropped: assigned to a plain object it would become
 * its prototype, and its fields would be read as the document's.
 */
function dropAbsent(value: Json): Json {
  // Vertical tab and form feed (Word's manual line and page breaks) are line breaks; XML could not carry them.
  if (typeof value === 'string') return /[\v\f]/.test(value) ? value.replace(/[\v\f]/g, '\n') : value;
  if (Array.isArray(value)) {
    return value.map((v) => dropAbsent(v));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === null || v === '' || v === undefined || key === '__proto__') continue;
      out[key] = dropAbsent(v);
    }
    return out;
  }
  return value;
}

/** Text of white space only (spaces, line breaks, no-break spaces, …): absent wherever it is sent (validate.ts drops
 * it from every field but the labels after the schema; a numeric field's is dropped here, before it). */
export const BLANK = /^\s*$/;

/** A number sent as text is read as a decimal, nothing else (no 0x10, 0b11, 0o17, Infinity). */
const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A numeric field sent as a string that is not a decimal becomes a value the schema refuses as not a number (ajv
 * would otherwise coerce "0x10" to 16); one of white space only is absent, as blank text is in every other field (a
 * form's padded empty input). One too large for a double ("1e400" as text, or 1e400 in JSON, which
 * JSON.parse reads as Infinity) becomes the largest double of its sign, which the schema's bounds refuse by name:
 * ajv checks no bound on an infinite number, and a string it coerces to one passes its type check. */
function decimalsOnly(record: JsonObject, numeric: ReadonlySet<string>): void {
  for (const key of numeric) {
    const v = record[key];
    if (typeof v === 'string' && BLANK.test(v)) delete record[key];
    else if (typeof v === 'string' && !DECIMAL.test(v)) record[key] = { notADecimal: true };
    else if ((typeof v === 'string' || typeof v === 'number') && Number.isFinite(Number(v)) === false)
      record[key] = Math.sign(Number(v)) * Number.MAX_VALUE;
  }
}

/** decimalsOnly in `value` and every object (or list entry) below it that the shape has numbers in. */
function decimalsBelow(value: Json, shape: NumericShape): void {
  if (Array.isArray(value)) {
    for (const v of value) decimalsBelow(v, shape);
    return;
  }
  if (!isObject(value)) return;
  decimalsOnly(value, shape.numbers);
  for (const [key, child] of shape.children) if (Object.hasOwn(value, key)) decimalsBelow(value[key], child);
}

const TOGGLE_STRINGS: Record<string, boolean | '%'> = { true: true, false: false, '%': '%' };

/** The lists a form may send as objects keyed by index, made lists again (in index order). */
function indexedObjectsAsLists(doc: JsonObject): void {
  // A form body of a single line item may arrive as an object keyed by index; qs makes arrays
  // only up to its arrayLimit, so a very large index turns the list into an object.
  for (const listKey of ['items', 'custom_fields', 'payment_methods']) {
    const list = doc[listKey];
    if (isObject(list)) {
      const keys = Object.keys(list);
      if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
        doc[listKey] = keys.sort((a, b) => Number(a) - Number(b)).map((k) => list[k]);
      }
    }
  }
}

/** `fields.tax`, `.discounts` and `.shipping` sent as the strings "true", "false" or "%" read as their values. */
function fieldToggles(doc: JsonObject): void {
  const f = doc.fields;
  if (isObject(f)) {
    for (const key of ['tax', 'discounts', 'shipping']) {
      const v = f[key];
      // Own keys only: `constructor` or `__proto__` are not toggles.
      if (typeof v === 'string' && Object.hasOwn(TOGGLE_STRINGS, v.trim().toLowerCase())) {
        f[key] = TOGGLE_STRINGS[v.trim().toLowerCase()];
      }
    }
  }
}

/** The e-invoice's codes in their written form: countries, VAT ids, the tax category, IBANs and BICs in capitals
 * without spaces (VAT ids without dots or dashes), a numeric payment means code as text. */
function eInvoiceCodes(doc: JsonObject): void {
  const eInvoice = doc.e_invoice;
  if (!isObject(eInvoice)) return;
  for (const role of ['seller', 'buyer']) {
    const party = eInvoice[role];
    if (!isObject(party)) continue;
    if (typeof party.country === 'string') party.country = party.country.trim().toUpperCase();
    if (typeof party.vat_id === 'string') party.vat_id = party.vat_id.replace(/[\s.-]/g, '').toUpperCase();
  }
  if (typeof eInvoice.tax_category === 'string') eInvoice.tax_category = eInvoice.tax_category.trim().toUpperCase();
  const means = eInvoice.payment_means;
  if (isObject(means)) {
    if (typeof means.code === 'number') means.code = String(means.code);
    const accounts = Array.isArray(means.additional_accounts) ? means.additional_accounts.filter(isObject) : [];
    for (const account of [means, ...accounts]) {
      if (typeof account.iban === 'string') account.iban = account.iban.replace(/\s/g, '').toUpperCase();
      if (typeof account.bic === 'string') account.bic = account.bic.replace(/\s/g, '').toUpperCase();
    }
  }
}

/** A URL of letters outside ASCII (`https://bücher.de/pay`, an IRI) as the same address in ASCII
 * (`https://xn--bcher-kva.de/pay`: the host in punycode, the rest percent-encoded, as a browser sends it), so that the
 * schema's URL check, the printed link and a QR code read it alike; one that is not an absolute URL is left for the
 * schema to refuse. */
function asciiUrl(value: Json): Json {
  if (typeof value !== 'string' || !/[^\p{ASCII}]/u.test(value)) return value;
  try {
    return new URL(value).href;
  } catch {
    return value;
  }
}

/** The URLs the schemas check as such, in ASCII: the payment methods' (a payment link's QR code among them) and the
 * e-invoice attachments' (BT-124). */
function asciiUrls(doc: JsonObject): void {
  const eInvoice = isObject(doc.e_invoice) ? doc.e_invoice : {};
  for (const list of [doc.payment_methods, eInvoice.attachments]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) if (isObject(entry) && 'url' in entry) entry.url = asciiUrl(entry.url);
  }
}

/** A copy of `body` cleaned up for validation (this module's header says how); never rejects anything. */
export function normalizeRequest(body: JsonObject, numeric: NumericFields): JsonObject {
  const cleaned = dropAbsent(body);
  const doc: JsonObject = isObject(cleaned) ? cleaned : {};
  indexedObjectsAsLists(doc);
  decimalsBelow(doc, numeric.shape);

  // A custom field with neither name nor value (an unused row of a client's form) prints nothing: drop it.
  if (Array.isArray(doc.custom_fields)) {
    doc.custom_fields = doc.custom_fields.filter((cf) => !(isObject(cf) && Object.keys(cf).length === 0));
  }

  if (doc.invoice_number_title !== undefined && doc.number_title === undefined) {
    doc.number_title = doc.invoice_number_title;
  }
  delete doc.invoice_number_title;

  fieldToggles(doc);
  asciiUrls(doc);
  eInvoiceCodes(doc);
  if (typeof doc.currency === 'string') doc.currency = doc.currency.trim().toUpperCase();
  if (typeof doc.type === 'string') doc.type = doc.type.trim().toLowerCase();
  return doc;
}
