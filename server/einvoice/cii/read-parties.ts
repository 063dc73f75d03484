// The parties of a received CII document, read as KoSIT's cii-xr.xsl reads them: seller (BG-4), buyer (BG-7), payee
// (BG-10), tax representative (BG-11) and the deliver-to party with the delivery date (BG-13, BG-15), each with its
// address (BG-5, BG-8, BG-12, BG-15) and contact (BG-6, BG-9). A party's identifiers: ram:ID, or ram:GlobalID with its
// ISO 6523 scheme (a GlobalID without a scheme is no business term; a buyer's, payee's or deliver-to party's ram:ID
// gives way to a GlobalID with a scheme). The mirror of parties.ts; never throws on a missing part.
import type { Address, Delivery, Identifier, Party, Payee, TaxRepresentative } from '../model';
import { date, defined, identifier, X, type XmlNode } from './read-xml';

/** ram:PostalTradeAddress (BG-5, BG-8, BG-12, BG-15); an empty object when there is none. */
export function readAddress(party: XmlNode | undefined): Address {
  const a = X.one(party, 'ram:PostalTradeAddress');
  return defined({
    street: X.text(a, 'ram:LineOne'), // BT-35 / BT-50 / BT-64 / BT-75
    additionalStreet: X.text(a, 'ram:LineTwo'), // BT-36 / BT-51 / BT-65 / BT-76
    line3: X.text(a, 'ram:LineThree'), // BT-162 / BT-163 / BT-164 / BT-165
    city: X.text(a, 'ram:CityName'), // BT-37 / BT-52 / BT-66 / BT-77
    postalCode: X.text(a, 'ram:PostcodeCode'), // BT-38 / BT-53 / BT-67 / BT-78
    region: X.text(a, 'ram:CountrySubDivisionName'), // BT-39 / BT-54 / BT-68 / BT-79
    country: X.text(a, 'ram:CountryID'), // BT-40 / BT-55 / BT-69 / BT-80
  });
}

/** GlobalIDs with a scheme (ISO 6523), in document order. */
function globalIds(party: XmlNode | undefined): Identifier[] {
  return X.all(party, 'ram:GlobalID')
    .filter((g) => g.attrs.schemeID?.trim())
    .map(identifier)
    .filter((i): i is Identifier => i !== undefined);
}

/** BT-29 (the seller: every ram:ID, then every GlobalID with a scheme); `others` (BT-46, BT-60, BT-71): the ram:ID only
 * when no GlobalID with a scheme is there. */
function identifiers(party: XmlNode | undefined, seller: boolean): Identifier[] {
  const global = globalIds(party);
  if (!seller && global.length > 0) return global;
  const ids = X.all(party, 'ram:ID')
    .map(identifier)
    .filter((i): i is Identifier => i !== undefined);
  return [...ids, ...global];
}

/** BG-6 / BG-9. BT-41 / BT-56 is ram:PersonName or ram:DepartmentName: a department alone is the contact point's
 * name; beside a person's name it is kept apart (written back as DepartmentName). */
function contact(party: XmlNode | undefined): Party['contact'] {
  const c = X.one(party, 'ram:DefinedTradeContact');
  if (!c) return undefined;
  const person = X.text(c, 'ram:PersonName');
  const department = X.text(c, 'ram:DepartmentName');
  const read = defined({
    name: person ?? department,
    department: person !== undefined ? department : undefined,
    phone: X.text(c, 'ram:TelephoneUniversalCommunication/ram:CompleteNumber'), // BT-42 / BT-57
    email: X.text(c, 'ram:EmailURIUniversalCommunication/ram:URIID'), // BT-43 / BT-58
  });
  return Object.keys(read).length > 0 ? read : undefined;
}

/** The first ram:SpecifiedTaxRegistration/ram:ID whose scheme is one of `schemes`. */
function taxRegistration(party: XmlNode | undefined, ...schemes: string[]): string | undefined {
  const el = X.all(party, 'ram:SpecifiedTaxRegistration/ram:ID').find((i) => schemes.includes(i.attrs.schemeID?.trim() ?? ''));
  return X.text(el);
}

/** BT-34 / BT-49 with its EAS scheme ('' when the document names none). */
function endpoint(party: XmlNode | undefined): Party['endpoint'] {
  const el = X.one(party, 'ram:URIUniversalCommunication/ram:URIID');
  const id = X.text(el);
  return id === undefined ? undefined : { scheme: el!.attrs.schemeID?.trim() ?? '', id };
}

/** BG-4 (`seller`) or BG-7. */
export function readParty(party: XmlNode | undefined, seller: boolean): Party {
  const ids = identifiers(party, seller);
  return defined({
    name: X.text(party, 'ram:Name') ?? '', // BT-27 / BT-44
    endpoint: endpoint(party),
    address: readAddress(party),
    tradingName: X.text(party, 'ram:SpecifiedLegalOrganization/ram:TradingBusinessName'), // BT-28 / BT-45
    identifiers: ids.length > 0 ? ids : undefined, // BT-29 / BT-46
    vatId: seller ? taxRegistration(party, 'VA') : taxRegistration(party, 'VA', 'VAT'), // BT-31 / BT-48
    taxRegistrationId: taxRegistration(party, 'FC'), // BT-32 (a buyer's is kept as sent, no business term, as UBL's reader keeps it)
    companyId: identifier(X.one(party, 'ram:SpecifiedLegalOrganization/ram:ID')), // BT-30 / BT-47 with their scheme
    legalInfo: seller ? X.text(party, 'ram:Description') : undefined, // BT-33
    contact: contact(party),
  });
}

/** BG-10 (ram:PayeeTradeParty, in the settlement). */
export function readPayee(settlement: XmlNode | undefined): Payee | undefined {
  const p = X.one(settlement, 'ram:PayeeTradeParty');
  if (!p) return undefined;
  return defined({
    name: X.text(p, 'ram:Name') ?? '', // BT-59
    id: identifiers(p, false)[0], // BT-60
    companyId: identifier(X.one(p, 'ram:SpecifiedLegalOrganization/ram:ID')), // BT-61
  });
}

/** BG-11 with BG-12. */
export function readTaxRepresentative(agreement: XmlNode | undefined): TaxRepresentative | undefined {
  const p = X.one(agreement, 'ram:SellerTaxRepresentativeTradeParty');
  if (!p) return undefined;
  return {
    name: X.text(p, 'ram:Name') ?? '', // BT-62
    vatId: X.text(p, 'ram:SpecifiedTaxRegistration/ram:ID') ?? '', // BT-63
    address: readAddress(p),
  };
}

/** BG-13: the deliver-to party (BT-70, BT-71, BG-15) and the actual delivery date (BT-72). */
export function readDelivery(delivery: XmlNode | undefined): Delivery | undefined {
  const to = X.one(delivery, 'ram:ShipToTradeParty');
  const address = readAddress(to);
  const read = defined({
    name: X.text(to, 'ram:Name'),
    locationId: identifiers(to, false)[0],
    date: date(delivery, 'ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime'),
    address: Object.keys(address).length > 0 ? address : undefined,
  });
  return Object.keys(read).length > 0 ? read : undefined;
}
