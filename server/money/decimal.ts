// The one decimal type of money/: decimal.js with 40 significant digits, ties rounded away from zero, and the one
// rounding of an amount to a currency's minor units. No I/O.
import DecimalBase from 'decimal.js';

/** Our own Decimal: 40 significant digits, ties rounded away from zero. */
export const Decimal = DecimalBase.clone({ precision: 40, rounding: DecimalBase.ROUND_HALF_UP });
export type Decimal = InstanceType<typeof Decimal>;

export function roundMoney(value: Decimal, digits: number): Decimal {
  return value.toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);
}
