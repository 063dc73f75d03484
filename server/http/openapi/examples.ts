// The request examples of the OpenAPI description: the documents in examples/*.json (one per type, the same files the
// docs and the studio show; read once at start-up by http-assets.ts) as JSON, and the invoice and POST /batch's two
// documents as form fields in bracket notation. Reads no file; must not invent documents of its own, so the
// description shows what the service is tested with.
import type { Node } from './schemas';

/** A JSON value as the form fields qs reads back into it: `items[0][name]`, every value a string. */
export function toFormFields(value: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (value === null || value === undefined) return out;
  if (Array.isArray(value)) value.forEach((v, i) => toFormFields(v, `${prefix}[${i}]`, out));
  else if (typeof value === 'object')
    for (const [k, v] of Object.entries(value as Node)) toFormFields(v, prefix ? `${prefix}[${k}]` : k, out);
  else out[prefix] = String(value);
  return out;
}

/** `examples` of a media type: one entry per document type among `types` that has an example file. */
export function mediaExamples(examples: Map<string, Node>, types: readonly string[], form = false): Node {
  const out: Node = {};
  for (const type of types) {
    const doc = examples.get(type);
    if (!doc) continue;
    if (form && type !== 'invoice') continue;
    out[type] = {
      summary: form ? 'examples/invoice.json as form fields' : `examples/${type}.json`,
      value: form ? toFormFields(doc) : doc,
    };
  }
  return out;
}
