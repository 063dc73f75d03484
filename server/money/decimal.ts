// The one decimal type of money/: decimal.js with 40 significant digits, ties rounded away from zero, and the one
// rounding of an amount to a currency's minor units. No I/O.
import DecimalBase from 'decimal.js';

/** Our own Decimal: 40 significant digits, ties rounded away from zero. */
export const Decimal = DecimalBase.clone({ precision: 40, rounding: DecimalBase.ROUND_HALF_UP });
export type Decimal = InstanceType<typeof Decimal>;

/** The most decimals a number sent in a request keeps (prices, quantities, rates): a float's noise (0.1 + 0.2 is
 * 0.30000000000000004) and a hostile 1e-300 become what a document can print and an XSD decimal can hold. */
export const SENT_DECIMALS = 10;

/** A number as the request sent it, to SENT_DECIMALS decimals. */
export function sentDecimal(value: number | string): Decimal {
  return new Decimal(value).toDecimalPlaces(SENT_DECIMALS, Decimal.ROUND_HALF_UP);
}

export function roundMoney(value: Decimal, digits: number): Decimal {
  return value.toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);
}
