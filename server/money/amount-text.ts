// Amounts and other decimals as the e-invoice syntaxes write them (UBL and CII alike): "." as the decimal mark, no
// exponent, no thousands separator, never "-0". The one writer of money for every syntax, so no syntax rounds on
// its own (before, UBL rounded an amount_paid of 10.005 while CII failed on it with an internal error).
// Must not round: amounts arrive rounded by totals.ts; an amount with more decimals than its currency has is a bug
// of money/ and throws.
import type { Decimal } from './decimal';

/** A decimal without exponent or trailing zeros (quantities, rates, unit prices); never "-0". */
export function decimalText(value: Decimal): string {
  return (value.isZero() ? value.abs() : value).toFixed();
}

/** An amount with exactly `minorUnits` decimals (EUR 10.50, JPY 1050, KWD 10.500). */
export function amountText(value: Decimal, minorUnits: number): string {
  if (value.decimalPlaces() > minorUnits) {
    throw new Error(`an amount has ${value.decimalPlaces()} decimals, more than ${minorUnits}: money/ must round it first`);
  }
  return (value.isZero() ? value.abs() : value).toFixed(minorUnits);
}
