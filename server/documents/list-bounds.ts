// The lists of a document checked against their bounds before any of their entries is looked at (a body of 50,000
// one-letter line items took 28 s of the event loop to be refused, an error per entry).
// The bounds (maxItems) are read from the compiled, inlined schema of each type, so they follow the schema files and
// the configured limits. A list over its bound is reported alone, without validating its entries.
// Must not judge anything but list lengths: the schema does the rest, once the lists are known to be bounded.
import type { FieldProblem } from '../errors';

type SchemaNode = Record<string, unknown>;

/** Where a type's lists are, and how long each may be. */
export interface ListBounds {
  maxItems?: number;
  /** What each entry of a list may hold. */
  entries?: ListBounds;
  /** The members of an object that hold lists (at any depth). */
  members: Map<string, ListBounds>;
}

function isNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function empty(): ListBounds {
  return { members: new Map() };
}

/** Whether `b` bounds anything (a branch without lists is not kept). */
function bounds(b: ListBounds): boolean {
  return b.maxItems !== undefined || b.entries !== undefined || b.members.size > 0;
}

/** The stricter of two bounds on the same place (both apply: they come from one schema or its allOf). */
function merge(into: ListBounds, from: ListBounds): void {
  if (from.maxItems !== undefined) into.maxItems = Math.min(into.maxItems ?? Infinity, from.maxItems);
  if (from.entries) {
    into.entries ??= empty();
    merge(into.entries, from.entries);
  }
  for (const [name, child] of from.members) {
    const mine = into.members.get(name);
    if (mine) merge(mine, child);
    else into.members.set(name, child);
  }
}

/** The list bounds an inlined schema sets unconditionally (its own keywords and its allOf; a bound inside
 * anyOf, oneOf or if/then applies only sometimes and is left to the schema). */
export function listBoundsOf(schema: unknown): ListBounds {
  const out = empty();
  if (!isNode(schema)) return out;
  if (typeof schema.maxItems === 'number') out.maxItems = schema.maxItems;
  if (isNode(schema.items)) {
    const entries = listBoundsOf(schema.items);
    if (bounds(entries)) out.entries = entries;
  }
  if (isNode(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      const b = listBoundsOf(child);
      if (bounds(b)) out.members.set(name, b);
    }
  }
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) merge(out, listBoundsOf(part));
  return out;
}

/** `items[3].name` style paths, as validate.ts names fields. */
function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * Every list of `doc` longer than its bound (at most `max` of them). Walks only the places the bounds name, and
 * never the entries of a list over its bound: the cost is the size of the bounded part of the document.
 */
export function listBoundProblems(bounds: ListBounds, doc: unknown, max: number): FieldProblem[] {
  const out: FieldProblem[] = [];
  const walk = (b: ListBounds, value: unknown, path: string): void => {
    if (out.length >= max) return;
    if (Array.isArray(value)) {
      if (b.maxItems !== undefined && value.length > b.maxItems) {
        const what = path === 'items' ? 'line items' : 'entries';
        out.push({ field: path, message: `${path} must have at most ${b.maxItems} ${what} (it has ${value.length})` });
        return;
      }
      if (b.entries) for (let i = 0; i < value.length && out.length < max; i++) walk(b.entries, value[i], join(path, i));
      return;
    }
    if (isNode(value)) {
      for (const [name, child] of b.members) if (Object.hasOwn(value, name)) walk(child, value[name], join(path, name));
    }
  };
  walk(bounds, doc, '');
  return out;
}
