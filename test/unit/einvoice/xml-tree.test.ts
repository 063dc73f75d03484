// parseXmlYielding: the same tree and refusals as parseXml, with the event loop given a turn between slices. Turns are
// counted, not timed: the test holds on any machine.
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { DEFAULT_XML_LIMITS, parseXml, parseXmlYielding, type XmlNode } from '../../../server/einvoice/xml-tree';
import { turnsDuring } from '../../helpers/loop-turns';

/** A document of `lines` elements, each with Bengali and emoji text (surrogate pairs at many slice boundaries). */
function longDocument(lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => `<line n="${i}">বাংলা ${i} 😀😀😀</line>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<doc xmlns="urn:example">\n${body}\n</doc>`;
}

function count(node: XmlNode): number {
  return 1 + node.children.reduce((n, c) => n + count(c), 0);
}

/** `read`, or the code and message of parseXml's refusal of `xml`. */
function refusal(xml: string): string {
  try {
    parseXml(xml);
  } catch (err) {
    return `${(err as DomainError).code}: ${(err as DomainError).message}`;
  }
  return 'read';
}

describe('parseXmlYielding (received XML read in slices)', function () {
  it('gives the loop a turn every 16 K characters and builds the same tree as parseXml, no character split', async function () {
    const xml = longDocument(20_000);
    const slices = Math.ceil(xml.length / (16 * 1024));
    expect(slices).to.be.above(40);
    const { result, turns } = await turnsDuring(() => parseXmlYielding(xml));
    expect(turns).to.be.at.least(slices - 1);
    expect(count(result)).to.equal(20_001);
    expect(result).to.deep.equal(parseXml(xml));
    expect(result.children[19_999]!.text).to.equal('বাংলা 19999 😀😀😀');
  });

  it('refuses a DTD in its first slice, before the loop turns once', async function () {
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE doc [<!ENTITY a "aaaa">]>\n` + longDocument(20_000).replace(/^<\?xml[^>]*>\n/, '');
    let error: unknown;
    const { turns } = await turnsDuring(() => parseXmlYielding(xml).catch((e: unknown) => (error = e)));
    expect(error).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal('malformed_xml');
    expect(turns).to.equal(0);
  });

  it('refuses past its limits wherever the slice is', async function () {
    const xml = longDocument(20_000);
    let error: unknown;
    await parseXmlYielding(xml, { ...DEFAULT_XML_LIMITS, maxElements: 15_000 }).catch((e: unknown) => (error = e));
    expect((error as DomainError).code).to.equal('malformed_xml');
    expect((error as DomainError).message).to.contain('more than 15000 elements');
  });

  it('refuses an element of more than 1,000 attributes or of more than 200 namespace declarations in scope', function () {
    const attributes = (n: number, name: (i: number) => string) => Array.from({ length: n }, (_, i) => ` ${name(i)}="urn:x${i}"`).join('');
    expect(refusal(`<a${attributes(1000, (i) => `a${i}`)}/>`)).to.equal('read');
    expect(refusal(`<a${attributes(1001, (i) => `a${i}`)}/>`)).to.match(/^malformed_xml: .*more than 1000 attributes/);
    // 200 declarations on the root and below it are an e-invoice's ten many times over; the 201st is refused.
    expect(refusal(`<a${attributes(150, (i) => `xmlns:p${i}`)}><b${attributes(50, (i) => `xmlns:q${i}`)}/></a>`)).to.equal('read');
    expect(refusal(`<a${attributes(150, (i) => `xmlns:p${i}`)}><b${attributes(51, (i) => `xmlns:q${i}`)}/></a>`)).to.match(
      /^malformed_xml: .*more than 200 namespace declarations in scope/,
    );
    // Declared again on each of 3,000 elements (as some serializers write UBL): never more than two in scope.
    const each = Array.from({ length: 3000 }, (_, i) => `<c xmlns="urn:cbc" xmlns:x="urn:x">${i}</c>`).join('');
    expect(refusal(`<a xmlns="urn:inv">${each}</a>`)).to.equal('read');
  });

  it('refuses more than 10,000 CDATA sections, or 10,000 comments and processing instructions, wherever they are', function () {
    const cdata = (n: number) => '<![CDATA[a<b]]>'.repeat(n);
    expect(refusal(`<a><b>${cdata(5000)}</b><c>${cdata(5000)}</c></a>`)).to.equal('read');
    expect(refusal(`<a><b>${cdata(5000)}</b><c>${cdata(5001)}</c></a>`)).to.match(/^malformed_xml: .*more than 10000 CDATA sections/);
    // What the sections hold is read as text, as before.
    expect(parseXml(`<a>x${cdata(2)}y</a>`).text).to.equal('xa<ba<by');
    const notes = (n: number) => 'a<!-- note -->'.repeat(n);
    expect(refusal(`<?xml version="1.0"?><!-- head --><a>${notes(9998)}<?pi x?></a>`)).to.equal('read');
    expect(refusal(`<?xml version="1.0"?><!-- head --><a>${notes(9998)}<?pi x?><?pi y?></a>`)).to.match(
      /^malformed_xml: .*more than 10000 comments and processing instructions/,
    );
  });
});
