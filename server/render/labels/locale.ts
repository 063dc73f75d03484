// The locale a document is made in, chosen from the client's language preferences (docs/decisions.md §3; read from
// the request by http/accept-language.ts): the most preferred supported language wins, formatting keeps the full
// tag the client sent, anything unusable falls back to en-US. Never throws: preferring nothing usable is not an error.
import type { QrBillLanguage } from './qr-bill-labels';

export interface Locale {
  /** The catalogue used for labels: `en`, `fr`, … */
  language: string;
  /** The BCP 47 tag used for numbers, money and dates, and named with the document it was made in. */
  tag: string;
  /** The Swiss QR-bill's language when the client prefers German, French or Italian to English among the four
   * languages the bill has (absent: English), whatever the document's own language. */
  qrBill?: Exclude<QrBillLanguage, 'en'>;
}

export const DEFAULT_LOCALE: Locale = { language: 'en', tag: 'en-US' };

/** The tag in its canonical form without its extensions: a client's `-u-nu-arab`, `-u-ca-islamic` or `-u-ca-buddhist`
 * would change a document's digits or calendar (an invoice dated "26 joum. oul. 1448 AH"); its language, script,
 * region and variants are kept. */
function canonical(tag: string): string | undefined {
  try {
    const [c] = Intl.getCanonicalLocales(tag);
    return c === undefined ? undefined : new Intl.Locale(c).baseName;
  } catch {
    return undefined;
  }
}

/** A client's language tags (BCP 47 ranges, `*` for any), most preferred first. */
export type LanguagePreferences = readonly string[];

/**
 * `defaultTags`: the languages there are catalogues for, each with the regional tag used when a client names only the
 * language (`fr` → `fr-FR`; from each catalogue's locale.default_tag).
 */
export function negotiateLocale(preferences: LanguagePreferences, defaultTags: Readonly<Record<string, string>>): Locale {
  for (const tag of preferences) {
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
