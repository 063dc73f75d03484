// What an SVG logo may hold (svg/sanitize.ts): the elements, attributes, presentation properties and CSS functions it
// keeps, the references it may make (local `#id` only), and its budgets of elements, depth, text, CSS and elements
// drawn again. Plain data; the checks that read it are tree.ts's and css.ts's.
export const SVG_NS = 'http://www.w3.org/2000/svg';
export const XLINK_NS = 'http://www.w3.org/1999/xlink';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

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
export const DROPPED_ELEMENTS: ReadonlySet<string> = new Set(['metadata']);

/** SVG elements named in a refusal reason (this module's words); any other is "element not allowed". */
export const NAMED_REFUSALS: ReadonlySet<string> = new Set([
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
export const TEXT_ELEMENTS: ReadonlySet<string> = new Set(['text', 'tspan', 'title', 'desc', 'style']);

/** Presentation properties: kept as attributes and as declarations of style attributes and <style> rules. */
export const PRESENTATION: ReadonlySet<string> = new Set([
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
export const ATTRIBUTES: ReadonlySet<string> = new Set([
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
export const HREF_ELEMENTS: ReadonlySet<string> = new Set(['use', 'linearGradient', 'radialGradient']);

/** CSS functions a value may call; url() only with a local `#id` (checked apart). */
export const CSS_FUNCTIONS: ReadonlySet<string> = new Set([
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

export const LOCAL_REF = /^#[A-Za-z_][\w.:-]*$/;
export const LOCAL_URL = /^url\(\s*(["']?)#([A-Za-z_][\w.:-]*)\1\s*\)$/i;
export const ID = /^[A-Za-z_][\w.:-]*$/;
export const CLASS = /^[\w\s-]*$/;
export const SELECTOR = /^[\w\s.#,>+~*:-]+$/;
