// The computed amounts held to bounds: a line's amount to the one every amount sent has (MAX_AMOUNT), the document's
// sums to a larger one (SUM_BOUND): amounts each within MAX_AMOUNT can multiply past it (a quantity of 1e12 at a unit
// cost of 1e12 is 1e24, a tiny price_base_quantity divides up to 1e34), which no PDF, UBL or CII should print, while
// lines each within it may add up past it in a currency of large numbers (IRR, VND). Reads the totals; computes nothing.
import type { FieldProblem } from '../errors';
import type { Decimal } from './decimal';
import type { Totals } from './totals';

/** The largest sum a document may come to: 1e15, still exact to the cent in a double. */
const SUM_BOUND = 1e15;

/** A decimal with its thousands grouped, as the bounds are written. */
const grouped = (value: Decimal | number): string => {
  const [whole, fraction] = (typeof value === 'number' ? value.toFixed(0) : value.toFixed()).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
};

/** The lines (the first ten) whose amount is beyond ±`maxAmount`, and the total (or else the balance) beyond ±1e15. */
export function amountBoundProblems(totals: Totals, maxAmount: number): FieldProblem[] {
  const lines = totals.lines.flatMap((line, i): FieldProblem[] =>
    line.amount.abs().gt(maxAmount)
      ? [
          {
            field: `items[${i}]`,
            message: `items[${i}] amounts to ${grouped(line.amount)}; a line may amount to at most ${grouped(maxAmount)}`,
          },
        ]
      : [],
  );
  const sum = (
    [
      ['total', totals.total],
      ['balance_due', totals.balance],
    ] as [string, Decimal][]
  ).find(([, v]) => v.abs().gt(SUM_BOUND));
  const whole: FieldProblem[] = sum
    ? [
        {
          field: sum[0],
          message: `the ${sum[0].replace('_', ' ')} comes to ${grouped(sum[1])}; a document may come to at most ${grouped(SUM_BOUND)}`,
        },
      ]
    : [];
  return [...lines.slice(0, 10), ...whole];
}
