// The seller and buyer of a CII document (BG-4 / BG-7, with BG-5/8 address and BG-6/9 contact) as
// ram:SellerTradeParty / ram:BuyerTradeParty. Element order follows the D16B TradePartyType sequence, which the
// Factur-X EN 16931 subset keeps. Writes what the model holds, nothing inferred (map.ts fills the model).
import type { Address, Party } from './model';
import { any, ram, text, type Node } from './cii-xml';

function address(parent: Node, a: Address): void {
  if (!any(a.postalCode, a.street, a.additionalStreet, a.line3, a.city, a.country, a.region)) return;
  const el = ram(parent, 'PostalTradeAddress');
  text(el, 'PostcodeCode', a.postalCode); // BT-38 / BT-53
  text(el, 'LineOne', a.street); // BT-35 / BT-50
  text(el, 'LineTwo', a.additionalStreet); // BT-36 / BT-51
  text(el, 'LineThree', a.line3); // BT-162 / BT-163
  text(el, 'CityName', a.city); // BT-37 / BT-52
  text(el, 'CountryID', a.country); // BT-40 / BT-55
  text(el, 'CountrySubDivisionName', a.region); // BT-39 / BT-54
}

/** `wrapper`: SellerTradeParty or BuyerTradeParty. */
export function party(parent: Node, wrapper: 'SellerTradeParty' | 'BuyerTradeParty', p: Party): void {
  const el = ram(parent, wrapper);
  text(el, 'Name', p.name); // BT-27 / BT-44
  if (p.companyId && any(p.companyId.id)) {
    const scheme = p.companyId.scheme ? { schemeID: p.companyId.scheme } : undefined;
    text(ram(el, 'SpecifiedLegalOrganization'), 'ID', p.companyId.id, scheme); // BT-30 / BT-47
  }
  const c = p.contact;
  if (c && any(c.name, c.phone, c.email)) {
    const contact = ram(el, 'DefinedTradeContact');
    text(contact, 'PersonName', c.name); // BT-41 / BT-56
    if (any(c.phone)) text(ram(contact, 'TelephoneUniversalCommunication'), 'CompleteNumber', c.phone); // BT-42 / BT-57
    if (any(c.email)) text(ram(contact, 'EmailURIUniversalCommunication'), 'URIID', c.email); // BT-43 / BT-58
  }
  address(el, p.address);
  // BT-34 / BT-49: the electronic address, with its EAS scheme (EM: e-mail, 0204: Leitweg-ID, 9930: German VAT …).
  if (p.endpoint && any(p.endpoint.id)) text(ram(el, 'URIUniversalCommunication'), 'URIID', p.endpoint.id, { schemeID: p.endpoint.scheme });
  if (any(p.vatId)) text(ram(el, 'SpecifiedTaxRegistration'), 'ID', p.vatId, { schemeID: 'VA' }); // BT-31 / BT-48
}
