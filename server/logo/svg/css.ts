// The CSS an SVG logo may carry, checked and written again: a value (only local url(#id) and the functions of
// CSS_FUNCTIONS, no escape, no markup), a style attribute's declarations (presentation properties only), and a
// <style> sheet (simple selectors, no at-rule). The url(#id) references it meets are gathered for the budget of
// elements drawn again (tree.ts checkReferences).
import { CSS_FUNCTIONS, LOCAL_URL, PRESENTATION, SELECTOR } from './allowlists';
import { refuse } from './refusal';

/** A CSS value, or a refusal: only local url(#id) and the functions of CSS_FUNCTIONS, no escape, no markup. */
export function cssValue(value: string, refs: string[]): string {
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
export function cssDeclarations(text: string, refs: string[]): string {
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

export function withoutComments(css: string): string {
  const bare = css.replace(/\/\*[\s\S]*?\*\//g, ' ');
  if (bare.includes('/*')) refuse('css not allowed');
  return bare;
}

/** A <style> sheet: rules of simple selectors and checked declarations; an at-rule (@import, @font-face) refuses. */
export function cssSheet(text: string, refs: string[]): string {
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
