// svrlFailures: an SVRL report (ISO Schematron's output) read into its failures, in document order: every
// svrl:failed-assert and svrl:successful-report with its id, flag (a role standing in for a missing one; fatal by
// default; error and info normalised), location and the text of its first svrl:text, entities decoded and markup
// inside the text kept as text. Anything outside the SVRL namespace is no failure; a report that is not XML throws.
import { expect } from 'chai';
import { svrlFailures } from '../../../../server/einvoice/rules/svrl';

const report = (body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>
<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl" xmlns:other="urn:other">
  <svrl:active-pattern id="p1"/>
  <svrl:fired-rule context="/Invoice"/>
  ${body}
</svrl:schematron-output>`;

describe('svrlFailures (SVRL reports)', function () {
  it('reads failed asserts and successful reports in document order, with their id, flag, location and text', function () {
    const failures = svrlFailures(
      report(`
  <svrl:failed-assert id="BR-CO-16" flag="fatal" location="/*:Invoice[1]" test="x">
    <svrl:text>[BR-CO-16]-Amount due for payment (BT-115)
       = Invoice total amount with VAT (BT-112) -Paid amount (BT-113).</svrl:text>
  </svrl:failed-assert>
  <svrl:successful-report id="PEPPOL-R002" flag="warning" location="/*:Invoice[1]/*:Note[1]"><svrl:text>Only one note</svrl:text></svrl:successful-report>`),
    );
    expect(failures).to.deep.equal([
      {
        id: 'BR-CO-16',
        flag: 'fatal',
        location: '/*:Invoice[1]',
        text: '[BR-CO-16]-Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) -Paid amount (BT-113).',
      },
      { id: 'PEPPOL-R002', flag: 'warning', location: '/*:Invoice[1]/*:Note[1]', text: 'Only one note' },
    ]);
  });

  it('finds nothing in a report without failures, or in elements of that name outside the SVRL namespace', function () {
    expect(svrlFailures(report(''))).to.deep.equal([]);
    expect(
      svrlFailures(report('<other:failed-assert id="X"><svrl:text>no</svrl:text></other:failed-assert><failed-assert id="Y"/>')),
    ).to.deep.equal([]);
  });

  it('flags a failure without a flag as fatal, lets a known role stand in, and normalises error and info', function () {
    const flags = svrlFailures(
      report(`
  <svrl:failed-assert id="a" location="/"><svrl:text>t</svrl:text></svrl:failed-assert>
  <svrl:failed-assert id="b" role="WARNING" location="/"><svrl:text>t</svrl:text></svrl:failed-assert>
  <svrl:failed-assert id="c" role="info" location="/"><svrl:text>t</svrl:text></svrl:failed-assert>
  <svrl:failed-assert id="d" role="something-else" location="/"><svrl:text>t</svrl:text></svrl:failed-assert>
  <svrl:failed-assert id="e" flag=" Error " role="warning" location="/"><svrl:text>t</svrl:text></svrl:failed-assert>
  <svrl:failed-assert id="f" flag="information" location="/"><svrl:text>t</svrl:text></svrl:failed-assert>
  <svrl:failed-assert id="g" flag="" location="/"><svrl:text>t</svrl:text></svrl:failed-assert>`),
    ).map((f) => `${f.id}:${f.flag}`);
    expect(flags).to.deep.equal(['a:fatal', 'b:warning', 'c:information', 'd:fatal', 'e:fatal', 'f:information', 'g:fatal']);
  });

  it('gives a failure without id or location empty ones', function () {
    expect(svrlFailures(report('<svrl:failed-assert><svrl:text>bare</svrl:text></svrl:failed-assert>'))).to.deep.equal([
      { id: '', flag: 'fatal', location: '', text: 'bare' },
    ]);
  });

  it('decodes entities and CDATA and keeps the text of markup inside svrl:text, but reads only its first svrl:text', function () {
    const [f] = svrlFailures(
      report(`
  <svrl:failed-assert id="R" location="/">
    <svrl:diagnostic-reference diagnostic="d1"><svrl:text>a diagnostic, not the text</svrl:text></svrl:diagnostic-reference>
    <svrl:text>Value &lt;0&gt; &amp; <svrl:emph>not</svrl:emph> <![CDATA[<allowed>]]> &#x20AC;</svrl:text>
    <svrl:text>a second text</svrl:text>
  </svrl:failed-assert>`),
    );
    expect(f!.text).to.equal('Value <0> & not <allowed> €');
  });

  it('keeps the failures apart when one holds nested elements (depth is counted, not guessed)', function () {
    const failures = svrlFailures(
      report(`
  <svrl:failed-assert id="one" location="/a"><svrl:text>first <b><i>deep</i></b></svrl:text><svrl:property-reference property="p"><svrl:text>p</svrl:text></svrl:property-reference></svrl:failed-assert>
  <svrl:failed-assert id="two" location="/b"><svrl:text>second</svrl:text></svrl:failed-assert>`),
    );
    expect(failures.map((f) => [f.id, f.text])).to.deep.equal([
      ['one', 'first deep'],
      ['two', 'second'],
    ]);
  });

  it('throws on a report that is not well-formed XML', function () {
    expect(() => svrlFailures(report('<svrl:failed-assert id="x"><svrl:text>open</svrl:failed-assert>'))).to.throw();
    expect(() => svrlFailures('not xml at all')).to.throw();
  });
});
