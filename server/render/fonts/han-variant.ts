// Which CJK font a document's Han characters should print in. One Han code point is drawn differently in Japanese,
// Korean, Simplified and Traditional Chinese type, and the request names no language for its text (its locale is the
// labels' language), so the text itself decides: kana means Japanese, hangul Korean; otherwise a handful of the most
// common characters whose Simplified and Traditional forms differ tells the two Chinese variants apart (an invoice
// has enough of 發票/发票, 數量/数量, 號/号, 總計/总计 …). Must not know about fonts or files.

export type HanVariant = 'jp' | 'kr' | 'sc' | 'tc';

// Kana, without the middle dot ・ and the prolonged sound mark ー, which Chinese text uses too (約翰・史密斯).
const KANA = /[\u3041-\u309f\u30a0-\u30fa\u30fd-\u30ff\u31f0-\u31ff\uff66-\uff6f\uff71-\uff9f]/u;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u;
const HAN = /\p{Script=Han}/u;

// Traditional and Simplified forms of frequent characters, position for position (business and address vocabulary).
const TRADITIONAL =
  '發票號數單價總計稅費貨運區縣鄉鎮灣們個來東這會對時說國學開關經過還當與點無從後實動現種應間問題業產電話碼額銀聯絡續項買賣結帳據寫書島門龍';
const SIMPLIFIED =
  '发票号数单价总计税费货运区县乡镇湾们个来东这会对时说国学开关经过还当与点无从后实动现种应间问题业产电话码额银联络续项买卖结账据写书岛门龙';

function formsOnlyIn(own: string, other: string): Set<string> {
  const only = new Set<string>();
  [...own].forEach((ch, i) => {
    if ([...other][i] !== ch) only.add(ch);
  });
  return only;
}

const ONLY_TRADITIONAL = formsOnlyIn(TRADITIONAL, SIMPLIFIED);
const ONLY_SIMPLIFIED = formsOnlyIn(SIMPLIFIED, TRADITIONAL);

/** The variant for a document's text, or undefined when it has no Han, kana or hangul. */
export function hanVariant(text: string): HanVariant | undefined {
  if (KANA.test(text)) return 'jp';
  if (HANGUL.test(text)) return 'kr';
  if (!HAN.test(text)) return undefined;
  let traditional = 0;
  let simplified = 0;
  for (const ch of text) {
    if (ONLY_TRADITIONAL.has(ch)) traditional++;
    else if (ONLY_SIMPLIFIED.has(ch)) simplified++;
  }
  return traditional > simplified ? 'tc' : 'sc';
}
