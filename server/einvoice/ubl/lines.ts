// The lines of a UBL invoice or credit note (BG-25 … BG-32), in the UBL InvoiceLineType / ItemType / PriceType order,
// and the allowances and charges of a line or of the document (BG-20, BG-21, BG-27, BG-28). Writes what the model holds.
import { decimalText } from '../../money/amount-text';
import type { LineAllowanceCharge, Line, VatCategory } from '../model';
import { any, cac, cbc, decimal, id, money, period, type Node } from './ubl-xml';

export interface Money {
  currency: string;
  digits: number;
}

/** cac:TaxCategory or cac:ClassifiedTaxCategory; `O` carries no rate at all (BR-O-05 … BR-O-09). */
export function addCategory(
  parent: Node,
  name: 'TaxCategory' | 'ClassifiedTaxCategory',
  category: VatCategory,
  exemption?: { reason?: string; code?: string },
): void {
  const c = cac(parent, name);
  cbc(c, 'ID', category.code);
  if (category.rate) cbc(c, 'Percent', decimalText(category.rate));
  if (exemption) {
    cbc(c, 'TaxExemptionReasonCode', exemption.code);
    cbc(c, 'TaxExemptionReason', exemption.reason);
  }
  cbc(cac(c, 'TaxScheme'), 'ID', 'VAT');
}

/** cac:AllowanceCharge: with its VAT category at document level, without on a line. */
export function addAllowanceCharge(parent: Node, a: LineAllowanceCharge, m: Money, vat?: VatCategory): void {
  const ac = cac(parent, 'AllowanceCharge');
  cbc(ac, 'ChargeIndicator', a.charge ? 'true' : 'false');
  cbc(ac, 'AllowanceChargeReasonCode', a.reasonCode);
  cbc(ac, 'AllowanceChargeReason', a.reason);
  if (a.percent) cbc(ac, 'MultiplierFactorNumeric', decimalText(a.percent));
  money(ac, 'Amount', a.amount, m.currency, m.digits);
  money(ac, 'BaseAmount', a.base, m.currency, m.digits);
  if (vat) addCategory(ac, 'TaxCategory', vat);
}

function addItem(line: Node, l: Line): void {
  const item = cac(line, 'Item');
  cbc(item, 'Description', l.description); // BT-154
  cbc(item, 'Name', l.name); // BT-153
  if (any(l.buyerItemId)) cbc(cac(item, 'BuyersItemIdentification'), 'ID', l.buyerItemId); // BT-156
  if (any(l.sellerItemId)) cbc(cac(item, 'SellersItemIdentification'), 'ID', l.sellerItemId); // BT-155
  if (l.standardItemId) id(cac(item, 'StandardItemIdentification'), 'ID', l.standardItemId); // BT-157
  if (any(l.originCountry)) cbc(cac(item, 'OriginCountry'), 'IdentificationCode', l.originCountry); // BT-159
  for (const c of l.classifications ?? []) {
    cbc(cac(item, 'CommodityClassification'), 'ItemClassificationCode', c.id, { listID: c.scheme, listVersionID: c.version }); // BT-158
  }
  addCategory(item, 'ClassifiedTaxCategory', l.vat); // BT-151, BT-152
  for (const a of l.attributes ?? []) {
    const p = cac(item, 'AdditionalItemProperty'); // BG-32
    cbc(p, 'Name', a.name);
    cbc(p, 'Value', a.value);
  }
}

function addPrice(line: Node, l: Line, m: Money): void {
  const price = cac(line, 'Price');
  decimal(price, 'PriceAmount', l.price, { currencyID: m.currency }); // BT-146
  decimal(price, 'BaseQuantity', l.baseQuantity, { unitCode: l.baseQuantityUnitCode ?? l.unitCode }); // BT-149, BT-150
  // A received document may state the discount without the gross price (BT-147 alone): written as received.
  if (l.grossPrice || l.priceDiscount) {
    const ac = cac(price, 'AllowanceCharge');
    cbc(ac, 'ChargeIndicator', 'false');
    decimal(ac, 'Amount', l.priceDiscount, { currencyID: m.currency }); // BT-147
    decimal(ac, 'BaseAmount', l.grossPrice, { currencyID: m.currency }); // BT-148
  }
}

export function addLine(parent: Node, credit: boolean, l: Line, m: Money, sub = false): void {
  const line = cac(parent, `${sub ? 'Sub' : ''}${credit ? 'CreditNoteLine' : 'InvoiceLine'}`);
  cbc(line, 'ID', l.id); // BT-126
  cbc(line, 'Note', l.note); // BT-127
  decimal(line, credit ? 'CreditedQuantity' : 'InvoicedQuantity', l.quantity, { unitCode: l.unitCode }); // BT-129, BT-130
  money(line, 'LineExtensionAmount', l.net, m.currency, m.digits); // BT-131
  cbc(line, 'AccountingCost', l.accountingReference); // BT-133
  period(line, l.period); // BG-26
  if (any(l.orderLineReference)) cbc(cac(line, 'OrderLineReference'), 'LineID', l.orderLineReference); // BT-132
  if (l.objectId) {
    const ref = cac(line, 'DocumentReference'); // BT-128: a document reference of type 130 (invoiced object)
    id(ref, 'ID', l.objectId);
    cbc(ref, 'DocumentTypeCode', '130');
  }
  for (const a of l.allowancesCharges ?? []) if (!a.charge) addAllowanceCharge(line, a, m); // BG-27
  for (const a of l.allowancesCharges ?? []) if (a.charge) addAllowanceCharge(line, a, m); // BG-28
  addItem(line, l);
  addPrice(line, l, m);
  // BG-DEX-01: sub-lines after the price, each a line of the same type (UBL InvoiceLineType's SubInvoiceLine).
  for (const sub of l.subLines ?? []) addLine(line, credit, sub, m, true);
}
