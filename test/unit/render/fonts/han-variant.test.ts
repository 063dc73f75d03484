// The Han variant of a text (render/fonts/han-variant.ts): kana, hangul, or the Traditional and Simplified forms of
// frequent characters decide which CJK type a document's Han characters print in.
import { expect } from 'chai';
import { hanVariant } from '../../../../server/render/fonts/han-variant';

describe('Han variant of a text', function () {
  it('tells Japanese, Korean, Simplified and Traditional Chinese text apart', function () {
    expect(hanVariant('請求書 ありがとう')).to.equal('jp');
    expect(hanVariant('청구서 合計')).to.equal('kr');
    expect(hanVariant('增值税发票 数量')).to.equal('sc');
    expect(hanVariant('統一發票 數量')).to.equal('tc');
    expect(hanVariant('Invoice 42')).to.equal(undefined);
    // The middle dot and the prolonged sound mark are Chinese punctuation too, not kana.
    expect(hanVariant('約翰・史密斯 臺北市 發票')).to.equal('tc');
  });
});
