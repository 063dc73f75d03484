// The invoice lines of the EN 16931 model (BG-25 … BG-32) from the request's items and their totals (money/ computed
// every amount): quantity and unit, net amount, price with its gross price and base quantity, the line's allowances
// and charges, period, identifiers, classifications, origin and attributes. Knows no syntax, computes no amount.
import type { DocumentRequest } from '../documents/model';
import type { Totals } from '../money/totals';
import type { Line, Period, VatCategory } from './model';

/** UN/ECE Rec 20 C62: "one" (a unit of count), the unit of a line that names none. */
export const DEFAULT_UNIT = 'C62';

export function linesOf(doc: DocumentRequest, totals: Totals, vat: VatCategory[], periods: (Period | undefined)[]): Line[] {
  return doc.items.map((item, i): Line => {
    const t = totals.lines[i]!;
    // EN 16931 forbids a negative price (BR-27): a credit line is a negative quantity at a positive price.
    const negativePrice = t.unitCost.isNegative();
    const price = negativePrice ? t.unitCost.neg() : t.unitCost;
    return {
      id: item.line_id ?? String(i + 1),
      note: item.note,
      objectId: item.object_id ? { id: item.object_id.id, scheme: item.object_id.scheme } : undefined,
      quantity: negativePrice ? t.quantity.neg() : t.quantity,
      unitCode: item.unit ?? DEFAULT_UNIT,
      net: t.amount,
      orderLineReference: item.order_line_reference,
      accountingReference: item.accounting_reference,
      period: periods[i],
      allowancesCharges: t.adjustments,
      price,
      grossPrice: t.grossPrice,
      priceDiscount: t.priceDiscount,
      baseQuantity: t.baseQuantity,
      name: item.name ?? item.description ?? `Line ${i + 1}`,
      description: item.description,
      sellerItemId: item.seller_item_id ?? item.sku, // BT-155: the seller's item id, else the SKU
      buyerItemId: item.buyer_item_id,
      standardItemId: item.standard_item_id ? { id: item.standard_item_id.id, scheme: item.standard_item_id.scheme } : undefined,
      classifications: item.classifications?.map((c) => ({ id: c.id, scheme: c.scheme, version: c.version })),
      originCountry: item.origin_country,
      attributes: item.attributes?.map((a) => ({ name: a.name, value: a.value })),
      vat: vat[i]!,
    };
  });
}
