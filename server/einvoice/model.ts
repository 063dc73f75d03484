// The EN 16931 semantic model of an invoice: the business terms (BT-) and groups (BG-) every e-invoice syntax
// carries, filled once from a request and its totals (map.ts) and written out per syntax (ubl.ts, cii.ts). Amounts
// are Decimals already rounded by money/ (nothing here or in a serializer rounds money); texts are as sent.
// Types only: no syntax, no I/O.
import type { TaxCategoryCode } from '../documents/model';
import type { Decimal } from '../money/totals';

/** `peppol`: Peppol BIS Billing 3.0 (UBL only); `en16931`: the bare norm; `xrechnung`: XRechnung 3.0 (KoSIT). */
export type Profile = 'peppol' | 'en16931' | 'xrechnung';

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
  /** BT-31 / BT-48 */
  vatId?: string;
  /** BT-30 / BT-47 legal registration identifier. */
  companyId?: string;
  /** BG-6 / BG-9 contact: BT-41/56 name, BT-42/57 phone, BT-43/58 e-mail. */
  contact?: { name?: string; phone?: string; email?: string };
}

/** BG-20 document level allowance / BG-21 document level charge. */
export interface AllowanceCharge {
  charge: boolean;
  /** BT-92 / BT-99 */
  amount: Decimal;
  /** BT-93 / BT-100 with BT-94 / BT-101: the base and percentage a percent adjustment was computed from. */
  base?: Decimal;
  percent?: Decimal;
  /** BT-97 / BT-104 */
  reason: string;
  /** BT-98 (UNCL5189) / BT-105 (UNCL7161) */
  reasonCode: string;
  /** BT-95/96 or BT-102/103 */
  vat: VatCategory;
}

/** BG-25: an invoice line. */
export interface Line {
  /** BT-126 */
  id: string;
  /** BT-129, with BT-130 unit (UN/ECE Rec 20; C62 "one"). */
  quantity: Decimal;
  unitCode: string;
  /** BT-131: quantity × price, rounded. */
  net: Decimal;
  /** BT-146: never negative (BR-27): a credit line is a negative quantity. */
  price: Decimal;
  /** BT-153 */
  name: string;
  /** BT-154 */
  description?: string;
  /** BT-151 / BT-152 */
  vat: VatCategory;
}

/** BG-16 payment instructions. */
export interface PaymentInstructions {
  /** BT-81 (UNCL4461) and BT-82 its text. */
  code: string;
  text?: string;
  /** BT-83 remittance information. */
  paymentId?: string;
  /** BG-17 credit transfer: BT-84 IBAN, BT-85 account name, BT-86 BIC. */
  iban?: string;
  accountName?: string;
  bic?: string;
  /** Payment links, each as a note to the payer (name: url). */
  notes: string[];
}

/** The invoice (BG-0). */
export interface EInvoice {
  profile: Profile;
  /** BT-3: 380 commercial invoice (invoice, receipt), 381 credit note. */
  typeCode: '380' | '381';
  /** BT-1 */
  number: string;
  /** BT-2 / BT-9, ISO dates. */
  issueDate: string;
  dueDate?: string;
  /** BT-5 */
  currency: string;
  /** BT-10 (XRechnung: the Leitweg-ID). */
  buyerReference?: string;
  /** BT-13 purchase order reference. */
  orderReference?: string;
  /** BT-25 preceding invoice (a receipt's or credit note's invoice). */
  precedingInvoice?: string;
  /** BT-22 notes. */
  notes: string[];
  /** BT-20 payment terms. */
  paymentTerms?: string;
  seller: Party;
  buyer: Party;
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
    /** BT-112 */
    taxInclusive: Decimal;
    /** BT-113 (absent when zero) */
    prepaid?: Decimal;
    /** BT-115 */
    payable: Decimal;
  };
  lines: Line[];
  /** BG-24: the PDF rendering attached (UBL; CII carries none, Factur-X carries the XML in the PDF instead). */
  attachment?: { id: string; description: string; filename: string; mimeCode: 'application/pdf' };
  /** Decimal places of the currency (amounts are written with exactly this many). */
  minorUnits: number;
}
