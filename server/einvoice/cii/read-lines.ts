// The lines of a received CII document (BG-25 … BG-32, ram:IncludedSupplyChainTradeLineItem) and the allowances and
// charges of a line or of the document (BG-20, BG-21, BG-27, BG-28, ram:SpecifiedTradeAllowanceCharge) with the VAT
// category they share, read as KoSIT's cii-xr.xsl reads them. Amounts, prices and quantities exactly as sent. The
// mirror of lines.ts; never throws on a missing part ('' for a missing name, 0 for a missing amount).
import type { AllowanceCharge, Line, LineAllowanceCharge, VatCategory, VatCategoryCode } from '../model';
import { amount, decimal, defined, period, X, type XmlNode } from './read-xml';

/** ram:ApplicableTradeTax / ram:CategoryTradeTax: BT-151/152, BT-95/96, BT-102/103, BT-118/119. */
export function readCategory(tax: XmlNode | undefined): VatCategory {
  return defined({ code: (X.text(tax, 'ram:CategoryCode') ?? '') as VatCategoryCode, rate: decimal(tax, 'ram:RateApplicablePercent') });
}

/** BG-27 / BG-28 (and, with its category, BG-20 / BG-21). */
export function readAllowanceCharge(el: XmlNode): LineAllowanceCharge {
  const indicator = X.text(el, 'ram:ChargeIndicator/udt:Indicator'); // xs:boolean: true or 1 a charge
  return defined({
    charge: indicator === 'true' || indicator === '1',
    amount: amount(el, 'ram:ActualAmount'), // BT-92 / BT-99 / BT-136 / BT-141
    base: decimal(el, 'ram:BasisAmount'), // BT-93 / BT-100 / BT-137 / BT-142
    percent: decimal(el, 'ram:CalculationPercent'), // BT-94 / BT-101 / BT-138 / BT-143
    reason: X.text(el, 'ram:Reason'), // BT-97 / BT-104 / BT-139 / BT-144
    reasonCode: X.text(el, 'ram:ReasonCode'), // BT-98 / BT-105 / BT-140 / BT-145
  });
}

/** BG-20 / BG-21 in the settlement, in document order. */
export function readDocumentAllowancesCharges(settlement: XmlNode | undefined): AllowanceCharge[] {
  return X.all(settlement, 'ram:SpecifiedTradeAllowanceCharge').map((el) => ({
    ...readAllowanceCharge(el),
    vat: readCategory(X.one(el, 'ram:CategoryTradeTax')),
  }));
}

/** BG-31 and BG-32: the item. */
function item(product: XmlNode | undefined): Partial<Line> {
  const standard = X.one(product, 'ram:GlobalID');
  const standardId = X.text(standard);
  const classifications = X.all(product, 'ram:DesignatedProductClassification/ram:ClassCode')
    .filter((c) => X.text(c) !== undefined)
    .map((c) => defined({ id: X.text(c)!, scheme: c.attrs.listID?.trim() ?? '', version: c.attrs.listVersionID?.trim() || undefined }));
  const attributes = X.all(product, 'ram:ApplicableProductCharacteristic').map((c) => ({
    name: X.text(c, 'ram:Description') ?? '', // BT-160
    value: X.text(c, 'ram:Value') ?? '', // BT-161
  }));
  return {
    name: X.text(product, 'ram:Name') ?? '', // BT-153
    description: X.text(product, 'ram:Description'), // BT-154
    sellerItemId: X.text(product, 'ram:SellerAssignedID'), // BT-155
    buyerItemId: X.text(product, 'ram:BuyerAssignedID'), // BT-156
    standardItemId: standardId === undefined ? undefined : { id: standardId, scheme: standard!.attrs.schemeID?.trim() ?? '' }, // BT-157
    classifications: classifications.length > 0 ? classifications : undefined, // BT-158
    originCountry: X.text(product, 'ram:OriginTradeCountry/ram:ID'), // BT-159
    attributes: attributes.length > 0 ? attributes : undefined, // BG-32
  };
}

/** BG-29: net price (BT-146), gross price (BT-148) with its discount (BT-147), base quantity (BT-149) and its unit
 * (BT-150; the gross price's when both prices state one, as KoSIT reads it). */
function prices(agreement: XmlNode | undefined, unitCode: string): Partial<Line> {
  const gross = X.one(agreement, 'ram:GrossPriceProductTradePrice');
  const net = X.one(agreement, 'ram:NetPriceProductTradePrice');
  const base = X.one(gross, 'ram:BasisQuantity') ?? X.one(net, 'ram:BasisQuantity');
  const baseUnit = base?.attrs.unitCode?.trim() ?? '';
  return {
    price: amount(net, 'ram:ChargeAmount'),
    grossPrice: decimal(gross, 'ram:ChargeAmount'),
    priceDiscount: decimal(gross, 'ram:AppliedTradeAllowanceCharge/ram:ActualAmount'),
    baseQuantity: decimal(base),
    baseQuantityUnitCode: base && baseUnit !== unitCode ? baseUnit : undefined,
    orderLineReference: X.text(agreement, 'ram:BuyerOrderReferencedDocument/ram:LineID'), // BT-132
  };
}

/** BT-128: the line's ram:AdditionalReferencedDocument of type 130, its scheme as ReferenceTypeCode. */
function objectId(settlement: XmlNode | undefined): Line['objectId'] {
  const ref = X.all(settlement, 'ram:AdditionalReferencedDocument').find((r) => X.text(r, 'ram:TypeCode') === '130');
  const id = X.text(ref, 'ram:IssuerAssignedID');
  return id === undefined ? undefined : defined({ id, scheme: X.text(ref, 'ram:ReferenceTypeCode') });
}

/** BG-25. */
export function readLine(li: XmlNode): Line {
  const settlement = X.one(li, 'ram:SpecifiedLineTradeSettlement');
  const quantity = X.one(li, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity');
  const unitCode = quantity?.attrs.unitCode?.trim() ?? '';
  const notes = X.all(li, 'ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content')
    .map((c) => X.text(c))
    .filter((t): t is string => t !== undefined);
  const acs = X.all(settlement, 'ram:SpecifiedTradeAllowanceCharge').map(readAllowanceCharge);
  return defined({
    id: X.text(li, 'ram:AssociatedDocumentLineDocument/ram:LineID') ?? '', // BT-126
    lineStatus: X.text(li, 'ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode'), // EXT-FR-FE-163
    note: notes.length > 0 ? notes.join('\n') : undefined, // BT-127
    objectId: objectId(settlement),
    quantity: amount(quantity), // BT-129
    unitCode, // BT-130
    net: amount(settlement, 'ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'), // BT-131
    accountingReference: X.text(settlement, 'ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID'), // BT-133
    period: period(settlement), // BG-26
    allowancesCharges: acs.length > 0 ? acs : undefined, // BG-27, BG-28
    ...prices(X.one(li, 'ram:SpecifiedLineTradeAgreement'), unitCode),
    ...item(X.one(li, 'ram:SpecifiedTradeProduct')),
    vat: readCategory(X.one(settlement, 'ram:ApplicableTradeTax')), // BG-30
  } as Line);
}

/** The line items as lines, those with a ParentLineID (EXT-FR-FE-162) as sub-lines of the line they name, at any depth
 * and in document order; one that names no line (or itself, or a loop) stays a line. */
export function readLineTree(items: readonly XmlNode[], nested: boolean): Line[] {
  const lines = items.map(readLine);
  const parents = items.map((li) => X.text(li, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID'));
  if (!nested || parents.every((p) => p === undefined)) return lines;
  const byId = new Map<string, number>();
  lines.forEach((l, i) => byId.has(l.id) || byId.set(l.id, i));
  const parentOf = (i: number): number | undefined => {
    const p = parents[i] === undefined ? undefined : byId.get(parents[i]!);
    if (p === undefined || p === i) return undefined;
    // A loop (a line that is its own ancestor) is read flat.
    for (let at: number | undefined = p, steps = 0; at !== undefined; steps++) {
      if (at === i || steps > lines.length) return undefined;
      at = parents[at] === undefined ? undefined : byId.get(parents[at]!);
    }
    return p;
  };
  const children = new Map<number, number[]>();
  const top: number[] = [];
  lines.forEach((_, i) => {
    const p = parentOf(i);
    if (p === undefined) top.push(i);
    else children.set(p, [...(children.get(p) ?? []), i]);
  });
  const nest = (i: number): Line => {
    const subs = children.get(i);
    return subs ? { ...lines[i]!, subLines: subs.map(nest) } : lines[i]!;
  };
  return top.map(nest);
}
