// Accept-Language negotiation (docs/decisions.md §3): RFC 9110 q-values, the best supported language wins, formatting keeps
// the full tag the client sent, anything unusable falls back to en-US. Never throws: a bad header is not a client error.
import type { QrBillLanguage } from './qr-bill-labels';

export interface Locale {
  /** The catalogue used for labels: `en`, `fr`, … */
  language: string;
  /** The BCP 47 tag used for numbers, money and dates, and sent back as Content-Language. */
  tag: string;
  /** The Swiss QR-bill's language when the client prefers German, French or Italian to English among the four
   * languages the bill has (absent: English), whatever the document's own language. */
  qrBill?: Exclude<QrBillLanguage, 'en'>;
}

export const DEFAULT_LOCALE: Locale = { language: 'en', tag: 'en-US' };

function canonical(tag: string): string | undefined {
  try {
    const [c] = Intl.getCanonicalLocales(tag);
    return c;
  } catch {
    return undefined;
  }
}

/**
 * `defaultTags`: the languages there are catalogues for, each with the regional tag used when a client names only the
 * language (`fr` → `fr-FR`; from each catalogue's locale.default_tag).
 */
export function negotiateLocale(header: string | undefined, defaultTags: Readonly<Record<string, string>>): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranges: { tag: string; q: number; order: number }[] = [];
  header.split(',').forEach((part, order) => {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = (rawTag ?? '').trim();
    if (!tag) return;
    let q = 1;
    for (const p of params) {
      if (!/^\s*q\s*=/i.test(p)) continue;
      // A malformed weight makes the whole entry malformed: it is skipped, not taken at full weight.
      const m = /^\s*q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i.exec(p);
      q = m ? Number(m[1]) : NaN;
    }
    if (!Number.isFinite(q) || q <= 0 || q > 1) return;
    ranges.push({ tag, q, order });
  });
  ranges.sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of ranges) {
    if (tag === '*') return DEFAULT_LOCALE;
    const full = canonical(tag);
    if (!full) continue;
    const language = full.split('-')[0]!.toLowerCase();
    const defaultTag = defaultTags[language];
    if (defaultTag === undefined) continue;
    const hasRegionOrScript = full.includes('-');
    return { language, tag: hasRegionOrScript ? full : defaultTag };
  }
  return DEFAULT_LOCALE;
}
