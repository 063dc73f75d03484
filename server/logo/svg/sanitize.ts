// An SVG logo reduced to a safe subset, still vector (a security review found that a regex over the text let
// through a prefixed <s:image>, an <image> made by a DTD entity, and a <use> fan-out (billion laughs by nested <use>
// of groups of <use>), each a renderer of 1.2-1.5 GB). So the SVG is parsed (tree.ts: saxes, namespaces resolved, no
// DTD, no entity but XML's five) and written again here from what it kept, as the allowlists (allowlists.ts) say:
// - elements by namespace URI and local name: only the shapes, text, gradients, clip paths, masks, symbols, <use> and
//   <style> of ALLOWED_ELEMENTS, whatever their prefix; any other SVG element (image, feImage, foreignObject, script,
//   filter, pattern, animation, …) refuses the SVG; elements of other namespaces (editor metadata) are dropped;
// - attributes by an allowlist (no on*, no namespaced ones but xlink:href and xml:space); href only `#id`; url() only
//   `url(#id)` in attributes, style attributes and <style> text; no at-rule (@import), no CSS escape, no image-set()
//   (css.ts);
// - budgets: elements, nesting depth, text, and the elements that <use> (and clip-path / mask references) make a
//   renderer draw again (the sum of their targets' subtree sizes); a <use> inside a <use> target is refused;
// - every text and attribute value escaped on the way out; element and attribute names are the allowlists' constants.
// A DTD, an entity, a parse error or a budget exceeded refuses the whole SVG, with a reason made of this folder's
// words only (refusal.ts; it goes to the log: no client text).
// Must not know about documents or fetching.
import { SVG_NS } from './allowlists';
import { cssSheet } from './css';
import { Refusal } from './refusal';
import { checkReferences, parse, type Node } from './tree';

export type SvgResult = { ok: true; svg: string } | { ok: false; reason: string };

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

function serialize(node: Node, refs: string[], top: boolean): string {
  const attrs = node.attrs.map(([n, v]) => ` ${n}="${escapeAttr(v)}"`).join('');
  const ns = top ? ` xmlns="${SVG_NS}"` : '';
  const inner =
    node.name === 'style'
      ? escapeText(cssSheet(node.children.filter((c) => typeof c === 'string').join(''), refs))
      : node.children.map((c) => (typeof c === 'string' ? escapeText(c) : serialize(c, refs, false))).join('');
  return inner === '' ? `<${node.name}${ns}${attrs}/>` : `<${node.name}${ns}${attrs}>${inner}</${node.name}>`;
}

/** An absolute length (`120`, `120px`, `3.5cm`): a percentage or `auto` is not one. */
const ABSOLUTE = /^\s*[\d.]+(px|pt|pc|mm|cm|in|em|ex)?\s*$/;

/**
 * Gives the root the size of its viewBox when it has no absolute width and height: an `<img>` of an SVG with only
 * a viewBox (as most exported logos are) has no intrinsic size, and the page's logo box then drew it 0 pixels wide.
 */
function sizeFromViewBox(root: Node): void {
  const attr = (name: string) => root.attrs.find(([n]) => n === name)?.[1];
  const width = attr('width');
  const height = attr('height');
  if (width !== undefined && height !== undefined && ABSOLUTE.test(width) && ABSOLUTE.test(height)) return;
  const box = (attr('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box.length !== 4 || !box.every(Number.isFinite) || box[2]! <= 0 || box[3]! <= 0) return;
  root.attrs = root.attrs.filter(([n]) => n !== 'width' && n !== 'height');
  root.attrs.push(['width', String(box[2])], ['height', String(box[3])]);
}

/**
 * The SVG `source` reduced to the safe subset and written again, or the reason it is refused (this module's words:
 * `svg_refused: element image`, `svg_refused: use budget`, …). Never throws.
 */
export function sanitizeSvg(source: string): SvgResult {
  try {
    const root = parse(source.replace(/^\uFEFF/, ''));
    sizeFromViewBox(root);
    // <style> sheets are checked (and their url(#id) gathered) as they are written, before references are counted.
    const sheetRefs: string[] = [];
    const svg = serialize(root, sheetRefs, true);
    checkReferences(root, sheetRefs);
    return { ok: true, svg };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.message };
    return { ok: false, reason: 'svg_refused: not well formed' };
  }
}
