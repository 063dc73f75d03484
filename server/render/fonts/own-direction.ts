// Which blocks of text from a request need `dir="auto"` (themes/base.css): a block whose text holds a right-to-left
// letter or direction mark takes its direction from its first strong character, and one with combining marks is
// clipped to its own box (marks stacked on a letter cannot reach the line above). Every other block is drawn exactly
// the same without it in these left-to-right documents, and a long table is cheaper to lay out, paint and tag
// without a direction and a clip per cell. A pure function of a string.

/** Right-to-left scripts, the explicit right-to-left marks and controls (RLM, ALM, RLE, RLO, RLI), and any combining mark. */
const OWN_DIRECTION =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Mende_Kikakui}\p{Script=Imperial_Aramaic}\p{Script=Phoenician}\p{Script=Kharoshthi}\p{Script=Avestan}\p{Script=Old_South_Arabian}\p{Script=Nabataean}\p{Script=Palmyrene}\p{Script=Yezidi}\u200F\u061C\u202B\u202E\u2067\p{M}]/u;

/** Whether `text` is to be its own direction block: a right-to-left letter or mark in it, or a combining mark. */
export function needsOwnDirection(text: string): boolean {
  return OWN_DIRECTION.test(text);
}
