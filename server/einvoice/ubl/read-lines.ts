// The lines of a received UBL invoice or credit note (BG-25 … BG-32: cac:InvoiceLine or cac:CreditNoteLine) and the
// allowances and charges of a line or of the document (BG-20, BG-21, BG-27, BG-28), read into the model at the places
// KoSIT's mapping reads them (ubl-invoice-xr.xsl, ubl-creditnote-xr.xsl). Amounts, quantities and prices exactly as
// sent. Mirror of lines.ts.
import { Decimal } from '../../money/totals';
import type { AllowanceCharge, Line, LineAllowanceCharge } from '../model';
import { amount, attr, category, decimal, defined, identifier, indicator, period, U, type XmlNode } from './read-xml';

/** One cac:AllowanceCharge (BT-92 … BT-98 / BT-99 … BT-105 without its category, BT-136 … BT-145). */
export function readAllowanceCharge(ac: XmlNode): LineAllowanceCharge {
  return defined({
    charge: indicator(ac, 'cbc:ChargeIndicator'),
    amount: amount(ac, 'cbc:Amount'),
    base: decimal(ac, 'cbc:BaseAmount'),
    percent: decimal(ac, 'cbc:MultiplierFactorNumeric'),
    reason: U.text(ac, 'cbc:AllowanceChargeReason'),
    reasonCode: U.text(ac, 'cbc:AllowanceChargeReasonCode'),
  });
}

/** BG-20 and BG-21, each with its VAT category (BT-95/96, BT-102/103), in document order. */
export function readDocumentAllowancesCharges(root: XmlNode): AllowanceCharge[] {
  return U.all(root, 'cac:AllowanceCharge').map((ac) => ({
    ...readAllowanceCharge(ac),
    vat: category(U.one(ac, 'cac:TaxCategory')),
  }));
}

/** The text of every element at `path`, as one text line by line (UBL allows several where the norm has one). */
function texts(node: XmlNode, path: string): string | undefined {
  const all = U.all(node, path)
    .map((n) => U.text(n))
    .filter((t): t is string => t !== undefined);
  return all.length > 0 ? all.join('\n') : undefined;
}

/** BG-31 item information and BG-30 its VAT (BT-151 … BT-161). */
function item(
  node: XmlNode,
): Pick<
  Line,
  'name' | 'description' | 'sellerItemId' | 'buyerItemId' | 'standardItemId' | 'classifications' | 'originCountry' | 'attributes' | 'vat'
> {
  const it = U.one(node, 'cac:Item');
  const standard = identifier(it, 'cac:StandardItemIdentification/cbc:ID');
  const classifications = U.all(it, 'cac:CommodityClassification/cbc:ItemClassificationCode').flatMap((c) => {
    const id = U.text(c);
    return id === undefined ? [] : [defined({ id, scheme: attr(c, 'listID') ?? '', version: attr(c, 'listVersionID') })];
  });
  const attributes = U.all(it, 'cac:AdditionalItemProperty').map((p) => ({
    name: U.text(p, 'cbc:Name') ?? '',
    value: U.text(p, 'cbc:Value') ?? '',
  }));
  return defined({
    name: U.text(it, 'cbc:Name') ?? '', // BT-153
    description: it && texts(it, 'cbc:Description'), // BT-154
    sellerItemId: U.text(it, 'cac:SellersItemIdentification/cbc:ID'), // BT-155
    buyerItemId: U.text(it, 'cac:BuyersItemIdentification/cbc:ID'), // BT-156
    standardItemId: standard && { id: standard.id, scheme: standard.scheme ?? '' }, // BT-157
    classifications: classifications.length > 0 ? classifications : undefined, // BT-158
    originCountry: U.text(it, 'cac:OriginCountry/cbc:IdentificationCode'), // BT-159
    attributes: attributes.length > 0 ? attributes : undefined, // BG-32
    vat: category(U.one(it, 'cac:ClassifiedTaxCategory')), // BT-151, BT-152
  });
}

/** BG-29 price details (BT-146 … BT-150): the price discount and gross price from the price's allowance. */
function price(
  node: XmlNode,
  unitCode: string,
): Pick<Line, 'price' | 'grossPrice' | 'priceDiscount' | 'baseQuantity' | 'baseQuantityUnitCode'> {
  const p = U.one(node, 'cac:Price');
  const discount = U.all(p, 'cac:AllowanceCharge').find((ac) => !indicator(ac, 'cbc:ChargeIndicator'));
  const baseUnit = attr(U.one(p, 'cbc:BaseQuantity'), 'unitCode');
  return defined({
    price: amount(p, 'cbc:PriceAmount'), // BT-146
    priceDiscount: decimal(discount, 'cbc:Amount'), // BT-147
    grossPrice: decimal(discount, 'cbc:BaseAmount'), // BT-148
    baseQuantity: decimal(p, 'cbc:BaseQuantity'), // BT-149
    baseQuantityUnitCode: baseUnit !== undefined && baseUnit !== unitCode ? baseUnit : undefined, // BT-150
  });
}

/** One line (BG-25); `credit`: a cac:CreditNoteLine with its cbc:CreditedQuantity. */
function readLine(node: XmlNode, credit: boolean): Line {
  const quantity = U.one(node, credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity');
  const unitCode = attr(quantity, 'unitCode') ?? '';
  const object = U.all(node, 'cac:DocumentReference').find((r) => U.text(r, 'cbc:DocumentTypeCode') === '130');
  const adjustments = U.all(node, 'cac:AllowanceCharge').map(readAllowanceCharge);
  return defined({
    id: U.text(node, 'cbc:ID') ?? '', // BT-126
    note: texts(node, 'cbc:Note'), // BT-127
    objectId: identifier(object, 'cbc:ID'), // BT-128
    quantity: decimal(quantity) ?? new Decimal(0), // BT-129
    unitCode, // BT-130
    net: amount(node, 'cbc:LineExtensionAmount'), // BT-131
    orderLineReference: U.text(node, 'cac:OrderLineReference/cbc:LineID'), // BT-132
    accountingReference: U.text(node, 'cbc:AccountingCost'), // BT-133
    period: period(node), // BG-26
    allowancesCharges: adjustments.length > 0 ? adjustments : undefined, // BG-27, BG-28
    ...price(node, unitCode),
    ...item(node),
    subLines: subLines(node, credit), // BG-DEX-01
  });
}

/** The sub-lines of a line (cac:SubInvoiceLine, cac:SubCreditNoteLine), each read as a line, to any depth. */
function subLines(node: XmlNode, credit: boolean): Line[] | undefined {
  const subs = U.all(node, credit ? 'cac:SubCreditNoteLine' : 'cac:SubInvoiceLine').map((l) => readLine(l, credit));
  return subs.length > 0 ? subs : undefined;
}

/** Every line of the document, in document order. */
export function readLines(root: XmlNode, credit: boolean): Line[] {
  return U.all(root, credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine').map((l) => readLine(l, credit));
}
