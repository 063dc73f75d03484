// The language to mark on a block of text written in another script than the document's (PDF/UA-1 7.2: a screen
// reader switches voice on /Lang, which Chromium writes from a block's `lang` attribute). Only the script is known,
// so a block is given the language most written in it (Arabic script → ar, Cyrillic → ru, Han → zh, …) and Latin
// text in a document of another script `und-Latn` (a language not determined). A pure function of two strings.

/** Scripts, the Unicode property that finds their letters, and the language a block in them is marked with. */
const SCRIPTS: readonly { script: string; letters: RegExp; lang: string }[] = [
  ['Latn', 'und-Latn'],
  ['Arab', 'ar'],
  ['Hebr', 'he'],
  ['Cyrl', 'ru'],
  ['Grek', 'el'],
  ['Armn', 'hy'],
  ['Geor', 'ka'],
  ['Ethi', 'am'],
  ['Thai', 'th'],
  ['Laoo', 'lo'],
  ['Khmr', 'km'],
  ['Mymr', 'my'],
  ['Sinh', 'si'],
  ['Deva', 'hi'],
  ['Beng', 'bn'],
  ['Guru', 'pa'],
  ['Gujr', 'gu'],
  ['Taml', 'ta'],
  ['Telu', 'te'],
  ['Knda', 'kn'],
  ['Mlym', 'ml'],
  ['Hang', 'ko'],
  ['Hira', 'ja'],
  ['Kana', 'ja'],
  ['Hani', 'zh'],
].map(([script, lang]) => ({ script: script!, letters: new RegExp(`\\p{Script=${script}}`, 'gu'), lang: lang! }));

/** The script each document language is written in (the languages with label catalogues, and their neighbours). */
const DOCUMENT_SCRIPT: Record<string, string> = {
  th: 'Thai',
  ar: 'Arab',
  he: 'Hebr',
  ru: 'Cyrl',
  uk: 'Cyrl',
  el: 'Grek',
  ja: 'Jpan',
  zh: 'Hani',
  ko: 'Hang',
};

/** The scripts a document language's own text may mix (Japanese: kanji and both kana). */
const MIXES: Record<string, readonly string[]> = { Jpan: ['Hani', 'Hira', 'Kana'] };

/** The script with the most letters in `text`, or undefined when it has none. */
export function dominantScript(text: string): string | undefined {
  let best: string | undefined;
  let most = 0;
  for (const { script, letters } of SCRIPTS) {
    const count = text.match(letters)?.length ?? 0;
    if (count > most) [best, most] = [script, count];
  }
  return best;
}

/** The `lang` to put on a block holding `text` in a document in `documentLang`, or undefined when it is the same. */
export function blockLanguage(text: string, documentLang: string): string | undefined {
  const own = DOCUMENT_SCRIPT[documentLang.split('-')[0]!.toLowerCase()] ?? 'Latn';
  // ASCII in a Latin document (the common case) is decided at once.
  if (own === 'Latn' && /^[\p{ASCII}]*$/u.test(text)) return undefined;
  const script = dominantScript(text);
  if (!script) return undefined;
  if (script === own || MIXES[own]?.includes(script)) return undefined;
  return SCRIPTS.find((s) => s.script === script)!.lang;
}
