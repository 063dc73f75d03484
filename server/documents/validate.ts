// Turns a parsed request body into a DocumentRequest, or a validation_failed that names every bad field (docs/decisions.md §1).
// Reads the type, normalizes, validates with the type's compiled schema, and keeps only the fields the type accepts.
// Must not compute money or format anything.
import { errors, MAX_DETAILS, type FieldProblem } from '../errors';
import { listBoundProblems } from './list-bounds';
import { DOCUMENT_TYPES, LABEL_KEYS, isDocumentType, type DocumentRequest, type DocumentType } from './model';
import { BLANK, normalizeRequest } from './normalize';
import { markProblems, stampOf } from './marks';
import { DEFAULT_THEME } from './theme-ids';
import type { ParsedBody } from './parse-body';
import type { ErrorObject, SchemaRegistry } from './schema-registry';
import type { DocumentBody } from './schema-types';

/** What a well-formed value looks like, for pattern failures. */
const PATTERN_HINTS: Record<string, string> = {
  'e_invoice.party.vat_id': 'must be a VAT identifier with its country prefix, e.g. BE0123456749',
  'e_invoice.tax_exemption_reason_code': 'must be a VATEX code such as VATEX-EU-132',
  'e_invoice.payment_means.code': 'must be a UNCL4461 payment means code such as 30 or 58',
  'e_invoice.payment_means.iban': 'must be an IBAN such as BE71096123456769',
  'e_invoice.payment_means.bic': 'must be a BIC such as GKCCBEBB, or a clearing code of letters and digits',
  footer: 'must have at most 6 lines of at most 150 characters each',
  accent_color: 'must be a colour #rrggbb',
  text_color: 'must be a colour #rrggbb',
  'stamp.text': 'must be words on one line',
};

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  string: 'text',
  object: 'an object',
  array: 'a list',
  boolean: 'true or false',
  integer: 'a whole number',
};

/** `/items/3/quantity` → `items[3].quantity` */
function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1);
  if (child !== undefined) parts.push(child);
  let out = '';
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out || '(body)';
}

type Params = Record<string, unknown>;
type SchemaNode = Record<string, unknown> | undefined;

/** A text that is empty or does not match its pattern (minLength, pattern). */
function textProblem(keyword: string, field: string, p: Params): FieldProblem {
  // requiredText: at least one character that is not white space.
  if ((keyword === 'pattern' && p.pattern === '\\S') || (keyword === 'minLength' && p.limit === 1)) {
    return { field, message: `${field} must not be empty` };
  }
  if (keyword === 'pattern' && PATTERN_HINTS[field.replace(/^e_invoice\.(seller|buyer)\./, 'e_invoice.party.')]) {
    return { field, message: `${field} ${PATTERN_HINTS[field.replace(/^e_invoice\.(seller|buyer)\./, 'e_invoice.party.')]}` };
  }
  return { field, message: `${field} has an invalid format` };
}

/** A text, list or number beyond its bound (maxLength, minItems, maxItems, minimum, maximum). */
function boundProblem(err: ErrorObject, field: string, p: Params): FieldProblem {
  switch (err.keyword) {
    case 'maxLength':
      return { field, message: `${field} must be at most ${String(p.limit)} characters` };
    case 'minItems':
      if (field === 'items') return { field, message: 'items must contain at least one line item' };
      return { field, message: `${field} must have at least ${String(p.limit)} entries` };
    case 'maxItems':
      return { field, message: `${field} must have at most ${String(p.limit)} ${field === 'items' ? 'line items' : 'entries'}` };
    case 'minimum':
      if (p.limit === 0) return { field, message: `${field} must not be negative` };
      return { field, message: `${field} must be at least ${String(p.limit)}` };
    default: // maximum
      if (err.schemaPath.includes('/then/')) {
        return { field, message: `${field} must be at most 100 when fields.${field} is "%" (a percent rate)` };
      }
      return { field, message: `${field} must be at most ${String(p.limit)}` };
  }
}

/** A value outside its list (enum). */
function enumProblem(field: string, p: Params, schema: SchemaNode): FieldProblem {
  // A long code list says what it is rather than listing every code.
  if (typeof schema?.['x-message'] === 'string') return { field, message: `${field} ${schema['x-message']}` };
  return {
    field,
    message: `${field} must be one of ${(p.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(', ')}`,
  };
}

/** A string not in its format (format: code lists, currency, URL, country, IBAN, VAT id, e-mail). */
function formatProblem(field: string, p: Params, schema: SchemaNode): FieldProblem {
  // A code list says which list the code must come from (schemas' x-message).
  if (typeof schema?.['x-message'] === 'string') return { field, message: `${field} ${schema['x-message']}` };
  if (p.format === 'currency') return { field, message: `${field} must be an ISO 4217 currency code such as USD, EUR or JPY` };
  if (p.format === 'uri') return { field, message: `${field} must be an absolute URL` };
  if (p.format === 'country') return { field, message: `${field} must be an ISO 3166 country code such as BE, DE or US` };
  if (p.format === 'iban') return { field, message: `${field} is not a valid IBAN: its check digits do not match (ISO 13616)` };
  if (p.format === 'vat-id')
    return { field, message: `${field} must start with its country's code (BE, DE, …; EL for Greece), EN 16931 BR-CO-09` };
  if (p.format === 'email') return { field, message: `${field} must be an e-mail address` };
  return { field, message: `${field} must be a valid ${String(p.format)}` };
}

/** One schema error as the problem a client reads; undefined for errors that only sum up others (if, allOf). */
function describe(err: ErrorObject, type: DocumentType): FieldProblem | undefined {
  const p = err.params as Params;
  const field = fieldPath(err.instancePath);
  const schema = err.parentSchema as SchemaNode;
  switch (err.keyword) {
    case 'required': {
      const missing = fieldPath(err.instancePath, String(p.missingProperty));
      if (missing === 'items') return { field: missing, message: 'items is required: send at least one line item' };
      return { field: missing, message: `${missing} is required` };
    }
    case 'additionalProperties': {
      const extra = fieldPath(err.instancePath, String(p.additionalProperty));
      return { field: extra, message: `${extra} is not a field here` };
    }
    case 'type': {
      const want = String(p.type)
        .split(',')
        .map((t) => TYPE_WORDS[t] ?? t)
        .join(' or ');
      return { field, message: `${field} must be ${want}` };
    }
    case 'minLength':
    case 'pattern':
      return textProblem(err.keyword, field, p);
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minimum':
    case 'maximum':
      return boundProblem(err, field, p);
    case 'enum':
      return enumProblem(field, p, schema);
    case 'const':
      return { field, message: `${field} must be "${String(p.allowedValue)}"` };
    case 'format':
      return formatProblem(field, p, schema);
    case 'notAccepted':
      return { field, message: `${field} is not accepted for type ${type}` };
    case 'anyOf': {
      const hint = schema?.['x-message'];
      return { field, message: `${field} ${typeof hint === 'string' ? hint : 'is not valid'}` };
    }
    case 'if':
    case 'allOf':
      return undefined;
    default:
      return { field, message: `${field} ${err.message ?? 'is not valid'}` };
  }
}

/** Characters XML 1.0 cannot carry (C0 controls but tab, LF, CR; U+FFFE, U+FFFF; unpaired surrogates). They would
 * make the e-invoice unparsable, and they print as nothing: refused in every text field, named, before rendering. */
const XML_ILLEGAL =
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every string field of the accepted members of `doc` that holds an XML-illegal character. */
function illegalCharacterProblems(doc: Record<string, unknown>, accepted: ReadonlySet<string>): FieldProblem[] {
  const out: FieldProblem[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (XML_ILLEGAL.test(value)) {
        out.push({
          field: path,
          message: `${path} contains a control character (U+0000 to U+001F other than tab, line feed and carriage return, or U+FFFE/U+FFFF, or half a surrogate pair)`,
        });
      }
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
  };
  for (const [key, value] of Object.entries(doc)) if (key === 'type' || key === 'fields' || accepted.has(key)) walk(value, key);
  return out;
}

/**
 * The problems ajv found, in words: missing fields first (what a client most often gets wrong), at most `max` in
 * all. Errors past what can be listed are counted, not described (1,000 bad lines make 11,000 errors).
 */
export function toProblems(errs: ErrorObject[], type: DocumentType, max: number): FieldProblem[] {
  // anyOf reports each failed branch and then itself; keep only the anyOf summary. Looked up by the instance path
  // (a list of 1,000 entries with an anyOf each must not compare every error with every anyOf).
  const anyOfs = new Map<string, string[]>();
  for (const e of errs) if (e.keyword === 'anyOf') anyOfs.set(e.instancePath, [...(anyOfs.get(e.instancePath) ?? []), `${e.schemaPath}/`]);
  const seen = new Set<string>();
  const required: FieldProblem[] = [];
  const other: FieldProblem[] = [];
  for (const err of errs) {
    const list = err.keyword === 'required' ? required : other;
    if (list.length >= max) continue;
    if (anyOfs.get(err.instancePath)?.some((prefix) => err.schemaPath.startsWith(prefix))) continue;
    const problem = describe(err, type);
    if (!problem) continue;
    const key = `${problem.field}|${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    list.push(problem);
  }
  return [...required, ...other].slice(0, max);
}

/** Throws validation_failed naming every list of `body` over its type's bound (the type as normalize.ts will read it). */
function refuseLongLists(registry: SchemaRegistry, body: Record<string, unknown>): void {
  const type = typeof body.type === 'string' ? body.type.trim().toLowerCase() : 'invoice';
  if (!isDocumentType(type)) return;
  const tooLong = listBoundProblems(registry.get(type).lists, body, MAX_DETAILS);
  if (tooLong.length > 0) throw errors.validation(tooLong);
}

export function validateDocument(registry: SchemaRegistry, body: ParsedBody): DocumentRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.notAnObject();
  // A list over its bound is refused before anything copies or validates its entries (list-bounds.ts): here as sent,
  // and below once more after normalization has made lists of the form's index-keyed objects.
  refuseLongLists(registry, body as Record<string, unknown>);
  const doc = normalizeRequest(body as Record<string, unknown>, registry.numericFields);
  const rawType = doc.type ?? 'invoice';
  if (!isDocumentType(rawType)) {
    throw errors.validation([{ field: 'type', message: `type must be one of ${DOCUMENT_TYPES.join(', ')}` }]);
  }
  const schema = registry.get(rawType);
  refuseLongLists(registry, doc);
  const illegal = [...illegalCharacterProblems(doc, schema.accepted), ...inexactNumberProblems(doc)];
  if (!schema.validate(doc) || illegal.length > 0) {
    throw errors.validation([...toProblems(schema.validate.errors ?? [], rawType, MAX_DETAILS), ...illegal].slice(0, MAX_DETAILS));
  }
  const made = toDocument(doc, rawType, schema.accepted, registry.themePaper);
  const marks = markProblems(made);
  if (marks.length > 0) throw errors.validation(marks);
  return made;
}

/**
 * A document number sent as a JSON number that the number no longer holds as sent: an integer beyond 2^53
 * (12345678901234567890 arrives as 12345678901234567000) or one JSON reads with an exponent (1e21). The schema makes
 * `number` text, and would print those digits as the document's number: refused, asking for the number as a string.
 * Read before the schema, whose type coercion turns the number into text.
 */
function inexactNumberProblems(doc: Record<string, unknown>): FieldProblem[] {
  const n = doc.number;
  if (typeof n !== 'number') return [];
  if (Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && !/e/i.test(String(n))) return [];
  return [
    {
      field: 'number',
      message: `number ${String(n)} is not the number as sent: a JSON number keeps integers up to 9007199254740991 exactly; send the number as a string`,
    },
  ];
}

/** The body of POST /status checked against schemas/status-request.json; every problem thrown at once. */
export function validateStatusRequest(registry: SchemaRegistry, body: ParsedBody): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.notAnObject();
  const request = withoutBlanks(body) as Record<string, unknown>;
  const validate = registry.statusRequest;
  const illegal = illegalCharacterProblems(request, new Set(Object.keys(request)));
  if (!validate(request) || illegal.length > 0) {
    throw errors.validation([...toProblems(validate.errors ?? [], 'invoice', MAX_DETAILS), ...illegal].slice(0, MAX_DETAILS));
  }
  return request;
}

/**
 * `value` without blank strings, at any depth: a blank optional field counts as absent, as an empty one does
 * (docs/decisions.md §1). Required text cannot be blank here: the schema refused it ("from must not be empty"). A blank
 * number reached the e-invoice as an empty cbc:ID and failed its XSD with an internal error.
 */
function withoutBlanks<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => withoutBlanks(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!(typeof v === 'string' && BLANK.test(v))) out[key] = withoutBlanks(v);
  return out as T;
}

/**
 * The document number, or undefined for zero: a null or zero value prints no line (docs/api.md), and `number` is
 * "string or number", so 0 is zero whether it arrives as a JSON number or as text (a form sends only text). The
 * schema has made it text by now. Other spellings ("00", "0.0") are identifiers as sent and print as they are.
 */
function numberShown(number: string | undefined): string | undefined {
  return number?.trim() === '0' ? undefined : number;
}

/** The validated body with its defaults, keeping only the fields its type accepts. Blank labels are kept (a label
 * of one space prints no label); any other blank field is dropped. */
function toDocument(
  body: DocumentBody,
  type: DocumentType,
  accepted: ReadonlySet<string>,
  themePaper: (theme: string) => DocumentRequest['page_size'] | undefined,
): DocumentRequest {
  const doc = withoutBlanks(body);
  const pick = <K extends keyof DocumentBody>(key: K): DocumentBody[K] | undefined => (accepted.has(key) ? doc[key] : undefined);
  const theme = pick('theme') ?? DEFAULT_THEME;
  const labels: DocumentRequest['labels'] = {};
  for (const key of LABEL_KEYS) {
    const v = accepted.has(key) ? body[key] : undefined;
    if (v !== undefined) labels[key] = v;
  }
  return {
    type,
    theme,
    // The request's paper, else the one its theme prefers, else letter (the reference API's).
    page_size: pick('page_size') ?? themePaper(theme) ?? 'letter',
    logo: pick('logo'),
    logo_alt: pick('logo_alt'),
    stamp: stampOf(pick('stamp')),
    footer: pick('footer'),
    prices_include_tax: pick('prices_include_tax') ?? false,
    payment_code: pick('payment_code'),
    from: doc.from,
    to: doc.to,
    ship_to: pick('ship_to'),
    number: numberShown(pick('number')),
    currency: pick('currency') ?? 'USD',
    custom_fields: pick('custom_fields') ?? [],
    date: pick('date'),
    items: doc.items,
    fields: {
      tax: doc.fields?.tax ?? '%',
      discounts: doc.fields?.discounts ?? false,
      shipping: doc.fields?.shipping ?? false,
      line_numbers: doc.fields?.line_numbers ?? false,
    },
    discounts: pick('discounts'),
    tax: pick('tax'),
    shipping: pick('shipping'),
    notes: pick('notes'),
    terms: pick('terms'),
    purchase_order: pick('purchase_order'),
    payment_terms: pick('payment_terms'),
    due_date: pick('due_date'),
    amount_paid: pick('amount_paid'),
    amount_refunded: pick('amount_refunded'),
    payment_methods: pick('payment_methods') ?? [],
    delivery_date: pick('delivery_date'),
    tax_point_date: pick('tax_point_date'),
    invoice_period: pick('invoice_period'),
    preceding_invoices: pick('preceding_invoices') ?? [],
    taxes: pick('taxes'),
    labels,
    e_invoice: pick('e_invoice'),
  };
}
