// The lines of a CII document (BG-25 … BG-32, ram:IncludedSupplyChainTradeLineItem) in the D16B / Factur-X sequence
// (line document, product, agreement, delivery, settlement), and the allowances and charges of a line or of the
// document (BG-20, BG-21, BG-27, BG-28, ram:SpecifiedTradeAllowanceCharge) with the VAT category they share.
// Writes what the model holds; computes nothing (a gross price's discount is the model's or gross less net).
import type { LineAllowanceCharge, Line, VatCategory } from '../model';
import { any, id, indicator, period, plain, ram, text, wrapped, type Amount, type Node } from './cii-xml';

/** ApplicableTradeTax on a line, CategoryTradeTax on an allowance or charge: the category and its rate. `O` (not
 * subject to VAT) has no rate at all (BR-O-05, BR-O-06, BR-O-07). */
export function category(el: Node, vat: VatCategory): void {
  text(el, 'TypeCode', 'VAT');
  text(el, 'CategoryCode', vat.code);
  if (vat.code !== 'O' && vat.rate !== undefined) text(el, 'RateApplicablePercent', plain(vat.rate));
}

/** BG-20 / BG-21 (with `vat`) and BG-27 / BG-28 (without). */
export function allowanceCharge(parent: Node, ac: LineAllowanceCharge, amount: Amount, vat?: VatCategory): void {
  const el = ram(parent, 'SpecifiedTradeAllowanceCharge');
  indicator(el, ac.charge);
  if (ac.percent) text(el, 'CalculationPercent', plain(ac.percent)); // BT-94 / BT-101 / BT-138 / BT-143
  if (ac.base) text(el, 'BasisAmount', amount(ac.base)); // BT-93 / BT-100 / BT-137 / BT-142
  text(el, 'ActualAmount', amount(ac.amount)); // BT-92 / BT-99 / BT-136 / BT-141
  text(el, 'ReasonCode', ac.reasonCode); // BT-98 / BT-105 / BT-140 / BT-145
  text(el, 'Reason', ac.reason); // BT-97 / BT-104 / BT-139 / BT-144
  if (vat) category(ram(el, 'CategoryTradeTax'), vat); // BT-95/96, BT-102/103
}

/** BG-31 item information, in the TradeProductType order. */
function product(item: Node, l: Line): void {
  const el = ram(item, 'SpecifiedTradeProduct');
  id(el, 'GlobalID', l.standardItemId); // BT-157
  text(el, 'SellerAssignedID', l.sellerItemId); // BT-155
  text(el, 'BuyerAssignedID', l.buyerItemId); // BT-156
  text(el, 'Name', l.name); // BT-153
  text(el, 'Description', l.description); // BT-154
  for (const a of l.attributes ?? []) {
    const c = ram(el, 'ApplicableProductCharacteristic'); // BG-32
    text(c, 'Description', a.name); // BT-160
    text(c, 'Value', a.value); // BT-161
  }
  for (const c of l.classifications ?? []) {
    text(ram(el, 'DesignatedProductClassification'), 'ClassCode', c.id, { listID: c.scheme, listVersionID: c.version }); // BT-158
  }
  wrapped(el, 'OriginTradeCountry', 'ID', l.originCountry); // BT-159
}

/** BG-29 price details: the gross price with its discount, then the net price, each per the base quantity. */
function prices(item: Node, l: Line): void {
  const el = ram(item, 'SpecifiedLineTradeAgreement');
  wrapped(el, 'BuyerOrderReferencedDocument', 'LineID', l.orderLineReference); // BT-132
  const base = l.baseQuantity ? plain(l.baseQuantity) : undefined;
  const baseUnit = l.baseQuantityUnitCode ?? l.unitCode; // BT-150: the line's unit unless a received document gave another
  // CII holds a price discount (BT-147) only inside a gross price: one received without its gross price (UBL allows it)
  // is written with the gross price it implies, the net price plus the discount (BT-146 = BT-148 − BT-147).
  const grossPrice = l.grossPrice ?? (l.priceDiscount ? l.price.add(l.priceDiscount) : undefined);
  if (grossPrice) {
    const gross = ram(el, 'GrossPriceProductTradePrice');
    text(gross, 'ChargeAmount', plain(grossPrice)); // BT-148
    text(gross, 'BasisQuantity', base, { unitCode: baseUnit });
    // Also a zero discount, as UBL writes it: a received document may state one (BT-147 = 0).
    const discount = l.priceDiscount;
    if (discount) {
      const ac = ram(gross, 'AppliedTradeAllowanceCharge');
      indicator(ac, false);
      text(ac, 'ActualAmount', plain(discount)); // BT-147
    }
  }
  const net = ram(el, 'NetPriceProductTradePrice');
  text(net, 'ChargeAmount', plain(l.price)); // BT-146
  text(net, 'BasisQuantity', base, { unitCode: baseUnit }); // BT-149, BT-150
}

/** A sub-line's kind when the model does not say: it informs (the sums count its line), as a UBL sub-line does. */
const SUB_LINE_STATUS = 'INFORMATION';

/** BG-25. A credit line is a negative quantity at a positive price (BR-27). `subLines`: the profile carries them, each
 * a line item after its line with the line's id as its ParentLineID (EXT-FR-FE-162) and its kind (EXT-FR-FE-163). */
export function addLine(transaction: Node, l: Line, amount: Amount, subLines = false, parent?: Line): void {
  const item = ram(transaction, 'IncludedSupplyChainTradeLineItem');
  const doc = ram(item, 'AssociatedDocumentLineDocument');
  text(doc, 'LineID', l.id); // BT-126
  if (parent) text(doc, 'ParentLineID', parent.id);
  text(doc, 'LineStatusReasonCode', l.lineStatus ?? (parent ? SUB_LINE_STATUS : undefined));
  if (any(l.note)) text(ram(doc, 'IncludedNote'), 'Content', l.note); // BT-127
  product(item, l);
  prices(item, l);
  text(ram(item, 'SpecifiedLineTradeDelivery'), 'BilledQuantity', plain(l.quantity), { unitCode: l.unitCode }); // BT-129/130
  const settlement = ram(item, 'SpecifiedLineTradeSettlement');
  category(ram(settlement, 'ApplicableTradeTax'), l.vat); // BT-151 / BT-152
  period(settlement, l.period); // BG-26
  for (const a of l.allowancesCharges ?? []) if (!a.charge) allowanceCharge(settlement, a, amount); // BG-27
  for (const a of l.allowancesCharges ?? []) if (a.charge) allowanceCharge(settlement, a, amount); // BG-28
  text(ram(settlement, 'SpecifiedTradeSettlementLineMonetarySummation'), 'LineTotalAmount', amount(l.net)); // BT-131
  if (l.objectId) {
    const ref = ram(settlement, 'AdditionalReferencedDocument'); // BT-128: a document of type 130 (invoiced object)
    text(ref, 'IssuerAssignedID', l.objectId.id);
    text(ref, 'TypeCode', '130');
    text(ref, 'ReferenceTypeCode', l.objectId.scheme);
  }
  wrapped(settlement, 'ReceivableSpecifiedTradeAccountingAccount', 'ID', l.accountingReference); // BT-133
  if (subLines) for (const sub of l.subLines ?? []) addLine(transaction, sub, amount, true, l);
}
