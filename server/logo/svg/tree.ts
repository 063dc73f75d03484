// An SVG logo parsed into the tree it keeps (saxes: namespaces resolved, no DTD, no entity but XML's five): elements
// by namespace URI and local name as the allowlists say, attributes checked one by one, text only where it is drawn,
// and the budgets of elements, depth, text and CSS counted as it goes; then the elements its references make a
// renderer draw again. Every refusal is refusal.ts's. Writes nothing.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import {
  ALLOWED_ELEMENTS,
  ATTRIBUTES,
  CLASS,
  DROPPED_ELEMENTS,
  HREF_ELEMENTS,
  ID,
  LOCAL_REF,
  MAX_SVG_CSS,
  MAX_SVG_DEPTH,
  MAX_SVG_ELEMENTS,
  MAX_SVG_REFERENCED,
  MAX_SVG_TEXT,
  NAMED_REFUSALS,
  SVG_NS,
  TEXT_ELEMENTS,
  XLINK_NS,
  XML_NS,
} from './allowlists';
import { cssDeclarations, cssValue, withoutComments } from './css';
import { refuse } from './refusal';

export interface Node {
  name: string;
  attrs: [string, string][];
  children: (Node | string)[];
  /** The id a <use> draws again. */
  use?: string;
  /** Ids named by url(#id) in clip-path and mask (attributes and style attributes). */
  refs: string[];
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
export function parse(source: string): Node {
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
export function checkReferences(root: Node, sheetRefs: string[]): void {
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
