// The parties of a received UBL invoice read into the model: seller (BG-4 … BG-6), buyer (BG-7 … BG-9), payee
// (BG-10), tax representative (BG-11, BG-12) and delivery (BG-13, BG-15), at the places KoSIT's mapping reads them
// (ubl-invoice-xr.xsl). A party identifier with scheme SEPA is BT-90, the creditor identifier, never a BT-29 or BT-60:
// it is handed back beside the party. A missing required name is ''. Mirror of parties.ts and build.ts's delivery.
import type { Delivery, Identifier, Party, Payee, TaxRepresentative } from '../model';
import { address, defined, identifier, U, type XmlNode } from './read-xml';

const SEPA = 'SEPA';

/** The party's identifiers (cac:PartyIdentification), with `sepa` the SEPA creditor identifier apart (the seller's
 * and the payee's; KoSIT reads no SEPA scheme on the buyer, whose identifiers are all BT-46). */
function identifiers(p: XmlNode | undefined, sepa: boolean): { ids: Identifier[]; creditorId?: string } {
  const ids: Identifier[] = [];
  let creditorId: string | undefined;
  for (const el of U.all(p, 'cac:PartyIdentification')) {
    const i = identifier(el, 'cbc:ID');
    if (!i) continue;
    if (sepa && i.scheme === SEPA) creditorId ??= i.id;
    else ids.push(i);
  }
  return { ids, creditorId };
}

/** The CompanyID of the party's tax scheme `VAT` (BT-31, BT-48, BT-63) or of any other (BT-32). */
function taxSchemeId(p: XmlNode | undefined, vat: boolean): string | undefined {
  const scheme = U.all(p, 'cac:PartyTaxScheme').find((s) => {
    const id = U.text(s, 'cac:TaxScheme/cbc:ID');
    return id !== undefined && (id === 'VAT') === vat;
  });
  return U.text(scheme, 'cbc:CompanyID');
}

function contact(p: XmlNode | undefined): Party['contact'] {
  const c = U.one(p, 'cac:Contact');
  if (!c) return undefined;
  const out = defined({ name: U.text(c, 'cbc:Name'), phone: U.text(c, 'cbc:Telephone'), email: U.text(c, 'cbc:ElectronicMail') });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** cac:AccountingSupplierParty or cac:AccountingCustomerParty: the party, and BT-90 when the seller carries it. */
export function readParty(
  root: XmlNode,
  wrapper: 'AccountingSupplierParty' | 'AccountingCustomerParty',
): { party: Party; creditorId?: string } {
  const p = U.one(root, `cac:${wrapper}/cac:Party`);
  const { ids, creditorId } = identifiers(p, wrapper === 'AccountingSupplierParty');
  const endpoint = U.one(p, 'cbc:EndpointID');
  const endpointId = U.text(endpoint);
  const party: Party = defined({
    name: U.text(p, 'cac:PartyLegalEntity/cbc:RegistrationName') ?? '', // BT-27 / BT-44
    endpoint: endpointId === undefined ? undefined : { scheme: endpoint?.attrs.schemeID?.trim() ?? '', id: endpointId }, // BT-34 / BT-49
    address: address(p, 'cac:PostalAddress') ?? {}, // BG-5 / BG-8
    tradingName: U.text(p, 'cac:PartyName/cbc:Name'), // BT-28 / BT-45
    identifiers: ids.length > 0 ? ids : undefined, // BT-29 / BT-46
    vatId: taxSchemeId(p, true), // BT-31 / BT-48
    taxRegistrationId: taxSchemeId(p, false), // BT-32 (a buyer's is kept as sent, no business term)
    companyId: identifier(p, 'cac:PartyLegalEntity/cbc:CompanyID'), // BT-30 / BT-47
    legalInfo: U.text(p, 'cac:PartyLegalEntity/cbc:CompanyLegalForm'), // BT-33
    contact: contact(p), // BG-6 / BG-9
  });
  return { party, creditorId };
}

/** BG-10, and BT-90 when the payee carries it. */
export function readPayee(root: XmlNode): { payee?: Payee; creditorId?: string } {
  const p = U.one(root, 'cac:PayeeParty');
  if (!p) return {};
  const { ids, creditorId } = identifiers(p, true);
  const payee: Payee = defined({
    name: U.text(p, 'cac:PartyName/cbc:Name') ?? '', // BT-59
    id: ids[0], // BT-60
    companyId: identifier(p, 'cac:PartyLegalEntity/cbc:CompanyID'), // BT-61
  });
  return { payee, creditorId };
}

/** BG-11 with BG-12. */
export function readTaxRepresentative(root: XmlNode): TaxRepresentative | undefined {
  const p = U.one(root, 'cac:TaxRepresentativeParty');
  if (!p) return undefined;
  return {
    name: U.text(p, 'cac:PartyName/cbc:Name') ?? '', // BT-62
    vatId: taxSchemeId(p, true) ?? '', // BT-63
    address: address(p, 'cac:PostalAddress') ?? {}, // BG-12
  };
}

/** BG-13 with BG-15: undefined when the document has no delivery term. */
export function readDelivery(root: XmlNode): Delivery | undefined {
  const d = U.one(root, 'cac:Delivery');
  if (!d) return undefined;
  const delivery: Delivery = defined({
    name: U.text(d, 'cac:DeliveryParty/cac:PartyName/cbc:Name'), // BT-70
    locationId: identifier(d, 'cac:DeliveryLocation/cbc:ID'), // BT-71
    date: U.text(d, 'cbc:ActualDeliveryDate'), // BT-72
    address: address(d, 'cac:DeliveryLocation/cac:Address'), // BG-15
  });
  return Object.keys(delivery).length > 0 ? delivery : undefined;
}
