// The Accept-Language header read into the client's language preferences (RFC 9110 q-values): the tags it names,
// most preferred first, those it refuses (q=0) or weighs malformedly left out. Which supported language those
// preferences choose is render/labels/locale.ts's; nothing here knows the catalogues. Never throws: a bad header is not a
// client error, it only prefers nothing.
import type { LanguagePreferences } from '../render/labels/locale';

/** A q parameter's valid value: 0 to 1 with at most three decimals. */
const WEIGHT = /^\s*q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i;

/** The weight of one entry's parameters: 1 when none is given, NaN when the q parameter is malformed. */
function weightOf(params: string[]): number {
  let q = 1;
  for (const p of params) {
    if (!/^\s*q\s*=/i.test(p)) continue;
    // A malformed weight makes the whole entry malformed: it is skipped, not taken at full weight.
    const m = WEIGHT.exec(p);
    q = m ? Number(m[1]) : NaN;
  }
  return q;
}

/** The language ranges of an Accept-Language header, highest weight first (ties in the order sent); `*` kept. */
export function languagePreferences(header: string | undefined): LanguagePreferences {
  if (!header) return [];
  const ranges: { tag: string; q: number; order: number }[] = [];
  header.split(',').forEach((part, order) => {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = (rawTag ?? '').trim();
    const q = weightOf(params);
    if (tag && Number.isFinite(q) && q > 0 && q <= 1) ranges.push({ tag, q, order });
  });
  ranges.sort((a, b) => b.q - a.q || a.order - b.order);
  return ranges.map((r) => r.tag);
}
