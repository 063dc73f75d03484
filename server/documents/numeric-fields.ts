// Where the schemas make numbers, at any depth (taxes[].rate, items[].allowances[].percent,
// e_invoice.tax_currency.exchange_rate …): a tree of the numeric fields of each object, found by walking the schema's
// properties, list items, `$ref`s and `allOf` / `anyOf` / `oneOf` branches. normalize.ts reads only decimals there.
// Reads schema objects only; must not compile, validate or know any field by name.

type SchemaNode = Record<string, unknown>;

/** The numeric fields of one object, and the shapes of the objects (or of the entries of the lists) below it. */
export interface NumericShape {
  numbers: Set<string>;
  children: Map<string, NumericShape>;
}

function isNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function emptyShape(): NumericShape {
  return { numbers: new Set(), children: new Map() };
}

/** Adds the fields of `properties` (a schema's `properties` object) to `shape`. */
export function addProperties(shape: NumericShape, properties: unknown, definitions: SchemaNode, depth = 0): void {
  if (!isNode(properties) || depth > 12) return;
  for (const [name, node] of Object.entries(properties)) {
    const resolved = resolve(node, definitions);
    if (!resolved) continue;
    if (resolved.type === 'number' || resolved.type === 'integer') {
      shape.numbers.add(name);
      continue;
    }
    const below = emptyShape();
    addObject(below, resolved.type === 'array' ? resolve(resolved.items, definitions) : resolved, definitions, depth + 1);
    if (below.numbers.size > 0 || below.children.size > 0) {
      const existing = shape.children.get(name);
      if (existing) merge(existing, below);
      else shape.children.set(name, below);
    }
  }
}

/** The fields of an object schema: its own properties and those of its branches. */
function addObject(shape: NumericShape, node: SchemaNode | undefined, definitions: SchemaNode, depth: number): void {
  if (!node || depth > 12) return;
  addProperties(shape, node.properties, definitions, depth);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const branches = node[key];
    if (Array.isArray(branches)) for (const b of branches) addObject(shape, resolve(b, definitions), definitions, depth + 1);
  }
}

/** A node with its `$ref` (to `#/definitions/…`) followed; a $ref beside other keywords is followed, keeping them. */
function resolve(node: unknown, definitions: SchemaNode, depth = 0): SchemaNode | undefined {
  if (!isNode(node) || depth > 8) return undefined;
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const target = resolve(definitions[ref.slice(ref.lastIndexOf('/') + 1)], definitions, depth + 1);
  return target ? { ...target, ...node, $ref: undefined } : undefined;
}

function merge(into: NumericShape, from: NumericShape): void {
  for (const n of from.numbers) into.numbers.add(n);
  for (const [k, child] of from.children) {
    const existing = into.children.get(k);
    if (existing) merge(existing, child);
    else into.children.set(k, child);
  }
}
