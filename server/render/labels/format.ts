// Display formatting for one document: money, quantities, percent rates and dates in the request's locale
// (docs/decisions.md §3, §4). Intl formatters are cached (bounded); amounts are passed to Intl as exact decimal strings.
// Must not compute money (money/totals.ts does).
import { LRUCache } from 'lru-cache';
import { parseIsoDate, todayIso } from '../../documents/dates';
import type { Decimal } from '../../money/totals';

/** The most decimals a unit price prints with (half away from zero beyond them). */
export const RATE_MAX_DIGITS = 6;

// Keyed by the client's locale tag (and currency): bounded, since clients may send any number of distinct tags
// (2,098 private-use tags once added 64 MB to an unbounded map). 500 formatters cover every real mix of locales.
const cache = new LRUCache<string, Intl.NumberFormat | Intl.DateTimeFormat>({ max: 500 });

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = cache.get(key) as T | undefined;
  if (!f) {
    f = make();
    cache.set(key, f);
  }
  return f;
}

/** A decimal as the numeric text Intl formats exactly (ES2023: a string is read as a decimal, not a binary float).
 * Decimal's toFixed() always gives such a text ("-1234.5", never an exponent). */
function numeric(value: Decimal): Intl.StringNumericLiteral {
  return value.toFixed() as Intl.StringNumericLiteral;
}

export class Formatter {
  private readonly money: Intl.NumberFormat;
  private readonly signedMoney: Intl.NumberFormat;
  private readonly rate: Intl.NumberFormat;
  private readonly quantity: Intl.NumberFormat;
  private readonly percent: Intl.NumberFormat;
  private readonly dates: Intl.DateTimeFormat;

  constructor(
    readonly localeTag: string,
    currency: string,
    digits: number,
  ) {
    this.money = cached(
      `m|${localeTag}|${currency}|${digits}`,
      () => new Intl.NumberFormat(localeTag, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }),
    );
    this.signedMoney = cached(
      `s|${localeTag}|${currency}|${digits}`,
      () =>
        new Intl.NumberFormat(localeTag, {
          style: 'currency',
          currency,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
          signDisplay: 'exceptZero',
        }),
    );
    // A unit price keeps the precision it was sent with (metered usage: $0.0012 a call), from the currency's minor
    // units up to RATE_MAX_DIGITS; trailing zeros are trimmed back to the minor units ($150.00, $0.0375).
    this.rate = cached(
      `r|${localeTag}|${currency}|${digits}`,
      () =>
        new Intl.NumberFormat(localeTag, {
          style: 'currency',
          currency,
          minimumFractionDigits: digits,
          maximumFractionDigits: Math.max(digits, RATE_MAX_DIGITS),
        }),
    );
    this.quantity = cached(`q|${localeTag}`, () => new Intl.NumberFormat(localeTag, { maximumFractionDigits: 4 }));
    this.percent = cached(`p|${localeTag}`, () => new Intl.NumberFormat(localeTag, { style: 'percent', maximumFractionDigits: 4 }));
    this.dates = cached(`d|${localeTag}`, () => new Intl.DateTimeFormat(localeTag, { dateStyle: 'medium', timeZone: 'UTC' }));
  }

  formatMoney(value: Decimal): string {
    return this.money.format(numeric(value));
  }

  /** An amount that changes another, with its sign either way ("+€3.00", "-€12.00"): a line's charge or allowance. */
  formatSignedMoney(value: Decimal): string {
    return this.signedMoney.format(numeric(value));
  }

  /** A unit price (docs/decisions.md §2 rounds amounts, not rates): its own decimals, at least the currency's, at most 6. */
  formatRate(value: Decimal): string {
    return this.rate.format(numeric(value));
  }

  formatQuantity(value: Decimal): string {
    return this.quantity.format(numeric(value));
  }

  /** `rate` is a percentage (8 → "8%"). */
  formatPercent(rate: Decimal): string {
    return this.percent.format(numeric(rate.div(100)));
  }

  /** Decisions §4: an ISO calendar date is shown in the locale's medium style; anything else exactly as sent. */
  formatDate(value: string): string {
    const iso = parseIsoDate(value);
    return iso ? this.dates.format(iso) : value;
  }

  /** Today in `timeZone`, in the locale's medium style. */
  today(timeZone: string, now: Date = new Date()): string {
    return this.formatDate(todayIso(timeZone, now));
  }
}

/** How many Intl formatters are cached (for the tests of the bound). */
export function cachedFormatters(): number {
  return cache.size;
}
