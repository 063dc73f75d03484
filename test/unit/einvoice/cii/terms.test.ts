// Every business term of the EN 16931 model in CII, group by group (BG-0 … BG-32): one model with every term set
// (test/helpers/einvoice-full.ts) is written by the CII writer and each value is read back at the place the EN 16931
// CII binding gives it (the CEN's CII rules name the context of every term; KoSIT's cii-xr.xsl its XPath). Values
// are compared with the model's, so a term that is written elsewhere, twice, or not at all fails here.
import { expect } from 'chai';
import { buildCii } from '../../../../server/einvoice/cii/build';
import type { EInvoice } from '../../../../server/einvoice/model';
import { amountText, decimalText } from '../../../../server/money/amount-text';
import type { Decimal } from '../../../../server/money/totals';
import { fullInvoice } from '../../../helpers/einvoice-full';
import { at, parse, type Doc } from '../../../helpers/xml-path';

const TX = 'rsm:SupplyChainTradeTransaction';
const AG = `${TX}/ram:ApplicableHeaderTradeAgreement`;
const DL = `${TX}/ram:ApplicableHeaderTradeDelivery`;
const ST = `${TX}/ram:ApplicableHeaderTradeSettlement`;
const LI = `${TX}/ram:IncludedSupplyChainTradeLineItem`;
const SUM = `${ST}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;

const ymd = (iso: string | undefined): string => (iso ?? '').replace(/-/g, '');
const amt = (v: Decimal | undefined): string => amountText(v!, 2);
const dec = (v: Decimal | undefined): string => decimalText(v!);

/** Address (BG-5, BG-8, BG-12, BG-15) under `base`. */
function address(base: string, a: EInvoice['seller']['address']): [string, string[]][] {
  const p = `${base}/ram:PostalTradeAddress`;
  return [
    [`${p}/ram:LineOne`, [a.street!]],
    [`${p}/ram:LineTwo`, [a.additionalStreet!]],
    [`${p}/ram:LineThree`, [a.line3!]],
    [`${p}/ram:CityName`, [a.city!]],
    [`${p}/ram:PostcodeCode`, [a.postalCode!]],
    [`${p}/ram:CountrySubDivisionName`, [a.region!]],
    [`${p}/ram:CountryID`, [a.country!]],
  ];
}

/** One group's terms: path → the values expected there, in document order. */
type Group = (e: EInvoice) => [string, string[]][];

const GROUPS: Record<string, Group> = {
  'BG-0 the invoice (BT-1 … BT-20)': (e) => [
    ['rsm:ExchangedDocument/ram:ID', [e.number]],
    ['rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString', [ymd(e.issueDate)]],
    ['rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString/@format', ['102']],
    ['rsm:ExchangedDocument/ram:TypeCode', [e.typeCode]],
    [`${ST}/ram:InvoiceCurrencyCode`, [e.currency]],
    [`${ST}/ram:TaxCurrencyCode`, [e.taxCurrency!.code]],
    [`${ST}/ram:ApplicableTradeTax/ram:DueDateTypeCode`, ['5']], // BT-8: UNTDID 2005 code 3 is 2475 code 5
    [`${ST}/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString`, []],
    [`${ST}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString`, [ymd(e.dueDate)]],
    [`${AG}/ram:BuyerReference`, [e.buyerReference!]],
    [`${AG}/ram:SpecifiedProcuringProject/ram:ID`, [e.projectReference!]],
    [`${AG}/ram:ContractReferencedDocument/ram:IssuerAssignedID`, [e.contractReference!]],
    [`${AG}/ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID`, [e.orderReference!]],
    [`${AG}/ram:SellerOrderReferencedDocument/ram:IssuerAssignedID`, [e.salesOrderReference!]],
    [`${DL}/ram:ReceivingAdviceReferencedDocument/ram:IssuerAssignedID`, [e.receivingAdvice!]],
    [`${DL}/ram:DespatchAdviceReferencedDocument/ram:IssuerAssignedID`, [e.despatchAdvice!]],
    [`${AG}/ram:AdditionalReferencedDocument[ram:TypeCode=50]/ram:IssuerAssignedID`, [e.tenderReference!]],
    [`${AG}/ram:AdditionalReferencedDocument[ram:TypeCode=130]/ram:IssuerAssignedID`, [e.invoicedObject!.id]],
    [`${AG}/ram:AdditionalReferencedDocument[ram:TypeCode=130]/ram:ReferenceTypeCode`, [e.invoicedObject!.scheme!]],
    [`${ST}/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID`, [e.buyerAccountingReference!]],
    [`${ST}/ram:SpecifiedTradePaymentTerms/ram:Description`, [[e.paymentTerms!, ...e.payment!.notes].join('\n')]],
  ],
  'BG-1 notes': (e) => [
    ['rsm:ExchangedDocument/ram:IncludedNote/ram:Content', e.notes.map((n) => n.text)],
    ['rsm:ExchangedDocument/ram:IncludedNote/ram:SubjectCode', ['AAI']],
  ],
  'BG-2 process control': (e) => [
    ['rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID', [e.businessProcess!]],
    ['rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID', ['urn:cen.eu:en16931:2017']],
  ],
  'BG-3 preceding invoice': (e) => [
    [`${ST}/ram:InvoiceReferencedDocument/ram:IssuerAssignedID`, [e.precedingInvoices[0]!.number]],
    [`${ST}/ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString`, [ymd(e.precedingInvoices[0]!.date)]],
  ],
  'BG-4, BG-5, BG-6 seller': (e) => {
    const s = `${AG}/ram:SellerTradeParty`;
    const p = e.seller;
    return [
      [`${s}/ram:Name`, [p.name]],
      [`${s}/ram:SpecifiedLegalOrganization/ram:TradingBusinessName`, [p.tradingName!]],
      [`${s}/ram:ID`, ['SUP-001']],
      [`${s}/ram:GlobalID`, ['4000001123452']],
      [`${s}/ram:GlobalID/@schemeID`, ['0088']],
      [`${s}/ram:SpecifiedLegalOrganization/ram:ID`, [p.companyId!.id]],
      [`${s}/ram:SpecifiedLegalOrganization/ram:ID/@schemeID`, [p.companyId!.scheme!]],
      [`${s}/ram:SpecifiedTaxRegistration/ram:ID`, [p.vatId!, p.taxRegistrationId!]],
      [`${s}/ram:SpecifiedTaxRegistration/ram:ID/@schemeID`, ['VA', 'FC']],
      [`${s}/ram:Description`, [p.legalInfo!]],
      [`${s}/ram:URIUniversalCommunication/ram:URIID`, [p.endpoint!.id]],
      [`${s}/ram:URIUniversalCommunication/ram:URIID/@schemeID`, [p.endpoint!.scheme]],
      ...address(s, p.address),
      [`${s}/ram:DefinedTradeContact/ram:PersonName`, [p.contact!.name!]],
      [`${s}/ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber`, [p.contact!.phone!]],
      [`${s}/ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID`, [p.contact!.email!]],
    ];
  },
  'BG-7, BG-8, BG-9 buyer': (e) => {
    const b = `${AG}/ram:BuyerTradeParty`;
    const p = e.buyer;
    return [
      [`${b}/ram:Name`, [p.name]],
      [`${b}/ram:SpecifiedLegalOrganization/ram:TradingBusinessName`, [p.tradingName!]],
      [`${b}/ram:GlobalID`, [p.identifiers![0]!.id]],
      [`${b}/ram:GlobalID/@schemeID`, [p.identifiers![0]!.scheme!]],
      [`${b}/ram:SpecifiedLegalOrganization/ram:ID`, [p.companyId!.id]],
      [`${b}/ram:SpecifiedLegalOrganization/ram:ID/@schemeID`, [p.companyId!.scheme!]],
      [`${b}/ram:SpecifiedTaxRegistration/ram:ID`, [p.vatId!]],
      [`${b}/ram:URIUniversalCommunication/ram:URIID`, [p.endpoint!.id]],
      [`${b}/ram:URIUniversalCommunication/ram:URIID/@schemeID`, [p.endpoint!.scheme]],
      ...address(b, p.address),
      [`${b}/ram:DefinedTradeContact/ram:PersonName`, [p.contact!.name!]],
      [`${b}/ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber`, [p.contact!.phone!]],
      [`${b}/ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID`, [p.contact!.email!]],
    ];
  },
  'BG-10 payee': (e) => [
    [`${ST}/ram:PayeeTradeParty/ram:Name`, [e.payee!.name]],
    [`${ST}/ram:PayeeTradeParty/ram:GlobalID`, [e.payee!.id!.id]],
    [`${ST}/ram:PayeeTradeParty/ram:GlobalID/@schemeID`, [e.payee!.id!.scheme!]],
    [`${ST}/ram:PayeeTradeParty/ram:SpecifiedLegalOrganization/ram:ID`, [e.payee!.companyId!.id]],
    [`${ST}/ram:PayeeTradeParty/ram:SpecifiedLegalOrganization/ram:ID/@schemeID`, [e.payee!.companyId!.scheme!]],
  ],
  'BG-11, BG-12 seller tax representative': (e) => [
    [`${AG}/ram:SellerTaxRepresentativeTradeParty/ram:Name`, [e.taxRepresentative!.name]],
    [`${AG}/ram:SellerTaxRepresentativeTradeParty/ram:SpecifiedTaxRegistration/ram:ID`, [e.taxRepresentative!.vatId]],
    [`${AG}/ram:SellerTaxRepresentativeTradeParty/ram:SpecifiedTaxRegistration/ram:ID/@schemeID`, ['VA']],
    ...address(`${AG}/ram:SellerTaxRepresentativeTradeParty`, e.taxRepresentative!.address),
  ],
  'BG-13, BG-15 delivery': (e) => [
    [`${DL}/ram:ShipToTradeParty/ram:Name`, [e.delivery!.name!]],
    [`${DL}/ram:ShipToTradeParty/ram:GlobalID`, [e.delivery!.locationId!.id]],
    [`${DL}/ram:ShipToTradeParty/ram:GlobalID/@schemeID`, [e.delivery!.locationId!.scheme!]],
    [`${DL}/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString`, [ymd(e.delivery!.date)]],
    ...address(`${DL}/ram:ShipToTradeParty`, e.delivery!.address!),
  ],
  'BG-14 invoicing period': (e) => [
    [`${ST}/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString`, [ymd(e.period!.start)]],
    [`${ST}/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString`, [ymd(e.period!.end)]],
  ],
  'BG-16 … BG-19 payment instructions': (e) => {
    const m = `${ST}/ram:SpecifiedTradeSettlementPaymentMeans`;
    const p = e.payment!;
    const more = p.additionalAccounts![0]!;
    // BG-17 repeated: the second account in a payment means of its own, under the same code.
    return [
      [`${m}/ram:TypeCode`, [p.code, p.code]],
      [`${m}/ram:Information`, [p.text!, p.text!]],
      [`${ST}/ram:PaymentReference`, [p.paymentId!]],
      [`${m}/ram:PayeePartyCreditorFinancialAccount/ram:IBANID`, [p.iban!, more.iban!]],
      [`${m}/ram:PayeePartyCreditorFinancialAccount/ram:AccountName`, [p.accountName!, more.accountName!]],
      [`${m}/ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID`, [p.bic!, more.bic!]],
      [`${m}/ram:ApplicableTradeSettlementFinancialCard/ram:ID`, [p.card!.number]],
      [`${m}/ram:ApplicableTradeSettlementFinancialCard/ram:CardholderName`, [p.card!.holder!]],
      [`${ST}/ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID`, [p.directDebit!.mandateReference!]],
      [`${ST}/ram:CreditorReferenceID`, [p.directDebit!.creditorId!]],
      [`${m}/ram:PayerPartyDebtorFinancialAccount/ram:IBANID`, [p.directDebit!.debitedAccount!]],
    ];
  },
  'BG-20, BG-21 document allowances and charges': (e) => {
    const a = `${ST}/ram:SpecifiedTradeAllowanceCharge`;
    const ac = e.allowancesCharges;
    return [
      [`${a}/ram:ChargeIndicator/udt:Indicator`, ac.map((x) => String(x.charge))],
      [`${a}/ram:ActualAmount`, ac.map((x) => amt(x.amount))],
      [`${a}/ram:BasisAmount`, [amt(ac[0]!.base)]],
      [`${a}/ram:CalculationPercent`, [dec(ac[0]!.percent)]],
      [`${a}/ram:ReasonCode`, ac.map((x) => x.reasonCode!)],
      [`${a}/ram:Reason`, ac.map((x) => x.reason!)],
      [`${a}/ram:CategoryTradeTax/ram:CategoryCode`, ac.map((x) => x.vat.code)],
      [`${a}/ram:CategoryTradeTax/ram:RateApplicablePercent`, ac.map((x) => dec(x.vat.rate))],
    ];
  },
  'BG-22 totals': (e) => {
    const t = e.totals;
    return [
      [`${SUM}/ram:LineTotalAmount`, [amt(t.lineNet)]],
      [`${SUM}/ram:AllowanceTotalAmount`, [amt(t.allowances)]],
      [`${SUM}/ram:ChargeTotalAmount`, [amt(t.charges)]],
      [`${SUM}/ram:TaxBasisTotalAmount`, [amt(t.taxExclusive)]],
      [`${SUM}/ram:TaxTotalAmount`, [amt(t.tax), amt(e.taxCurrency!.tax)]], // BT-110, BT-111
      [`${SUM}/ram:TaxTotalAmount/@currencyID`, [e.currency, e.taxCurrency!.code]],
      [`${SUM}/ram:GrandTotalAmount`, [amt(t.taxInclusive)]],
      [`${SUM}/ram:TotalPrepaidAmount`, [amt(t.prepaid)]],
      [`${SUM}/ram:RoundingAmount`, [amt(t.rounding)]],
      [`${SUM}/ram:DuePayableAmount`, [amt(t.payable)]],
    ];
  },
  'BG-23 VAT breakdown': (e) => {
    const b = `${ST}/ram:ApplicableTradeTax`;
    return [
      [`${b}/ram:BasisAmount`, e.vatBreakdown.map((x) => amt(x.taxable))],
      [`${b}/ram:CalculatedAmount`, e.vatBreakdown.map((x) => amt(x.tax))],
      [`${b}/ram:CategoryCode`, e.vatBreakdown.map((x) => x.category.code)],
      [`${b}/ram:RateApplicablePercent`, e.vatBreakdown.map((x) => dec(x.category.rate))],
      [`${b}/ram:ExemptionReason`, ['Exempt education']],
      [`${b}/ram:ExemptionReasonCode`, ['VATEX-EU-132-1I']],
    ];
  },
  'BG-24 supporting documents': (e) => {
    const d = `${AG}/ram:AdditionalReferencedDocument[ram:TypeCode=916]`;
    const [ts, dn] = e.documents;
    return [
      [`${d}/ram:IssuerAssignedID`, [ts!.id, dn!.id]],
      [`${d}/ram:Name`, [ts!.description!, dn!.description!]],
      [`${d}/ram:URIID`, [ts!.url!]],
      [`${d}/ram:AttachmentBinaryObject`, [dn!.content!.base64]],
      [`${d}/ram:AttachmentBinaryObject/@mimeCode`, [dn!.content!.mimeCode]],
      [`${d}/ram:AttachmentBinaryObject/@filename`, [dn!.content!.filename]],
    ];
  },
  'BG-25, BG-26 the lines, their periods and references': (e) => {
    const [l] = e.lines;
    return [
      [`${LI}/ram:AssociatedDocumentLineDocument/ram:LineID`, e.lines.map((x) => x.id)],
      [`${LI}/ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content`, [l!.note!]],
      [`${LI}/ram:SpecifiedLineTradeDelivery/ram:BilledQuantity`, e.lines.map((x) => dec(x.quantity))],
      [`${LI}/ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode`, e.lines.map((x) => x.unitCode)],
      [
        `${LI}/ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount`,
        e.lines.map((x) => amt(x.net)),
      ],
      [`${LI}/ram:SpecifiedLineTradeAgreement/ram:BuyerOrderReferencedDocument/ram:LineID`, [l!.orderLineReference!]],
      [`${LI}/ram:SpecifiedLineTradeSettlement/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID`, [l!.accountingReference!]],
      [`${LI}/ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument[ram:TypeCode=130]/ram:IssuerAssignedID`, [l!.objectId!.id]],
      [`${LI}/ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument/ram:ReferenceTypeCode`, [l!.objectId!.scheme!]],
      [`${LI}/ram:SpecifiedLineTradeSettlement/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString`, [ymd(l!.period!.start)]],
      [`${LI}/ram:SpecifiedLineTradeSettlement/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString`, [ymd(l!.period!.end)]],
    ];
  },
  'BG-27, BG-28 line allowances and charges': (e) => {
    const a = `${LI}/ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge`;
    const ac = e.lines[0]!.allowancesCharges!;
    return [
      [`${a}/ram:ChargeIndicator/udt:Indicator`, ['false', 'true']],
      [`${a}/ram:ActualAmount`, ac.map((x) => amt(x.amount))],
      [`${a}/ram:BasisAmount`, [amt(ac[0]!.base)]],
      [`${a}/ram:CalculationPercent`, [dec(ac[0]!.percent)]],
      [`${a}/ram:ReasonCode`, ac.map((x) => x.reasonCode!)],
      [`${a}/ram:Reason`, ac.map((x) => x.reason!)],
    ];
  },
  'BG-29, BG-30 price details and line VAT': (e) => {
    const p = `${LI}/ram:SpecifiedLineTradeAgreement`;
    const [l, l2] = e.lines;
    return [
      [`${p}/ram:NetPriceProductTradePrice/ram:ChargeAmount`, [dec(l!.price), dec(l2!.price)]],
      [`${p}/ram:NetPriceProductTradePrice/ram:BasisQuantity`, [dec(l!.baseQuantity)]],
      [`${p}/ram:NetPriceProductTradePrice/ram:BasisQuantity/@unitCode`, [l!.unitCode]],
      [`${p}/ram:GrossPriceProductTradePrice/ram:ChargeAmount`, [dec(l!.grossPrice)]],
      [`${p}/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge/ram:ActualAmount`, [dec(l!.priceDiscount)]],
      [`${LI}/ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode`, e.lines.map((x) => x.vat.code)],
      [`${LI}/ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent`, e.lines.map((x) => dec(x.vat.rate))],
    ];
  },
  'BG-31, BG-32 item information and attributes': (e) => {
    const i = `${LI}/ram:SpecifiedTradeProduct`;
    const [l] = e.lines;
    return [
      [`${i}/ram:Name`, e.lines.map((x) => x.name)],
      [`${i}/ram:Description`, [l!.description!]],
      [`${i}/ram:SellerAssignedID`, [l!.sellerItemId!]],
      [`${i}/ram:BuyerAssignedID`, [l!.buyerItemId!]],
      [`${i}/ram:GlobalID`, [l!.standardItemId!.id]],
      [`${i}/ram:GlobalID/@schemeID`, [l!.standardItemId!.scheme]],
      [`${i}/ram:DesignatedProductClassification/ram:ClassCode`, [l!.classifications![0]!.id]],
      [`${i}/ram:DesignatedProductClassification/ram:ClassCode/@listID`, [l!.classifications![0]!.scheme]],
      [`${i}/ram:DesignatedProductClassification/ram:ClassCode/@listVersionID`, [l!.classifications![0]!.version!]],
      [`${i}/ram:OriginTradeCountry/ram:ID`, [l!.originCountry!]],
      [`${i}/ram:ApplicableProductCharacteristic/ram:Description`, [l!.attributes![0]!.name]],
      [`${i}/ram:ApplicableProductCharacteristic/ram:Value`, [l!.attributes![0]!.value]],
    ];
  },
};

describe('CII: every business term at its place, group by group', function () {
  const invoice = fullInvoice('en16931');
  let doc: Doc;
  before(() => (doc = parse(buildCii(invoice))));

  for (const [group, terms] of Object.entries(GROUPS)) {
    it(group, function () {
      for (const [path, expected] of terms(invoice)) expect(at(doc, path), path).to.deep.equal(expected);
    });
  }

  it('BT-7 (the VAT point date) once, in the first breakdown, when it is given instead of BT-8', function () {
    const e = fullInvoice('en16931', 'point date');
    const d = parse(buildCii(e));
    expect(at(d, `${ST}/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString`)).to.deep.equal([ymd(e.taxPointDate)]);
    expect(at(d, `${ST}/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString/@format`)).to.deep.equal(['102']);
    expect(at(d, `${ST}/ram:ApplicableTradeTax/ram:DueDateTypeCode`)).to.deep.equal([]);
  });

  it('BT-8: each UNTDID 2005 code of the model as its UNTDID 2475 code (3 → 5, 35 → 29, 432 → 72)', function () {
    for (const [code, cii] of [
      ['3', '5'],
      ['35', '29'],
      ['432', '72'],
    ] as const) {
      const d = parse(buildCii({ ...invoice, taxPointDateCode: code }));
      expect(at(d, `${ST}/ram:ApplicableTradeTax/ram:DueDateTypeCode`), code).to.deep.equal([cii]);
    }
  });

  it('a credit note (381) carries the same terms with its own type code', function () {
    const d = parse(buildCii({ ...invoice, typeCode: '381' }));
    expect(at(d, 'rsm:ExchangedDocument/ram:TypeCode')).to.deep.equal(['381']);
    expect(at(d, `${ST}/ram:InvoiceReferencedDocument/ram:IssuerAssignedID`)).to.deep.equal(['RE-2026-0001']);
  });
});
