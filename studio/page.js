// The printed page in a preview frame, for the studio and the gallery. The frame lays the document out at the paper's
// full width with the @page margins around it (read from the document's own CSS, as the printer reads them), so that
// its lines break where they break in the PDF; a CSS transform then scales the frame down to the room it has.
'use strict';
/* exported printedPage */
const printedPage = (() => {
  const PX_PER_IN = 96;
  const SIDES = ['top', 'right', 'bottom', 'left'];

  /** The @page rules of a style sheet, also inside @media print, @supports and @layer blocks. */
  function* pageRules(rules) {
    for (const rule of rules) {
      if (rule instanceof CSSPageRule) yield rule;
      else if (rule instanceof CSSMediaRule && !/\bprint\b|\ball\b/.test(rule.media.mediaText)) continue;
      else if (rule.cssRules) yield* pageRules(rule.cssRules);
    }
  }

  /**
   * The page margins of a document (CSS lengths), from the @page rules of its <style> elements: the last rule that
   * sets a side wins, as in the printer; a side no rule sets keeps `fallback` (the printer's own margin).
   */
  function margins(html, paper, fallback) {
    const found = { ...fallback };
    const parsed = new DOMParser().parseFromString(html, 'text/html');
    for (const style of parsed.querySelectorAll('style')) {
      const sheet = new CSSStyleSheet();
      try {
        sheet.replaceSync(style.textContent);
      } catch {
        continue;
      }
      for (const rule of pageRules(sheet.cssRules)) {
        if (rule.selectorText && !/^\s*$/.test(rule.selectorText)) continue; // :first, :left, named pages
        for (const side of SIDES) {
          const value = rule.style.getPropertyValue(`margin-${side}`).trim();
          if (!value || value === 'auto') continue;
          // A percentage of a page margin is of the page's width.
          found[side] = value.endsWith('%') ? `${(parseFloat(value) / 100) * paper.width}in` : value;
        }
      }
    }
    return found;
  }

  /**
   * The document as the frame shows it: screen-only rules added after its own, which make the root as wide as the
   * paper and pad it with the page margins, so that the body gets the printed page's content width. Glyphs are
   * placed unhinted (text-rendering: geometricPrecision), as the printer places them (it runs Chromium with
   * --font-render-hinting=none): hinted, Chromium on Linux rounds each advance to a whole pixel, and a line of small
   * text comes out a few pixels shorter than in the PDF and may take one word more.
   */
  function srcdoc(html, paper, fallback) {
    const m = margins(html, paper, fallback);
    const css = `<style data-studio-page>@media screen {
  html { box-sizing: border-box; width: ${paper.width}in; min-height: ${paper.height}in; margin: 0;
         padding: ${m.top} ${m.right} ${m.bottom} ${m.left}; background: #fff; overflow: hidden;
         text-rendering: geometricPrecision; }
}</style>`;
    const at = html.search(/<\/head>/i);
    return { html: at < 0 ? html + css : html.slice(0, at) + css + html.slice(at), margins: m };
  }

  /**
   * Shows `frame` (inside `view`) as the paper at the width of view's content box: the frame is paper-wide in CSS
   * pixels and as tall as its document ('document', at least a page) or a page ('page'), scaled down by a transform.
   * `sizer`, when given, takes the scaled size (a transform does not change layout), so that `view` can scroll.
   */
  function fit(view, sizer, frame, paper, height) {
    const width = paper.width * PX_PER_IN;
    const pageHeight = paper.height * PX_PER_IN;
    let docHeight = pageHeight;
    if (height === 'document') {
      try {
        // The root's own height (its padding included), not scrollHeight, which is at least the frame's current height.
        docHeight = Math.max(pageHeight, frame.contentDocument?.documentElement?.offsetHeight ?? 0);
      } catch {
        docHeight = pageHeight;
      }
    }
    const scale = view.clientWidth > 0 ? view.clientWidth / width : 0;
    frame.style.width = `${width}px`;
    frame.style.height = `${docHeight}px`;
    frame.style.transform = `scale(${scale})`;
    if (sizer) {
      sizer.style.width = `${width * scale}px`;
      sizer.style.height = `${docHeight * scale}px`;
    }
    return scale;
  }

  return { PX_PER_IN, margins, srcdoc, fit };
})();
