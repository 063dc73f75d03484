// An SVG logo reduced to a safe subset, still vector (security review issue 24, finding 5). A regex over the text let
// through a prefixed <s:image>, an <image> made by a DTD entity, and a <use> fan-out (billion laughs by nested <use>
// of groups of <use>), each a renderer of 1.2-1.5 GB. So the SVG is parsed (saxes: namespaces resolved, no DTD, no
// entity but XML's five) and written again by this module from what it kept:
// - elements by namespace URI and local name: only the shapes, text, gradients, clip paths, masks, symbols, <use> and
//   <style> of ALLOWED_ELEMENTS, whatever their prefix; any other SVG element (image, feImage, foreignObject, script,
//   filter, pattern, animation, …) refuses the SVG; elements of other namespaces (editor metadata) are dropped;
// - attributes by an allowlist (no on*, no namespaced ones but xlink:href and xml:space); href only `#id`; url() only
//   `url(#id)` in attributes, style attributes and <style> text; no at-rule (@import), no CSS escape, no image-set();
// - budgets: elements, nesting depth, text, and the elements that <use> (and clip-path / mask references) make a
//   renderer draw again (the sum of their targets' subtree sizes); a <use> inside a <use> target is refused;
// - every text and attribute value escaped on the way out; element and attribute names are this module's constants.
// A DTD, an entity, a parse error or a budget exceeded refuses the whole SVG, with a reason made of this module's
// words only (it goes to the log: no client text).
// Must not know about documents or fetching.
import { SaxesParser, type SaxesTagNS } from 'saxes';

export const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Elements in the SVG namespace, at most; each counts once, kept or dropped. */
export const MAX_SVG_ELEMENTS = 4000;
/** Elements a renderer draws again for <use>, clip-path and mask references (sum of their targets' subtree sizes). */
export const MAX_SVG_REFERENCED = 4000;
export const MAX_SVG_DEPTH = 48;
/** Characters of text (<text>, <tspan>, <title>, <desc>) and of CSS (<style>, style attributes). */
export const MAX_SVG_TEXT = 20_000;
export const MAX_SVG_CSS = 50_000;

export const ALLOWED_ELEMENTS: ReadonlySet<string> = new Set([
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'symbol',
  'use',
  'style',
]);

/** SVG elements dropped with their content rather than refusing the SVG (editors write them; nothing is drawn). */
const DROPPED_ELEMENTS: ReadonlySet<string> = new Set(['metadata']);

/** SVG elements named in a refusal reason (this module's words); any other is "element not allowed". */
const NAMED_REFUSALS: ReadonlySet<string> = new Set([
  'image',
  'feImage',
  'foreignObject',
  'script',
  'filter',
  'pattern',
  'animate',
  'animateMotion',
  'animateTransform',
  'set',
  'a',
  'iframe',
  'video',
  'audio',
  'canvas',
  'marker',
  'textPath',
  'switch',
  'view',
  'cursor',
  'font',
]);

/** Elements whose text is kept (all other text, white space between elements, is dropped). */
const TEXT_ELEMENTS: ReadonlySet<string> = new Set(['text', 'tspan', 'title', 'desc', 'style']);

/** Presentation properties: kept as attributes and as declarations of style attributes and <style> rules. */
const PRESENTATION: ReadonlySet<string> = new Set([
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'opacity',
  'color',
  'display',
  'visibility',
  'overflow',
  'stop-color',
  'stop-opacity',
  'clip-path',
  'clip-rule',
  'mask',
  'vector-effect',
  'paint-order',
  'shape-rendering',
  'text-rendering',
  'color-interpolation',
  'isolation',
  'mix-blend-mode',
  'font',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant',
  'font-stretch',
  'letter-spacing',
  'word-spacing',
  'text-anchor',
  'text-decoration',
  'dominant-baseline',
  'alignment-baseline',
  'baseline-shift',
  'writing-mode',
  'direction',
  'unicode-bidi',
  'transform',
  'transform-origin',
  'transform-box',
]);

/** Other attributes without a namespace that are kept (geometry, gradients, units, text layout). */
const ATTRIBUTES: ReadonlySet<string> = new Set([
  ...PRESENTATION,
  'id',
  'class',
  'style',
  'x',
  'y',
  'width',
  'height',
  'rx',
  'ry',
  'cx',
  'cy',
  'r',
  'x1',
  'y1',
  'x2',
  'y2',
  'fx',
  'fy',
  'fr',
  'd',
  'points',
  'pathLength',
  'viewBox',
  'preserveAspectRatio',
  'offset',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
  'type',
  'media',
  'href',
]);

/** Elements whose href (a local `#id`) is kept. */
const HREF_ELEMENTS: ReadonlySet<string> = new Set(['use', 'linearGradient', 'radialGradient']);

/** CSS functions a value may call; url() only with a local `#id` (checked apart). */
const CSS_FUNCTIONS: ReadonlySet<string> = new Set([
  'url',
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'hwb',
  'lab',
  'lch',
  'oklab',
  'oklch',
  'calc',
  'matrix',
  'translate',
  'translatex',
  'translatey',
  'scale',
  'scalex',
  'scaley',
  'rotate',
  'skew',
  'skewx',
  'skewy',
]);

const LOCAL_REF = /^#[A-Za-z_][\w.:-]*$/;
const LOCAL_URL = /^url\(\s*(["']?)#([A-Za-z_][\w.:-]*)\1\s*\)$/i;
const ID = /^[A-Za-z_][\w.:-]*$/;
const CLASS = /^[\w\s-]*$/;
const SELECTOR = /^[\w\s.#,>+~*:-]+$/;

export type SvgResult = { ok: true; svg: string } | { ok: false; reason: string };

/** The reason of a refusal: `svg_refused: ` and words of this module. */
class Refusal extends Error {}

function refuse(why: string): never {
  throw new Refusal(`svg_refused: ${why}`);
}

interface Node {
  name: string;
  attrs: [string, string][];
  children: (Node | string)[];
  /** The id a <use> draws again. */
  use?: string;
  /** Ids named by url(#id) in clip-path and mask (attributes and style attributes). */
  refs: string[];
}

/** A CSS value, or a refusal: only local url(#id) and the functions of CSS_FUNCTIONS, no escape, no markup. */
function cssValue(value: string, refs: string[]): string {
  if (/[\\<>{};@]|\/\*/.test(value)) refuse('css not allowed');
  for (const m of value.matchAll(/([A-Za-z_-][\w-]*)\s*\(/g)) {
    const fn = m[1]!.toLowerCase();
    if (!CSS_FUNCTIONS.has(fn)) refuse('css function not allowed');
    if (fn === 'url') {
      const close = value.indexOf(')', m.index);
      const url = LOCAL_URL.exec(value.slice(m.index, close + 1).replace(/^url\s*\(/i, 'url('));
      if (!url) refuse('external reference');
      refs.push(url[2]!);
    }
  }
  return value.replace(/\s+/g, ' ').trim();
}

/** Declarations of a style attribute or rule: each checked, unknown properties dropped, rewritten. */
function cssDeclarations(text: string, refs: string[]): string {
  const out: string[] = [];
  for (const decl of text.split(';')) {
    if (decl.trim() === '') continue;
    const colon = decl.indexOf(':');
    if (colon < 0) refuse('css not allowed');
    const property = decl.slice(0, colon).trim().toLowerCase();
    const value = cssValue(decl.slice(colon + 1), property === 'clip-path' || property === 'mask' ? refs : []);
    if (PRESENTATION.has(property) && value !== '') out.push(`${property}:${value}`);
  }
  return out.join(';');
}

function withoutComments(css: string): string {
  const bare = css.replace(/\/\*[\s\S]*?\*\//g, ' ');
  if (bare.includes('/*')) refuse('css not allowed');
  return bare;
}

/** A <style> sheet: rules of simple selectors and checked declarations; an at-rule (@import, @font-face) refuses. */
function cssSheet(text: string, refs: string[]): string {
  const css = withoutComments(text).replace(/<!--|-->/g, ' ');
  if (css.includes('@')) refuse('css at rule');
  const rules: string[] = [];
  const rest = css.replace(/([^{}]*)\{([^{}]*)\}/g, (_all, selector: string, body: string) => {
    const sel = selector.replace(/\s+/g, ' ').trim();
    const decls = cssDeclarations(body, refs);
    if (SELECTOR.test(sel) && sel.length <= 300 && decls) rules.push(`${sel}{${decls}}`);
    return '';
  });
  if (rest.trim() !== '') refuse('css not allowed');
  return rules.join('\n');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** The kept attributes of an element, each value checked; refusals for external references. */
function attributes(local: string, tag: SaxesTagNS, node: Node): void {
  const refs = node.refs;
  for (const attr of Object.values(tag.attributes)) {
    const { uri, value } = attr;
    const name = attr.local;
    if (name === 'href' && (uri === '' || uri === XLINK_NS)) {
      if (!LOCAL_REF.test(value.trim())) refuse('external reference');
      if (HREF_ELEMENTS.has(local) && !node.attrs.some(([n]) => n === 'href')) {
        node.attrs.push(['href', value.trim()]);
        if (local === 'use') node.use = value.trim().slice(1);
      }
      continue;
    }
    if (uri === XML_NS && name === 'space' && (value === 'preserve' || value === 'default')) {
      node.attrs.push(['xml:space', value]);
      continue;
    }
    if (uri !== '' || !ATTRIBUTES.has(name) || name === 'href') continue;
    if (name === 'id') {
      if (ID.test(value)) node.attrs.push(['id', value]);
    } else if (name === 'class') {
      if (CLASS.test(value)) node.attrs.push(['class', value.replace(/\s+/g, ' ').trim()]);
    } else if (name === 'style') {
      const css = cssDeclarations(withoutComments(value), refs);
      if (css) node.attrs.push(['style', css]);
    } else {
      node.attrs.push([name, cssValue(value, name === 'clip-path' || name === 'mask' ? refs : [])]);
    }
  }
}

/** Parses `source` into the kept tree, refusing what must not be drawn. */
function parse(source: string): Node {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: (Node | null)[] = []; // null: inside a dropped element
  let root: Node | undefined;
  let elements = 0;
  let text = 0;
  let css = 0;
  parser.on('doctype', () => refuse('doctype'));
  parser.on('error', () => refuse('not well formed'));
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++elements > MAX_SVG_ELEMENTS) refuse('element budget');
    if (stack.length >= MAX_SVG_DEPTH) refuse('depth budget');
    const parent = stack.length ? stack[stack.length - 1] : undefined;
    const local = tag.local;
    if (parent === undefined && (tag.uri !== SVG_NS || local !== 'svg')) refuse('root is not svg');
    if (tag.uri === SVG_NS && !ALLOWED_ELEMENTS.has(local) && !DROPPED_ELEMENTS.has(local)) {
      refuse(NAMED_REFUSALS.has(local) ? `element ${local}` : 'element not allowed');
    }
    if (parent === null || tag.uri !== SVG_NS || DROPPED_ELEMENTS.has(local)) {
      stack.push(null);
      return;
    }
    const node: Node = { name: local, attrs: [], children: [], refs: [] };
    attributes(local, tag, node);
    if (parent) parent.children.push(node);
    else root = node;
    stack.push(node);
  });
  parser.on('closetag', () => void stack.pop());
  const onText = (t: string) => {
    const node = stack[stack.length - 1];
    if (!node || !TEXT_ELEMENTS.has(node.name)) return;
    if (node.name === 'style') {
      if ((css += t.length) > MAX_SVG_CSS) refuse('css budget');
    } else if ((text += t.length) > MAX_SVG_TEXT) refuse('text budget');
    node.children.push(t);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.write(source).close();
  if (!root) refuse('root is not svg');
  return root;
}

/**
 * Refuses a <use> whose target holds a <use>, and an SVG whose references make a renderer draw more than
 * MAX_SVG_REFERENCED elements again: each <use> its target's subtree, each url(#id) of clip-path or mask the clipPath's
 * or mask's subtree, and each one in a <style> sheet that subtree once for every element (a rule may match them all).
 */
function checkReferences(root: Node, sheetRefs: string[]): void {
  const byId = new Map<string, { size: number; hasUse: boolean; name: string }>();
  const nodes: Node[] = [];
  const walk = (node: Node): { size: number; hasUse: boolean } => {
    nodes.push(node);
    let size = 1;
    let hasUse = node.name === 'use';
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      const sub = walk(child);
      size += sub.size;
      hasUse ||= sub.hasUse;
    }
    const id = node.attrs.find(([n]) => n === 'id')?.[1];
    if (id !== undefined && !byId.has(id)) byId.set(id, { size, hasUse, name: node.name });
    return { size, hasUse };
  };
  walk(root);
  let total = 0;
  const add = (n: number) => {
    total += n;
    if (total > MAX_SVG_REFERENCED) refuse('use budget');
  };
  const drawnAgain = (id: string) => {
    const target = byId.get(id);
    // A url(#id) of a gradient costs nothing; one of a clipPath or mask draws its content again.
    return target && (target.name === 'clipPath' || target.name === 'mask') ? target.size : 0;
  };
  for (const node of nodes) {
    if (node.use !== undefined) {
      const target = byId.get(node.use);
      if (target?.hasUse) refuse('use inside a use target');
      add(target?.size ?? 0);
    }
    for (const ref of node.refs) add(drawnAgain(ref));
  }
  for (const ref of sheetRefs) add(drawnAgain(ref) * nodes.length);
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
