// The JSON Schema files in schemas/: loaded, adjusted to the configured limits and compiled once at start-up.
// This is the only module that imports ajv. A missing or broken schema file stops start-up with every problem listed.
// Must not know about HTTP or rendering.
import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Limits } from '../config';
import { isCurrencyCode } from './currency';
import { CODE_LIST_FORMATS, loadCodeLists, type CodeListName, type CodeLists } from './code-lists';
import { isCountryCode } from './country';
import { hasVatPrefix, isIban } from './identifiers';
import { listBoundsOf, type ListBounds } from './list-bounds';
import { DOCUMENT_TYPES, type DocumentType } from './model';
import { addProperties, emptyShape, type NumericShape } from './numeric-fields';
import { fileResolver, inlineRefs } from './schema-inline';
import { orderedThemeIds, themeIdsIn, themePapersIn } from './theme-ids';
import type { DocumentBody } from './schema-types';

export class SchemaLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(`The schemas could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'SchemaLoadError';
  }
}

export interface TypeSchema {
  type: DocumentType;
  /** The type's schema: a body it passes is a DocumentBody (generated from schemas/, see schema-types.ts). */
  validate: ValidateFunction<DocumentBody>;
  /** Top-level fields this type accepts (anything else is ignored, as unknown fields are; fields interface.md says
   * the type does not accept are refused by its schema when sent with a value). */
  accepted: ReadonlySet<string>;
  /** Where the type's lists are and how long each may be (checked before the schema, list-bounds.ts). */
  lists: ListBounds;
}

/** The fields the schemas make numbers, found in them (normalize.ts reads only decimals there). */
export interface NumericFields {
  /** Top-level numbers of any type's body (tax, discounts, shipping, amount_paid, …). */
  document: ReadonlySet<string>;
  /** Numbers of a line item (quantity, unit_cost, payment). */
  item: ReadonlySet<string>;
  /** Every number at any depth (taxes[].rate, items[].allowances[].amount, e_invoice.tax_currency.exchange_rate …). */
  shape: NumericShape;
}

export interface SchemaRegistry {
  get(type: DocumentType): TypeSchema;
  numericFields: NumericFields;
  /** schemas/status-request.json: the body of POST /status (a received French invoice's lifecycle status). */
  statusRequest: ValidateFunction;
  /** schemas/brand.json: the body of PUT /brand (an account's brand, documents/brand.ts). */
  brandRequest: ValidateFunction;
  /** The schema files as loaded (with the configured limits), for the OpenAPI description. */
  raw(): ReadonlyMap<string, Record<string, unknown>>;
  /** The paper a theme prefers (its theme.json), for a request that names none. */
  themePaper(theme: string): 'letter' | 'a4' | undefined;
}

type SchemaNode = Record<string, unknown>;

/** A schema object (not a list, not a value). */
function isNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `node[key]` when it is a schema object, else an empty one (a schema file that lacks it). */
function child(node: unknown, key: string): SchemaNode {
  const value = isNode(node) ? node[key] : undefined;
  return isNode(value) ? value : {};
}

function isLimit(key: unknown, limits: Limits): key is keyof Limits {
  return typeof key === 'string' && Object.hasOwn(limits, key);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Puts the configured bounds into every schema node marked `x-limit`. */
function applyLimits(node: unknown, limits: Limits, themes: readonly string[]): void {
  if (Array.isArray(node)) {
    node.forEach((n) => applyLimits(n, limits, themes));
    return;
  }
  if (!isNode(node)) return;
  const n = node;
  // `x-themes`: one of the themes found in themes/ (render/themes.ts), so that a theme dropped in is offered.
  if (n['x-themes'] === true) n.enum = [...themes];
  const key = n['x-limit'];
  if (isLimit(key, limits)) {
    const value = limits[key];
    if ('maxLength' in n) n.maxLength = value;
    if ('maxItems' in n) n.maxItems = value;
    if ('maximum' in n) n.maximum = value;
    if (typeof n.minimum === 'number' && n.minimum < 0) n.minimum = -value;
  }
  for (const child of Object.values(n)) applyLimits(child, limits, themes);
}

function isEmptyValue(data: unknown): boolean {
  return (
    data === 0 ||
    data === '0' ||
    data === false ||
    (Array.isArray(data) && data.length === 0) ||
    (typeof data === 'object' && data !== null && Object.keys(data).length === 0)
  );
}

function createAjv(codes: CodeLists): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: true,
    strictNumbers: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    verbose: true,
  });
  addFormats(ajv, ['uri', 'email']);
  ajv.addFormat('currency', { type: 'string', validate: (code: string) => isCurrencyCode(code) });
  ajv.addFormat('country', { type: 'string', validate: (code: string) => isCountryCode(code) });
  ajv.addFormat('iban', { type: 'string', validate: (iban: string) => isIban(iban) });
  ajv.addFormat('vat-id', { type: 'string', validate: (vatId: string) => hasVatPrefix(vatId) });
  for (const [list, format] of Object.entries(CODE_LIST_FORMATS)) {
    ajv.addFormat(format, { type: 'string', validate: (code: string) => codes.has(list as CodeListName, code) });
  }
  ajv.addVocabulary(['x-limit', 'x-message', 'x-themes']);
  ajv.addKeyword({
    keyword: 'notAccepted',
    schemaType: 'boolean',
    errors: true,
    validate: function notAccepted(schema: boolean, data: unknown) {
      return !schema || isEmptyValue(data);
    },
  });
  return ajv;
}

/** The schema files of `dir` by name, with the configured limits; a file that cannot be read or parsed is noted in
 * `problems`, a folder that cannot be read stops start-up. */
function readSchemaFiles(dir: string, limits: Limits, themes: readonly string[], problems: string[]): Map<string, SchemaNode> {
  const raw = new Map<string, SchemaNode>();
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch (err) {
    throw new SchemaLoadError([`cannot read the schema folder ${dir}: ${messageOf(err)}`]);
  }
  for (const file of files) {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      if (!isNode(parsed)) throw new Error('a schema file must hold a JSON object');
      applyLimits(parsed, limits, themes);
      raw.set(file.replace(/\.json$/, ''), parsed);
    } catch (err) {
      problems.push(`${file}: ${messageOf(err)}`);
    }
  }
  return raw;
}

/** `codes` when given, else codes/en16931.json beside the schema folder; unreadable, it stops start-up with the
 * problems found so far. */
function codeListsFor(dir: string, codes: CodeLists | undefined, problems: string[]): CodeLists {
  if (codes) return codes;
  try {
    return loadCodeLists(path.join(dir, '..', 'codes', 'en16931.json'));
  } catch (err) {
    throw new SchemaLoadError([...problems, ...((err as { problems?: string[] }).problems ?? [messageOf(err)])]);
  }
}

/** common.json (the definitions every type's schema refers to) added to `ajv`; missing or refused, noted in `problems`. */
function addCommon(ajv: Ajv, raw: ReadonlyMap<string, SchemaNode>, dir: string, problems: string[]): SchemaNode | undefined {
  const common = raw.get('common');
  if (!common) problems.push(`common.json is missing from ${dir}`);
  else {
    try {
      ajv.addSchema(common);
    } catch (err) {
      problems.push(`common.json: ${messageOf(err)}`);
    }
  }
  return common;
}

/** Whether a schema node is a number, following its `$ref` into `definitions` (at most 8 deep). */
function isNumber(node: unknown, definitions: SchemaNode, depth = 0): boolean {
  if (!isNode(node) || depth > 8) return false;
  const ref = node.$ref;
  if (typeof ref === 'string') return isNumber(definitions[ref.slice(ref.lastIndexOf('/') + 1)], definitions, depth + 1);
  return node.type === 'number' || node.type === 'integer';
}

/** The names of the properties in `props` that are numbers. */
function numbersOf(props: SchemaNode, definitions: SchemaNode): string[] {
  return Object.entries(props)
    .filter(([, node]) => isNumber(node, definitions))
    .map(([name]) => name);
}

/** What compiling the document types reads and adds to. */
interface TypeCompilation {
  ajv: Ajv;
  raw: ReadonlyMap<string, SchemaNode>;
  definitions: SchemaNode;
  /** Top-level fields every type accepts (the common document's and labels' properties). */
  shared: readonly string[];
  /** Filled with each type's own numbers. */
  documentNumbers: Set<string>;
  shape: NumericShape;
}

/** One type's schema compiled (inlined), its own numbers added to `documentNumbers` and `shape`. */
function compileType(type: DocumentType, schema: SchemaNode, c: TypeCompilation): TypeSchema {
  // Compiled inlined (schema-inline.ts): errors are then collected in linear time.
  const inlined = inlineRefs(schema, fileResolver(c.raw));
  const validate = c.ajv.compile<DocumentBody>(inlined);
  const own = child(schema, 'properties');
  for (const name of numbersOf(own, c.definitions)) c.documentNumbers.add(name);
  addProperties(c.shape, own, c.definitions);
  const refused = new Set(Object.keys(own).filter((k) => child(own, k).notAccepted === true));
  const accepted = new Set([...c.shared, ...Object.keys(own)].filter((k) => !refused.has(k)));
  return { type, validate, accepted, lists: listBoundsOf(inlined) };
}

/** Every document type's schema compiled; a missing or broken one noted in `problems`. */
function compileTypes(c: TypeCompilation, dir: string, problems: string[]): Map<DocumentType, TypeSchema> {
  const types = new Map<DocumentType, TypeSchema>();
  for (const type of DOCUMENT_TYPES) {
    const schema = c.raw.get(type);
    if (!schema) {
      problems.push(`${type}.json is missing from ${dir} (one schema file per document type)`);
      continue;
    }
    try {
      types.set(type, compileType(type, schema, c));
    } catch (err) {
      problems.push(`${type}.json: ${messageOf(err)}`);
    }
  }
  return types;
}

/** A schema file of another body than a document's, compiled; undefined (and a problem) when it is missing or broken. */
function compileOther(
  ajv: Ajv,
  raw: ReadonlyMap<string, SchemaNode>,
  name: string,
  dir: string,
  problems: string[],
): ValidateFunction | undefined {
  const schema = raw.get(name);
  if (!schema) {
    problems.push(`${path.join(dir, `${name}.json`)} is missing`);
    return undefined;
  }
  try {
    return ajv.compile(schema);
  } catch (err) {
    problems.push(`${name}.json: ${messageOf(err)}`);
    return undefined;
  }
}

/** The themes a request may name and the paper each prefers, as loaded (assets.ts gives render/themes.ts's). */
export interface OfferedThemes {
  ids: readonly string[];
  papers: ReadonlyMap<string, 'letter' | 'a4'>;
}

/**
 * `codes`: the EN 16931 code lists the formats check; by default codes/en16931.json beside the schema folder.
 * `themes`: the themes already loaded, or the folder to list them from (beside the schemas unless given).
 */
export function loadSchemas(
  dir: string,
  limits: Limits,
  codes?: CodeLists,
  offered: OfferedThemes | string = path.join(dir, '..', 'themes'),
): SchemaRegistry {
  const problems: string[] = [];
  // `theme` is one of the themes offered: those loaded, or the folders of the themes folder.
  const themes = typeof offered === 'string' ? themeIdsIn(offered) : orderedThemeIds(offered.ids);
  const papers = typeof offered === 'string' ? themePapersIn(offered, themes) : offered.papers;
  const raw = readSchemaFiles(dir, limits, themes, problems);
  const ajv = createAjv(codeListsFor(dir, codes, problems));
  const common = addCommon(ajv, raw, dir, problems);
  const definitions = child(common, 'definitions');
  const documentDef = child(definitions, 'document');
  const shared = [...Object.keys(child(documentDef, 'properties')), ...Object.keys(child(child(definitions, 'labels'), 'properties'))];
  const documentNumbers = new Set(numbersOf(child(documentDef, 'properties'), definitions));
  const itemNumbers = new Set(numbersOf(child(child(definitions, 'lineItem'), 'properties'), definitions));
  const shape = emptyShape();
  addProperties(shape, child(documentDef, 'properties'), definitions);
  const types = compileTypes({ ajv, raw, definitions, shared, documentNumbers, shape }, dir, problems);
  const statusRequest = compileOther(ajv, raw, 'status-request', dir, problems);
  const brandRequest = compileOther(ajv, raw, 'brand', dir, problems);
  if (problems.length > 0 || !statusRequest || !brandRequest) throw new SchemaLoadError(problems);
  return {
    get(type) {
      const schema = types.get(type);
      if (!schema) throw new Error(`no schema for ${type}`);
      return schema;
    },
    numericFields: { document: documentNumbers, item: itemNumbers, shape },
    statusRequest,
    brandRequest,
    raw: () => raw,
    themePaper: (theme) => papers.get(theme),
  };
}

export type { ErrorObject };
