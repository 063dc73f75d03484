// What every part of a received e-invoice's page needs to say a term in the reader's language: the fixed texts of
// the catalogue's `text.received` (locales/*.json), codes in words with the code beside them ("Standard rate (S)",
// locales/code-names.json), an identifier with its scheme's name ("4000001123452 (GLN)"), a country's name, an
// address as lines, an IBAN in groups of four, and the document's formatter. Plain functions; computes no money.
import type { Address } from '../../einvoice/model';
import type { Catalogues } from '../labels/catalogues';
import type { CodeNameList } from '../labels/code-names';
import type { Formatter } from '../labels/format';
import { countryNames } from '../view/line-details';
import type { Locale } from '../labels/locale';

export interface ReceivedContext {
  fmt: Formatter;
  locale: Locale;
  catalogues: Catalogues;
  /** A fixed text of `text.received` with its placeholders filled in. */
  text: (key: string, values?: Record<string, string>) => string;
  /** A code in words with the code beside it, or the code alone when the list does not name it. */
  code: (list: CodeNameList, code: string) => string;
  /** An identifier with the name (or code) of its scheme, or alone. */
  scheme: (id: string, scheme?: string) => string;
  country: (code: string) => string;
}

export function receivedContext(fmt: Formatter, catalogues: Catalogues, locale: Locale): ReceivedContext {
  const text = (key: string, values?: Record<string, string>) => catalogues.text(locale.language, `received.${key}`, values);
  return {
    fmt,
    locale,
    catalogues,
    text,
    code: (list, code) => {
      const name = catalogues.codeName(locale.language, list, code);
      return name ? text('with_scheme', { id: name, scheme: code }) : code;
    },
    scheme: (id, scheme) => (scheme ? text('with_scheme', { id, scheme: catalogues.itemScheme(scheme) ?? scheme }) : id),
    country: countryNames(locale.tag),
  };
}

/** Countries whose addresses put the postal code after the city (the rest of Europe puts it before). */
const CODE_AFTER_CITY: ReadonlySet<string> = new Set(['GB', 'IE', 'US', 'CA', 'AU', 'NZ', 'IN', 'MT', 'LV']);

/** An address as printed, a line each: streets, postal code with city (and region), country in the reader's
 * language. */
export function addressLines(address: Address | undefined, country: (code: string) => string): string[] {
  if (!address) return [];
  const { street, additionalStreet, line3, city, postalCode, region } = address;
  const after = address.country !== undefined && CODE_AFTER_CITY.has(address.country.toUpperCase());
  const place = [(after ? [city, postalCode] : [postalCode, city]).filter(Boolean).join(' '), region].filter(Boolean).join(', ');
  const lines = [street, additionalStreet, line3, place, address.country ? country(address.country) : undefined];
  return lines.filter((l): l is string => Boolean(l && l.trim()));
}

/** An IBAN as it is written on paper, in groups of four (DE02 1203 0000 …) joined by no-break spaces, so that it
 * never wraps inside itself; anything else as received. */
export function ibanText(value: string): string {
  const bare = value.replace(/\s+/g, '');
  return /^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/i.test(bare) ? bare.replace(/(.{4})(?=.)/g, '$1\u00a0') : value;
}
