// Marking untagged content as artifacts, on content streams written here: painting outside marked content wrapped
// (text objects whole, paths from their first construction to their painting, XObjects and inline images), nothing
// inside tagged content touched, text objects that hold tags wrapped operator by operator, the repeated MCIDs retagged,
// and the syntax a naive scanner trips on (strings with parentheses, operators in strings, dictionaries) kept whole.
import { expect } from 'chai';
import { markArtifacts, operations, type MarkCounts } from '../../../server/pdf/content-marks';

const mark = (text: string, repeated?: number[]) => {
  const counts: MarkCounts = { wrapped: 0, repeated: 0 };
  const out = markArtifacts(Buffer.from(text, 'latin1'), new Set(repeated), counts);
  return { text: out?.toString('latin1'), counts };
};

/** The operators in order, as the lexer reads them. */
const ops = (text: string) => operations(Buffer.from(text, 'latin1')).map((o) => o.op);

describe('content-stream artifacts (content-marks)', function () {
  it('reads operators past strings, hex strings, dictionaries, arrays and inline images', function () {
    expect(ops('BT /F1 12 Tf (a \\) BDC (b) EMC) Tj [(x) 12 (y)] TJ ET')).to.deep.equal(['BT', 'Tf', 'Tj', 'TJ', 'ET']);
    expect(ops('/P <</MCID 3 /ActualText (>> EMC)>> BDC <0033> Tj EMC')).to.deep.equal(['BDC', 'Tj', 'EMC']);
    expect(ops('q BI /W 2 /H 1 /BPC 8 /CS /G ID \x00EI\xff EI Q')).to.deep.equal(['q', 'BI', 'Q']);
    // A BI without its ID (malformed): an operation of its own, in its place, at the end of the stream too.
    expect(ops('q BI /W 2 Q BI /W 1')).to.deep.equal(['q', 'BI', 'Q', 'BI']);
  });

  it('wraps a text object, a path and an XObject painted outside marked content', function () {
    const { text, counts } = mark('q BT /F1 9 Tf 1 0 0 1 5 5 Tm <0033> Tj ET 0 0 9 9 re f /Im1 Do Q');
    expect(text).to.equal(
      'q /Artifact BMC\nBT /F1 9 Tf 1 0 0 1 5 5 Tm <0033> Tj ET\nEMC /Artifact BMC\n0 0 9 9 re f\nEMC /Artifact BMC\n/Im1 Do\nEMC Q',
    );
    expect(counts).to.deep.equal({ wrapped: 3, repeated: 0 });
  });

  it('wraps a clipping path (construction, W, n) and an inline image', function () {
    const { text } = mark('0 0 5 5 re W n BI /W 1 /H 1 ID x EI');
    expect(text).to.equal('/Artifact BMC\n0 0 5 5 re W n\nEMC /Artifact BMC\nBI /W 1 /H 1 ID x EI\nEMC');
  });

  it('leaves tagged content as it is, and returns nothing when nothing is untagged', function () {
    const tagged = '/P <</MCID 0 >>BDC BT <01> Tj ET 0 0 1 1 re f EMC /Artifact BMC 1 1 2 2 re S EMC';
    expect(mark(tagged).text).to.equal(undefined);
  });

  it('wraps the showing operators one by one in a text object that holds tagged content', function () {
    const { text } = mark('BT <01> Tj /Span <</MCID 2>> BDC <02> Tj EMC [<03>] TJ ET');
    expect(text).to.equal('BT /Artifact BMC\n<01> Tj\nEMC /Span <</MCID 2>> BDC <02> Tj EMC /Artifact BMC\n[<03>] TJ\nEMC ET');
  });

  it('wraps what a sequence that does not tag holds (right-to-left text in /ReversedChars), inside it', function () {
    const { text } = mark('/ReversedChars BMC BT <07> Tj ET EMC /P <</MCID 0>> BDC /ReversedChars BMC BT <08> Tj ET EMC EMC');
    expect(text).to.equal(
      '/ReversedChars BMC /Artifact BMC\nBT <07> Tj ET\nEMC EMC /P <</MCID 0>> BDC /ReversedChars BMC BT <08> Tj ET EMC EMC',
    );
  });

  it('retags the repeated MCIDs as artifacts and keeps the others', function () {
    const { text, counts } = mark('/TH <</MCID 0 >>BDC 0 0 1 1 re f EMC /NonStruct <</MCID 1 >>BDC BT <05> Tj ET EMC', [0]);
    expect(text).to.equal('/Artifact BMC 0 0 1 1 re f EMC /NonStruct <</MCID 1 >>BDC BT <05> Tj ET EMC');
    expect(counts).to.deep.equal({ wrapped: 0, repeated: 1 });
  });
});
