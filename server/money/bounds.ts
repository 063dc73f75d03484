// The computed amounts held to the bound every amount sent has (MAX_AMOUNT): amounts each within it can multiply past
// it (a quantity of 1e12 at a unit cost of 1e12 is 1e24, a tiny price_base_quantity divides up to 1e34), which no PDF,
// UBL or CII should print. Reads the totals; computes nothing.
import type { FieldProblem } from '../errors';
import type { Decimal } from './decimal';
import type { Totals } from './totals';

/** The lines (the first ten) and totals whose amount is beyond ±`maxAmount`, as problems naming them. */
export function amountBoundProblems(totals: Totals, maxAmount: number): FieldProblem[] {
  const over = (value: Decimal) => value.abs().gt(maxAmount);
  const bound = maxAmount.toLocaleString('en-US');
  const lines = totals.lines.flatMap((line, i): FieldProblem[] =>
    over(line.amount)
      ? [{ field: `items[${i}]`, message: `items[${i}] amounts to ${line.amount.toFixed()}; a line may amount to at most ${bound}` }]
      : [],
  );
  const sums: [string, Decimal][] = [
    ['subtotal', totals.subtotal],
    ['total', totals.total],
    ['balance_due', totals.balance],
  ];
  const whole = sums.flatMap(([field, value]): FieldProblem[] =>
    over(value)
      ? [{ field, message: `the ${field.replace('_', ' ')} comes to ${value.toFixed()}; a document may come to at most ${bound}` }]
      : [],
  );
  return [...lines.slice(0, 10), ...whole];
}
