// The EN 16931 semantic model of an invoice: the business terms (BT-) and groups (BG-) every e-invoice syntax
// carries, filled once from a request and its totals (map.ts) and written out per syntax (ubl/, cii/). Amounts
// are Decimals already rounded by money/ (nothing here or in a serializer rounds money); texts are as sent.
// Types only: no syntax, no I/O.
import type { TaxCategoryCode } from '../documents/model';
import type { Decimal, LineAdjustment } from '../money/totals';

/** `peppol`: Peppol BIS Billing 3.0 (UBL only); `en16931`: the bare norm (Factur-X EN 16931 in CII); `xrechnung`:
 * XRechnung 3.0 (KoSIT); `minimum`, `basic_wl`, `basic`, `extended`: the other Factur-X / ZUGFeRD profiles (CII only);
 * `fr`, `extended_ctc_fr`: France's reform (XP Z12-012), the EN16931 and EXTENDED-CTC-FR profiles with the French
 * rules (france.ts). */
export type Profile = 'peppol' | 'en16931' | 'xrechnung' | 'minimum' | 'basic_wl' | 'basic' | 'extended' | 'fr' | 'extended_ctc_fr';

/** An identifier with its optional scheme (ISO/IEC 6523 ICD, UNTDID 1153, EAS: as the term says). */
export interface Identifier {
  id: string;
  scheme?: string;
}

/** A period (BG-14, BG-26): ISO dates, at least one. */
export interface Period {
  start?: string;
  end?: string;
}

/** UNCL5305 VAT categories (the schema's list): S standard, Z zero rated, E exempt, AE reverse charge, K
 * intra-community, G export, O not subject to VAT, L Canary Islands (IGIC), M Ceuta and Melilla (IPSI). */
export type VatCategoryCode = TaxCategoryCode;

/** A VAT category with its rate (BT-151/152, BT-95/96, BT-102/103, BT-118/119). `O` has no rate. */
export interface VatCategory {
  code: VatCategoryCode;
  /** The rate in percent (0 for Z, E, AE, K, G); undefined for O. */
  rate?: Decimal;
}

/** BG-23: one VAT breakdown per category and rate. */
export interface VatBreakdown {
  category: VatCategory;
  /** BT-116: the sum of the category's line amounts, less its allowances, plus its charges. */
  taxable: Decimal;
  /** BT-117 */
  tax: Decimal;
  /** BT-120 / BT-121: why no VAT is charged (E, AE, K, G, O). */
  exemptionReason?: string;
  exemptionReasonCode?: string;
}

/** BG-5 / BG-8 postal address. */
export interface Address {
  /** BT-35 / BT-50 */
  street?: string;
  /** BT-36 / BT-51 */
  additionalStreet?: string;
  /** BT-162 / BT-163: a third line. */
  line3?: string;
  /** BT-37 / BT-52 */
  city?: string;
  /** BT-38 / BT-53 */
  postalCode?: string;
  /** BT-39 / BT-54 */
  region?: string;
  /** BT-40 / BT-55: ISO 3166-1 alpha-2. */
  country?: string;
}

/** BG-4 seller / BG-7 buyer. */
export interface Party {
  /** BT-27 / BT-44 */
  name: string;
  /** BT-34 / BT-49 electronic address, with its EAS scheme. */
  endpoint?: { scheme: string; id: string };
  address: Address;
  /** BT-28 / BT-45 */
  tradingName?: string;
  /** BT-29 seller identifiers (several) / BT-46 buyer identifier (one). */
  identifiers?: Identifier[];
  /** BT-31 / BT-48 */
  vatId?: string;
  /** BT-32 the seller's tax registration identifier (not VAT). */
  taxRegistrationId?: string;
  /** BT-30 / BT-47 legal registration identifier, with its ICD scheme (BT-30-1 / BT-47-1). */
  companyId?: Identifier;
  /** BT-33 additional legal information (seller). */
  legalInfo?: string;
  /** BG-6 / BG-9 contact: BT-41/56 name, BT-42/57 phone, BT-43/58 e-mail. `department`: BT-41/56 a second time, as a
   * received CII states it beside a person's name (ram:DepartmentName; a department alone is `name`). */
  contact?: { name?: string; department?: string; phone?: string; email?: string };
}

/** BG-27 line allowance / BG-28 line charge (BT-136 … BT-145): the amount, the base and percentage a percent one was
 * computed from, the reason and its code (UNCL5189 / UNCL7161); a reason, a code or both (BR-42, BR-44). As money/
 * computed it. */
export type LineAllowanceCharge = LineAdjustment;

/** BG-20 document level allowance / BG-21 document level charge (BT-92 … BT-105): a line adjustment with a VAT
 * category (BT-95/96, BT-102/103). */
export interface AllowanceCharge extends LineAllowanceCharge {
  vat: VatCategory;
}

/** BG-25: an invoice line. */
export interface Line {
  /** BT-126 */
  id: string;
  /** BT-127 */
  note?: string;
  /** BT-128 invoiced object identifier, with its UNTDID 1153 scheme. */
  objectId?: Identifier;
  /** BT-129, with BT-130 unit (UN/ECE Rec 20; C62 "one"). */
  quantity: Decimal;
  unitCode: string;
  /** BT-131: quantity × price ÷ base quantity, less the line's allowances, plus its charges, rounded. */
  net: Decimal;
  /** BT-132 referenced purchase order line. */
  orderLineReference?: string;
  /** BT-133 buyer accounting reference. */
  accountingReference?: string;
  /** BG-26 line period. */
  period?: Period;
  /** BG-27 / BG-28 */
  allowancesCharges?: LineAllowanceCharge[];
  /** BT-146: never negative (BR-27): a credit line is a negative quantity. */
  price: Decimal;
  /** BT-147 price discount and BT-148 gross price (with the discount the gross less the net price). */
  grossPrice?: Decimal;
  priceDiscount?: Decimal;
  /** BT-149 price base quantity (BT-150 its unit: the line's). */
  baseQuantity?: Decimal;
  /** BT-150 the price base quantity's unit when a received document gives it another than the line's (BT-130). */
  baseQuantityUnitCode?: string;
  /** BT-153 */
  name: string;
  /** BT-154 */
  description?: string;
  /** BT-155 seller's, BT-156 buyer's item identifier. */
  sellerItemId?: string;
  buyerItemId?: string;
  /** BT-157 standard item identifier with its ICD scheme (required). */
  standardItemId?: Required<Identifier>;
  /** BT-158 classifications: scheme (UNTDID 7143) and its version. */
  classifications?: { id: string; scheme: string; version?: string }[];
  /** BT-159 */
  originCountry?: string;
  /** BG-32 item attributes (BT-160 name, BT-161 value). */
  attributes?: { name: string; value: string }[];
  /** BT-151 / BT-152 */
  vat: VatCategory;
  /** Sub-lines that detail this line, each a line of its own (XRechnung's extension: cac:SubInvoiceLine, BG-DEX-01; CII
   * EXTENDED and EXTENDED-CTC-FR: line items with a ParentLineID). They inform: the document's sums count the line. */
  subLines?: Line[];
  /** A sub-line's kind where CII states it (ram:LineStatusReasonCode: DETAIL, GROUP, INFORMATION; EXT-FR-FE-163),
   * written back as read. */
  lineStatus?: string;
}

/** BG-10 payee (when it is not the seller). */
export interface Payee {
  /** BT-59 */
  name: string;
  /** BT-60 with its scheme */
  id?: Identifier;
  /** BT-61 with its scheme */
  companyId?: Identifier;
}

/** BG-11 seller tax representative, with BG-12 its address. */
export interface TaxRepresentative {
  /** BT-62 */
  name: string;
  /** BT-63 */
  vatId: string;
  address: Address;
}

/** BG-13 delivery information: BT-70 party name, BT-71 location (with its scheme), BT-72 date, BG-15 address. */
export interface Delivery {
  name?: string;
  locationId?: Identifier;
  date?: string;
  address?: Address;
}

/** BG-24 additional supporting document. */
export interface SupportingDocument {
  /** BT-122 */
  id: string;
  /** BT-123 */
  description?: string;
  /** BT-124 external location. */
  url?: string;
  /** BT-125 the attached file, base64, with its MIME code and file name. Absent with `pdf`: the service's own PDF,
   * written where the PDF is known (UBL). */
  content?: { base64: string; mimeCode: string; filename: string };
  /** The document's own PDF rendering, filled in by the writer (PDF_PLACEHOLDER in UBL). */
  pdf?: { filename: string };
}

/** BG-16 payment instructions. */
export interface PaymentInstructions {
  /** BT-81 (UNCL4461) and BT-82 its text. */
  code: string;
  text?: string;
  /** BT-83 remittance information. */
  paymentId?: string;
  /** BG-17 credit transfer: BT-84 the account as an IBAN, or `accountId` when it is not one, BT-85 account name,
   * BT-86 BIC (or a clearing code). */
  iban?: string;
  accountId?: string;
  /** BG-17 repeated: further accounts the payer may pay to, under the same payment means code. */
  additionalAccounts?: { iban?: string; accountId?: string; accountName?: string; bic?: string }[];
  accountName?: string;
  bic?: string;
  /** BG-18 payment card: BT-87 the last digits of its number, BT-88 its holder. */
  card?: { number: string; holder?: string };
  /** BG-19 direct debit: BT-89 mandate reference, BT-90 creditor identifier, BT-91 debited account. */
  directDebit?: { mandateReference?: string; creditorId?: string; debitedAccount?: string };
  /** Payment links, each as a note to the payer (name: url). */
  notes: string[];
}

/** The invoice (BG-0). */
export interface EInvoice {
  profile: Profile;
  /** BT-24 as received, when it is not the profile's own identifier (another CIUS, a ZUGFeRD 1 guideline): the
   * writers write it back unchanged. Absent on the service's own invoices. */
  specification?: string;
  /** BT-23 business process, when the request or the profile states one. */
  businessProcess?: string;
  /** BT-3 (UNTDID 1001): 380 commercial invoice (invoice, receipt), 381 credit note; a received document's own code
   * as sent (383 debit note, 384 corrected invoice, 389 self-billed invoice, 396 factored credit note, 751 …). UBL
   * writes the credit note codes as a CreditNote (ubl/build.ts). */
  typeCode: string;
  /** BT-1 */
  number: string;
  /** BT-2 / BT-9, ISO dates. */
  issueDate: string;
  dueDate?: string;
  /** BT-7 VAT point date (ISO) or BT-8 its UNTDID 2005 code; never both (BR-CO-3). */
  taxPointDate?: string;
  taxPointDateCode?: '3' | '35' | '432';
  /** BT-5 */
  currency: string;
  /** BT-6 with BT-111: the VAT accounting currency and the VAT total in it. */
  taxCurrency?: { code: string; tax: Decimal; minorUnits: number };
  /** BT-10 (XRechnung: the Leitweg-ID). */
  buyerReference?: string;
  /** BT-11 project, BT-12 contract, BT-13 purchase order, BT-14 sales order, BT-15 receiving advice, BT-16 despatch
   * advice, BT-17 tender or lot, BT-19 buyer accounting reference. */
  projectReference?: string;
  contractReference?: string;
  orderReference?: string;
  salesOrderReference?: string;
  receivingAdvice?: string;
  despatchAdvice?: string;
  tenderReference?: string;
  buyerAccountingReference?: string;
  /** BT-18 invoiced object identifier, with its UNTDID 1153 scheme. */
  invoicedObject?: Identifier;
  /** BG-3 preceding invoices: BT-25 number, BT-26 ISO date. */
  precedingInvoices: { number: string; date?: string }[];
  /** BG-1 notes: BT-21 subject code, BT-22 text. */
  notes: { subjectCode?: string; text: string }[];
  /** BT-20 payment terms. */
  paymentTerms?: string;
  /** BG-14 invoicing period. */
  period?: Period;
  seller: Party;
  buyer: Party;
  payee?: Payee;
  taxRepresentative?: TaxRepresentative;
  /** BG-13 */
  delivery?: Delivery;
  payment?: PaymentInstructions;
  allowancesCharges: AllowanceCharge[];
  vatBreakdown: VatBreakdown[];
  /** BG-22 */
  totals: {
    /** BT-106 */
    lineNet: Decimal;
    /** BT-107 / BT-108 (absent when zero) */
    allowances?: Decimal;
    charges?: Decimal;
    /** BT-109 */
    taxExclusive: Decimal;
    /** BT-110 */
    tax: Decimal;
    /** A received document that states no BT-110 (0..1 in EN 16931; `tax` is then 0): CII leaves it out again (UBL
     * needs the amount beside its breakdown). */
    taxAbsent?: boolean;
    /** BT-112 */
    taxInclusive: Decimal;
    /** BT-113 (absent when zero) */
    prepaid?: Decimal;
    /** BT-114 (absent when zero) */
    rounding?: Decimal;
    /** BT-115 */
    payable: Decimal;
  };
  lines: Line[];
  /** BG-24 supporting documents: the request's, and first the PDF rendering when attached (UBL with embed_pdf;
   * CII carries none of its own, Factur-X carries the XML in the PDF instead). */
  documents: SupportingDocument[];
  /** Decimal places of the currency (amounts are written with exactly this many). */
  minorUnits: number;
}
