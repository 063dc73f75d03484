// A schema with every `$ref` replaced by a copy of what it points to, for compiling (schema-registry.ts).
// Why: ajv collects the errors of a referenced schema with `errors.concat(…)`, copying every error found so far at
// each call, so a list of 20,000 bad entries cost 4 s (the square of the error count). Inlined, each error is
// pushed once. The schema files keep their $refs; only the compiled copy is inlined.
// Must not change what a schema accepts; the schemas are not recursive (a cycle is reported, not followed).

type SchemaNode = Record<string, unknown>;

function isNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Finds the node a `$ref` names: `#/definitions/x` in `self`, or `file.json#/definitions/x` among `files`. */
export type RefResolver = (ref: string, self: SchemaNode) => { node: SchemaNode; file: SchemaNode } | undefined;

export function fileResolver(files: ReadonlyMap<string, SchemaNode>): RefResolver {
  return (ref, self) => {
    const [file, pointer = ''] = ref.split('#');
    const doc = file ? files.get(file.replace(/\.json$/, '')) : self;
    if (!doc) return undefined;
    let node: unknown = doc;
    for (const raw of pointer.split('/').filter((p) => p !== '')) {
      const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      node = isNode(node) ? node[part] : undefined;
    }
    return isNode(node) ? { node, file: doc } : undefined;
  };
}

/** A deep copy of `schema` without `$ref` (throws on a ref that does not resolve or that cycles). */
export function inlineRefs(schema: SchemaNode, resolve: RefResolver): SchemaNode {
  const walk = (value: unknown, file: SchemaNode, chain: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, file, chain));
    if (!isNode(value)) return value;
    const ref = value.$ref;
    const out: SchemaNode = {};
    for (const [key, v] of Object.entries(value)) {
      // `definitions` are only there to be referenced; the copy does not need them.
      if (key === '$ref' || key === 'definitions') continue;
      out[key] = walk(v, file, chain);
    }
    if (typeof ref !== 'string') return out;
    if (chain.includes(ref)) throw new Error(`the $ref ${ref} refers to itself (${[...chain, ref].join(' → ')})`);
    const target = resolve(ref, file);
    if (!target) throw new Error(`the $ref ${ref} does not resolve`);
    const inlined = walk(target.node, target.file, [...chain, ref]) as SchemaNode;
    delete inlined.$id;
    // A $ref beside other keywords: both apply (as ajv applies them).
    const siblings = Object.keys(out).filter((k) => k !== 'description' && k !== 'title');
    if (siblings.length === 0) return inlined;
    const allOf = Array.isArray(out.allOf) ? out.allOf : [];
    return { ...out, allOf: [...allOf, inlined] };
  };
  return walk(schema, schema, []) as SchemaNode;
}
