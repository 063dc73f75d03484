// Currencies: which codes are real ISO 4217 codes, and how many minor units each has.
// The code list and most digit counts come from ICU (Intl). ICU follows CLDR, whose "digits" differ from ISO 4217
// for a few currencies (CLDR drops decimals that are unused in cash); docs/decisions.md §2 asks for ISO 4217, so those are
// corrected here. A fact about a document's currency (the schema's `currency` format, money/'s rounding), so it sits
// below both. Must not format money (see render/labels/format.ts) or compute totals (see money/totals.ts).

const SUPPORTED = new Set<string>(Intl.supportedValuesOf('currency'));

/** ISO 4217 minor units where CLDR/ICU disagrees with the ISO list (ISO 4217 amendment 178). */
const ISO_MINOR_UNITS_OVERRIDES: Readonly<Record<string, number>> = {
  AFN: 2,
  ALL: 2,
  COP: 2,
  HUF: 2,
  IDR: 2,
  IQD: 3,
  IRR: 2,
  KPW: 2,
  LAK: 2,
  LBP: 2,
  MGA: 2,
  MMK: 2,
  PKR: 2,
  SLL: 2,
  SOS: 2,
  SYP: 2,
  YER: 2,
};

const minorUnitsCache = new Map<string, number>();

export function isCurrencyCode(code: string): boolean {
  return SUPPORTED.has(code.toUpperCase());
}

/** Minor units (decimal places) of an ISO 4217 currency. The code must be valid (see isCurrencyCode). */
export function minorUnits(code: string): number {
  const upper = code.toUpperCase();
  let digits = minorUnitsCache.get(upper);
  if (digits === undefined) {
    digits =
      ISO_MINOR_UNITS_OVERRIDES[upper] ??
      new Intl.NumberFormat('en', { style: 'currency', currency: upper }).resolvedOptions().maximumFractionDigits ??
      2;
    minorUnitsCache.set(upper, digits);
  }
  return digits;
}
