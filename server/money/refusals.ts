// What the totals cannot be computed from, named field by field and refused at once (one validation_failed with every problem),
// before anything is computed: a line's or the document's adjustment with an amount and a percent (and the document
// ones' base and VAT category problems), several taxes that contradict themselves or `tax`, a line naming taxes the
// document does not send, a tax currency equal to the document's, prices that include a tax that is not a rate.
// Reads the request only; computes nothing.
import { errors, type FieldProblem } from '../errors';
import { documentAdjustmentProblems } from './document-adjustments';
import { lineProblems } from './lines';
import { mixProblems, taxesProblems } from './taxes';
import type { TotalsInput } from './totals-model';

function taxesOf(input: TotalsInput): FieldProblem[] {
  if (!input.taxes) {
    const stray = input.items.findIndex((item) => item.taxes !== undefined);
    if (stray < 0) return [];
    return [{ field: `items[${stray}].taxes`, message: `items[${stray}].taxes names taxes, but the document sends no taxes` }];
  }
  const e = input.e_invoice;
  const adjustments = [
    ...(e?.allowances ?? []).map((a, i) => ({ field: `e_invoice.allowances[${i}]`, categorized: a.tax_category !== undefined })),
    ...(e?.charges ?? []).map((a, i) => ({ field: `e_invoice.charges[${i}]`, categorized: a.tax_category !== undefined })),
  ];
  return [...mixProblems(input.tax, input.items, adjustments), ...taxesProblems(input.taxes, input.items)];
}

/** Prices that include tax need the tax as a rate: a flat amount cannot be taken out of them. */
function includedProblems(input: TotalsInput): FieldProblem[] {
  if (!input.prices_include_tax) return [];
  if (input.taxes) {
    const flat = input.taxes.findIndex((t) => t.amount !== undefined);
    if (flat < 0) return [];
    return [
      {
        field: `taxes[${flat}].amount`,
        message: `taxes[${flat}] is a flat amount, which prices cannot include (prices_include_tax): send its rate`,
      },
    ];
  }
  if (input.fields.tax !== true) return [];
  return [
    {
      field: 'prices_include_tax',
      message: 'prices_include_tax needs the tax as a rate (fields.tax "%"): a flat tax amount cannot be taken out of the prices',
    },
  ];
}

/** Throws one validation_failed naming every problem of the request's money, or returns. */
export function refuseMoneyProblems(input: TotalsInput): void {
  const problems = [
    ...lineProblems(input.items),
    ...documentAdjustmentProblems(input.e_invoice),
    ...taxesOf(input),
    ...includedProblems(input),
  ];
  const taxCurrency = input.e_invoice?.tax_currency;
  if (taxCurrency && taxCurrency.code.toUpperCase() === input.currency.toUpperCase()) {
    problems.push({
      field: 'e_invoice.tax_currency.code',
      message: `e_invoice.tax_currency.code must differ from the document's currency ${input.currency.toUpperCase()}`,
    });
  }
  if (problems.length > 0) throw errors.validation(problems);
}
