// The parties of a CII document: seller (BG-4, ram:SellerTradeParty), buyer (BG-7, ram:BuyerTradeParty), payee
// (BG-10, ram:PayeeTradeParty), tax representative (BG-11, ram:SellerTaxRepresentativeTradeParty) and the deliver-to
// party (BT-70, BT-71, BG-15, ram:ShipToTradeParty), each with its address (BG-5, BG-8, BG-12, BG-15) and contact
// (BG-6, BG-9). Element order follows the D16B TradePartyType sequence, which the Factur-X subsets keep. Writes what
// the model holds, nothing inferred (map.ts fills the model); what a profile cannot carry was refused before
// (profiles.ts), except the address lines MINIMUM reduces to a country by definition (`countryOnly`).
import type { Address, Delivery, Identifier, Party, Payee, TaxRepresentative } from '../model';
import { any, id, ram, text, type Node } from './cii-xml';

/** ram:PostalTradeAddress in the TradeAddressType order; `countryOnly`: the country alone (MINIMUM's seller). */
export function address(parent: Node, a: Address | undefined, countryOnly = false): void {
  if (!a || !any(a.postalCode, a.street, a.additionalStreet, a.line3, a.city, a.country, a.region)) return;
  const el = ram(parent, 'PostalTradeAddress');
  if (!countryOnly) {
    text(el, 'PostcodeCode', a.postalCode); // BT-38 / BT-53 / BT-67 / BT-78
    text(el, 'LineOne', a.street); // BT-35 / BT-50 / BT-64 / BT-75
    text(el, 'LineTwo', a.additionalStreet); // BT-36 / BT-51 / BT-65 / BT-76
    text(el, 'LineThree', a.line3); // BT-162 / BT-163 / BT-164 / BT-165
    text(el, 'CityName', a.city); // BT-37 / BT-52 / BT-66 / BT-77
  }
  text(el, 'CountryID', a.country); // BT-40 / BT-55 / BT-69 / BT-80
  if (!countryOnly) text(el, 'CountrySubDivisionName', a.region); // BT-39 / BT-54 / BT-68 / BT-79
}

/** ram:ID for an identifier without scheme, ram:GlobalID with its ISO 6523 scheme (BT-29, BT-46, BT-60, BT-71). */
function identifiers(el: Node, ids: Identifier[]): void {
  for (const i of ids) if (!i.scheme) text(el, 'ID', i.id);
  for (const i of ids) if (i.scheme) id(el, 'GlobalID', i);
}

function contact(el: Node, c: Party['contact']): void {
  if (!c || !any(c.name, c.department, c.phone, c.email)) return;
  const ct = ram(el, 'DefinedTradeContact');
  text(ct, 'PersonName', c.name); // BT-41 / BT-56
  text(ct, 'DepartmentName', c.department); // BT-41 / BT-56 beside the name, as received
  if (any(c.phone)) text(ram(ct, 'TelephoneUniversalCommunication'), 'CompleteNumber', c.phone); // BT-42 / BT-57
  if (any(c.email)) text(ram(ct, 'EmailURIUniversalCommunication'), 'URIID', c.email); // BT-43 / BT-58
}

function taxRegistration(el: Node, value: string | undefined, scheme: 'VA' | 'FC'): void {
  if (any(value)) text(ram(el, 'SpecifiedTaxRegistration'), 'ID', value, { schemeID: scheme });
}

/** `wrapper`: SellerTradeParty or BuyerTradeParty. `keyFigures`: MINIMUM (the seller's country as its only address,
 * no buyer address). */
export function party(parent: Node, wrapper: 'SellerTradeParty' | 'BuyerTradeParty', p: Party, keyFigures = false): void {
  const el = ram(parent, wrapper);
  identifiers(el, p.identifiers ?? []); // BT-29 / BT-46
  text(el, 'Name', p.name); // BT-27 / BT-44
  text(el, 'Description', p.legalInfo); // BT-33
  if (any(p.companyId?.id, p.tradingName)) {
    const legal = ram(el, 'SpecifiedLegalOrganization');
    id(legal, 'ID', p.companyId); // BT-30 / BT-47 with BT-30-1 / BT-47-1
    text(legal, 'TradingBusinessName', p.tradingName); // BT-28 / BT-45
  }
  contact(el, p.contact);
  if (!keyFigures || wrapper === 'SellerTradeParty') address(el, p.address, keyFigures);
  // BT-34 / BT-49: the electronic address, with its EAS scheme (EM: e-mail, 0204: Leitweg-ID, 9930: German VAT …).
  if (p.endpoint && any(p.endpoint.id)) text(ram(el, 'URIUniversalCommunication'), 'URIID', p.endpoint.id, { schemeID: p.endpoint.scheme });
  taxRegistration(el, p.vatId, 'VA'); // BT-31 / BT-48
  taxRegistration(el, p.taxRegistrationId, 'FC'); // BT-32
}

/** BG-10: BT-59 name, BT-60 identifier, BT-61 legal registration identifier. */
export function payee(parent: Node, p: Payee | undefined): void {
  if (!p) return;
  const el = ram(parent, 'PayeeTradeParty');
  identifiers(el, p.id ? [p.id] : []);
  text(el, 'Name', p.name);
  if (p.companyId && any(p.companyId.id)) id(ram(el, 'SpecifiedLegalOrganization'), 'ID', p.companyId);
}

/** BG-11: BT-62 name, BG-12 address, BT-63 VAT identifier. */
export function taxRepresentative(parent: Node, rep: TaxRepresentative | undefined): void {
  if (!rep) return;
  const el = ram(parent, 'SellerTaxRepresentativeTradeParty');
  text(el, 'Name', rep.name);
  address(el, rep.address);
  taxRegistration(el, rep.vatId, 'VA');
}

/** BG-13's party: BT-71 location identifier, BT-70 name, BG-15 address. */
export function shipTo(parent: Node, d: Delivery | undefined): void {
  if (!d || !(d.locationId || any(d.name) || d.address)) return;
  const el = ram(parent, 'ShipToTradeParty');
  identifiers(el, d.locationId ? [d.locationId] : []);
  text(el, 'Name', d.name);
  address(el, d.address);
}
