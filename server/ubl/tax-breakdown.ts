// The VAT breakdown of a UBL document, derived from the shared totals so that EN 16931's arithmetic holds
// (BR-CO-14, BR-CO-17, BR-S-08 …): the lines and the discount carry the document's category and rate; shipping,
// which the totals never tax, is zero rated (Z) beside a standard-rated (S) document, or shares any other category.
// A flat tax becomes the rate that reproduces it. Throws 400s naming the field when a request cannot be expressed.
import type { DocumentRequest, TaxCategoryCode } from '../documents/model';
import { errors } from '../errors';
import { Decimal, rateReproducing, type Totals } from '../money/totals';

export interface TaxCategory {
  id: TaxCategoryCode;
  percent: Decimal;
  exemptionReason?: string;
  exemptionReasonCode?: string;
}

export interface TaxSubtotal {
  category: TaxCategory;
  taxable: Decimal;
  tax: Decimal;
}

export interface TaxBreakdown {
  lines: TaxCategory;
  shipping: TaxCategory;
  subtotals: TaxSubtotal[];
  total: Decimal;
}

/** Exemption reasons the categories other than S and Z must carry (BR-AE-10, BR-G-10, BR-O-10); E needs the client's. */
const DEFAULT_EXEMPTIONS: Partial<Record<TaxCategoryCode, { reason: string; code: string }>> = {
  AE: { reason: 'Reverse charge', code: 'VATEX-EU-AE' },
  G: { reason: 'Export outside the EU', code: 'VATEX-EU-G' },
  O: { reason: 'Not subject to VAT', code: 'VATEX-EU-O' },
};

export function taxBreakdown(doc: DocumentRequest, totals: Totals, anyVatId: boolean): TaxBreakdown {
  const e = doc.e_invoice ?? {};
  const taxable = totals.afterDiscount;
  const taxAmount = totals.tax.amount;
  const charged = !taxAmount.isZero();

  let percent: Decimal;
  if (!charged) percent = new Decimal(0);
  else if (totals.tax.mode === 'percent') percent = totals.tax.rate!;
  else {
    const rate = rateReproducing(taxAmount, taxable, totals.minorUnits);
    if (!rate) {
      throw errors.validation([
        { field: 'tax', message: 'a flat tax on a taxable amount of zero cannot be expressed as a VAT rate in a UBL e-invoice' },
      ]);
    }
    percent = rate;
  }

  const id: TaxCategoryCode = e.tax_category ?? (charged ? 'S' : anyVatId ? 'Z' : 'O');
  if (id === 'S' && !charged) {
    throw errors.validation([
      {
        field: 'e_invoice.tax_category',
        message: 'e_invoice.tax_category S (standard rate) needs a tax above 0; send tax, or use Z, E, AE, G or O',
      },
    ]);
  }
  if (id !== 'S' && charged) {
    throw errors.validation([
      {
        field: 'e_invoice.tax_category',
        message: `e_invoice.tax_category ${id} charges no VAT, but the document has a tax of ${taxAmount.toFixed()}; use S or send tax 0`,
      },
    ]);
  }
  const lines: TaxCategory = { id, percent };
  if (id !== 'S' && id !== 'Z') {
    const fallback = DEFAULT_EXEMPTIONS[id];
    lines.exemptionReason = e.tax_exemption_reason ?? (e.tax_exemption_reason_code ? undefined : fallback?.reason);
    lines.exemptionReasonCode = e.tax_exemption_reason_code ?? (e.tax_exemption_reason ? undefined : fallback?.code);
    if (!lines.exemptionReason && !lines.exemptionReasonCode) {
      throw errors.validation([
        {
          field: 'e_invoice.tax_exemption_reason',
          message: `e_invoice.tax_exemption_reason (or tax_exemption_reason_code) is required with tax_category ${id}`,
        },
      ]);
    }
  }

  const shippingApart = id === 'S' && !totals.shipping.amount.isZero();
  const shipping: TaxCategory = id === 'S' ? { id: 'Z', percent: new Decimal(0) } : lines;
  const subtotals: TaxSubtotal[] = [
    { category: lines, taxable: shippingApart || id === 'S' ? taxable : totals.taxExclusive, tax: taxAmount },
  ];
  if (shippingApart) subtotals.push({ category: shipping, taxable: totals.shipping.amount, tax: new Decimal(0) });
  return { lines, shipping, subtotals, total: taxAmount };
}
