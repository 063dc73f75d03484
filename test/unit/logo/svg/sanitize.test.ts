// The SVG logo's safe subset: the bombs that a regex let through (a prefixed <s:image>, an <image> made by a DTD
// entity, a <use> fan-out) and their cousins are refused with a reason of the module's own words; what is kept is
// written again with every text and attribute escaped, still vector; budgets on elements, depth, text and what <use>
// draws again.
import { expect } from 'chai';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { MAX_SVG_ELEMENTS, SVG_NS } from '../../../../server/logo/svg/allowlists';
import { sanitizeSvg } from '../../../../server/logo/svg/sanitize';
import { svgEntityImage, svgPrefixedImage, svgUseFanout } from '../../../helpers/logo-bombs';

const svg = (body: string, attrs = '') => `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink"${attrs}>${body}</svg>`;

function refusal(source: string): string {
  const r = sanitizeSvg(source);
  expect(r.ok, source.slice(0, 200)).to.equal(false);
  return r.ok ? '' : r.reason;
}

function kept(source: string): string {
  const r = sanitizeSvg(source);
  if (!r.ok) expect.fail(`refused (${r.reason}): ${source.slice(0, 200)}`);
  return r.svg;
}

/** Every element of an SVG as `{uri}local`, and every attribute name (the output is checked by parsing it again). */
function shape(source: string): { elements: string[]; attributes: string[] } {
  const parser = new SaxesParser({ xmlns: true });
  const elements: string[] = [];
  const attributes: string[] = [];
  parser.on('opentag', (tag: SaxesTagNS) => {
    elements.push(`{${tag.uri}}${tag.local}`);
    for (const a of Object.values(tag.attributes)) attributes.push(a.name);
  });
  parser.write(source).close();
  return { elements, attributes };
}

describe('SVG logo sanitizer (unit)', function () {
  it('refuses the three SVG bombs a regex let through', function () {
    expect(refusal(svgPrefixedImage())).to.equal('svg_refused: element image');
    expect(refusal(svgEntityImage())).to.equal('svg_refused: doctype');
    expect(refusal(svgUseFanout())).to.equal('svg_refused: use inside a use target');
  });

  it('refuses an embedding, scripting, filtering or animating element whatever its prefix', function () {
    const s = `xmlns:s="${SVG_NS}"`;
    for (const [body, reason] of [
      ['<image href="x.png"/>', 'element image'],
      [`<svg:image xmlns:svg="${SVG_NS}" href="x.png"/>`, 'element image'],
      ['<filter id="f"><feImage href="x.png"/></filter>', 'element filter'],
      ['<s:foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></s:foreignObject>', 'element foreignObject'],
      ['<script>alert(1)</script>', 'element script'],
      ['<pattern id="p"/>', 'element pattern'],
      ['<rect><animate attributeName="width" to="100"/></rect>', 'element animate'],
      ['<set attributeName="x" to="1"/>', 'element set'],
      ['<a href="#x"><rect/></a>', 'element a'],
      ['<madeUpElement/>', 'element not allowed'],
    ]) {
      expect(refusal(`<svg xmlns="${SVG_NS}" ${s}>${body}</svg>`), body).to.equal(`svg_refused: ${reason}`);
    }
  });

  it('refuses DTDs, entities and what is not well-formed XML', function () {
    expect(refusal(`<!DOCTYPE svg><svg xmlns="${SVG_NS}"/>`)).to.equal('svg_refused: doctype');
    expect(refusal(`<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>${svg('<text>&b;</text>')}`)).to.equal(
      'svg_refused: doctype',
    );
    expect(refusal(svg('<text>&x;</text>'))).to.equal('svg_refused: not well formed');
    expect(refusal(svg('<rect>'))).to.equal('svg_refused: not well formed');
    expect(refusal('<svg><rect/></svg>')).to.equal('svg_refused: root is not svg');
    expect(refusal(`<html xmlns="http://www.w3.org/1999/xhtml"/>`)).to.equal('svg_refused: root is not svg');
    expect(refusal('')).to.equal('svg_refused: not well formed');
  });

  it('refuses references to anything outside the SVG: href, url(), @import, image-set, CSS escapes', function () {
    for (const body of [
      '<use href="data:image/svg+xml;base64,PHN2Zy8+"/>',
      '<use xlink:href="other.svg#a"/>',
      '<linearGradient id="g" href="http://example.com/g.svg#g"/>',
      '<rect fill="url(http://example.com/x.svg#p)"/>',
      '<rect fill="url(data:image/png;base64,AAAA)"/>',
      '<rect style="fill: url(\'x.svg#p\')"/>',
      '<rect style="mask: image-set(\'data:image/png;base64,AAAA\' 1x)"/>',
      '<rect style="fill: u\\72l(data:x)"/>',
      '<style>@import url(x.css);</style>',
      '<style>@font-face { src: url(f.woff) }</style>',
      '<style>rect { fill: url("data:image/png;base64,AAAA") }</style>',
      '<style>svg { background-image: image-set("x.png" 1x) }</style>',
      '<style>rect { fill: red } garbage</style>',
    ]) {
      expect(refusal(svg(body)), body).to.match(/^svg_refused: (external reference|css [a-z ]+)$/);
    }
  });

  it('has budgets: elements, depth, text, and the elements <use> draws again', function () {
    expect(refusal(svg('<rect/>'.repeat(MAX_SVG_ELEMENTS)))).to.equal('svg_refused: element budget');
    expect(refusal(svg('<g>'.repeat(60) + '</g>'.repeat(60)))).to.equal('svg_refused: depth budget');
    expect(refusal(svg(`<text>${'x'.repeat(30000)}</text>`))).to.equal('svg_refused: text budget');
    const group = `<defs><g id="g">${'<rect width="1" height="1"/>'.repeat(99)}</g></defs>`;
    expect(refusal(svg(group + '<use href="#g"/>'.repeat(50)))).to.equal('svg_refused: use budget');
    kept(svg(group + '<use href="#g"/>'.repeat(10)));
    expect(refusal(svg('<g id="loop"><use href="#loop"/></g>'))).to.equal('svg_refused: use inside a use target');
    const clip = `<defs><clipPath id="c">${'<rect width="1" height="1"/>'.repeat(999)}</clipPath></defs>`;
    expect(refusal(svg(clip + '<rect clip-path="url(#c)"/>'.repeat(5)))).to.equal('svg_refused: use budget');
    expect(refusal(svg(`${clip}<style>rect { clip-path: url(#c) }</style>${'<rect/>'.repeat(5)}`))).to.equal('svg_refused: use budget');
  });

  it('keeps an ordinary logo as vectors, without editor metadata, scripts in attributes or comments', function () {
    const out = kept(
      '<?xml version="1.0"?><!-- made by hand -->' +
        svg(
          '<title>Acme</title><metadata><x xmlns="urn:x">meta</x></metadata>' +
            '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#00c000"/></linearGradient>' +
            '<symbol id="s" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5"/></symbol><clipPath id="c"><rect width="9" height="9"/></clipPath></defs>' +
            '<style>.a, #b > path { fill: url(#g); stroke: #000 } /* a comment */</style>' +
            '<g class="a" clip-path="url(#c)" onload="alert(1)" inkscape:label="L" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape">' +
            '<path d="M0 0L10 10Z" style="fill:#f00;-inkscape-font-specification:Sans Bold" transform="rotate(45 5 5)"/></g>' +
            '<use xlink:href="#s" x="20" width="10" height="10"/><text x="1" y="9" font-family="\'Noto Sans\', sans-serif">Acme</text>',
          ' width="200" height="80" viewBox="0 0 200 80" version="1.1"',
        ),
    );
    const { elements, attributes } = shape(out);
    expect(elements.every((e) => e.startsWith(`{${SVG_NS}}`))).to.equal(true);
    expect(elements.map((e) => e.slice(SVG_NS.length + 2))).to.deep.equal(
      'svg title defs linearGradient stop symbol circle clipPath rect style g path use text'.split(' '),
    );
    expect(attributes).not.to.include('onload');
    expect(attributes).not.to.include('inkscape:label');
    expect(out).not.to.contain('comment');
    expect(out).not.to.contain('meta');
    expect(out).not.to.contain('inkscape');
    expect(out).to.contain('<use href="#s"');
    expect(out).to.contain('.a, #b &gt; path{fill:url(#g);stroke:#000}');
    expect(out).to.contain('style="fill:#f00"');
    expect(sanitizeSvg(out)).to.deep.equal({ ok: true, svg: out }, 'written again as it was');
  });

  it('sizes a root that has only a viewBox (or a relative size) by its viewBox, and keeps an absolute size', function () {
    const out = (svg: string) => {
      const r = sanitizeSvg(svg);
      return r.ok ? r.svg : r.reason;
    };
    const NS = 'xmlns="http://www.w3.org/2000/svg"';
    expect(out(`<svg ${NS} viewBox="0 0 300 120"><rect width="1" height="1"/></svg>`)).to.match(/^<svg [^>]*width="300" height="120"/);
    expect(out(`<svg ${NS} width="100%" viewBox="0,0,30.5,12"/>`)).to.match(/^<svg [^>]*width="30.5" height="12"/);
    expect(out(`<svg ${NS} width="200" height="80px" viewBox="0 0 300 120"/>`)).to.match(/^<svg [^>]*width="200" height="80px"/);
    expect(out(`<svg ${NS} viewBox="0 0 0 120"/>`)).not.to.contain('width=');
  });

  it('escapes every text and attribute value it writes', function () {
    const out = kept(
      svg('<text x="1&quot; onload=&quot;x">&lt;script&gt;alert(1)&lt;/script&gt; &amp; <![CDATA[</text><script>]]></text>'),
    );
    expect(out).to.contain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;/text&gt;&lt;script&gt;');
    expect(shape(out).elements).to.have.length(2);
    expect(shape(out).attributes).to.deep.equal(['xmlns', 'x']);
  });
});
