// What the totals of a document are (Totals, Adjustment) and what computing them reads (TotalsInput): the types the
// computation (totals.ts), its net form (inclusive.ts), its refusals (refusals.ts) and every output share, apart from
// the computation so that none of them imports another back. Types only.
import type { DocumentRequest, SubtotalMode, TaxCategoryCode } from '../documents/model';
import type { Decimal } from './decimal';
import type { DocumentAdjustment, SentDocumentAdjustment } from './document-adjustments';
import type { LineInput, LineTotal } from './lines';
import type { SentTax, SeveralTaxes } from './taxes';
import type { VatSplit } from './vat';

export interface Adjustment {
  /** `percent`: `rate` is a percentage of the base; `flat`: the amount as sent; `off`: no line. */
  mode: 'percent' | 'flat' | 'off';
  /** The percent rate (only in percent mode). */
  rate?: Decimal;
  amount: Decimal;
  /** Whether the document shows this line ("null or zero is omitted"). */
  shown: boolean;
}

export interface Totals {
  currency: string;
  minorUnits: number;
  lines: LineTotal[];
  /** Sum of line quantities (hours on a timesheet, units on a packing slip). */
  totalQuantity: Decimal;
  subtotal: Decimal;
  discount: Adjustment;
  tax: Adjustment;
  shipping: Adjustment;
  /** The subtotal after the discount: the base of a percent shipping charge. */
  afterDiscount: Decimal;
  /** e_invoice.allowances and .charges (BG-20, BG-21), allowances first, in the order sent. */
  documentAdjustments: DocumentAdjustment[];
  /** Their sums (without the discount and the shipping). */
  allowances: Decimal;
  charges: Decimal;
  /** afterDiscount − allowances + charges: the base of a percent document tax. */
  taxBase: Decimal;
  /** The total without tax (taxBase with shipping). */
  taxExclusive: Decimal;
  /** Statements: the sum of line payments. */
  payments: Decimal;
  total: Decimal;
  /** amount_paid, or amount_refunded on a credit note; the opening balance on a statement. */
  amountPaid: Decimal;
  /** e_invoice.rounding_amount (BT-114), added to the amount due. */
  rounding: Decimal;
  balance: Decimal;
  show: { subtotal: boolean; amountPaid: boolean; payments: boolean; rounding: boolean };
  /** Several taxes (`taxes`), one line each; the tax's amount is their sum. */
  taxes?: SeveralTaxes;
  /** BT-6 and BT-111: the VAT total in the VAT accounting currency, rounded to its minor units. */
  taxCurrency?: { code: string; tax: Decimal; minorUnits: number };
  /** The tax by rate (money/vat.ts): one group for a document tax, a group per rate and category for line rates. */
  vat: VatSplit;
  /** Prices include tax: the amounts above are gross (what the customer saw), the tax is included in the total and
   * taxExclusive is the net. */
  pricesIncludeTax: boolean;
  /** With prices that include tax, the same document in net amounts, as an e-invoice states it (inclusive.ts);
   * undefined when the taxes are not VAT rates (an e-invoice refuses them anyway). */
  net?: Totals;
}

export interface TotalsInput {
  type?: DocumentRequest['type'];
  currency: string;
  items: ReadonlyArray<
    LineInput & {
      /** A line's own VAT rate (percent) and category (money/vat.ts). */
      tax?: number | string;
      tax_category?: TaxCategoryCode;
      /** The titles of the taxes (`taxes`) the line is subject to. */
      taxes?: readonly string[];
    }
  >;
  taxes?: readonly SentTax[];
  fields: { tax: SubtotalMode; discounts: SubtotalMode; shipping: SubtotalMode };
  /** Every price and amount sent includes the tax. */
  prices_include_tax?: boolean;
  discounts?: number | string;
  tax?: number | string;
  shipping?: number | string;
  amount_paid?: number | string;
  amount_refunded?: number | string;
  e_invoice?: {
    allowances?: readonly SentDocumentAdjustment[];
    charges?: readonly SentDocumentAdjustment[];
    tax_currency?: { code: string; exchange_rate: number | string };
    rounding_amount?: number | string;
  };
}
