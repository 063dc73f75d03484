// The parties of a UBL invoice: seller (BG-4), buyer (BG-7), payee (BG-10) and tax representative (BG-11), in the
// UBL PartyType order. Writes what the model holds; nothing inferred (map.ts filled the model).
import type { Identifier, Party, Payee, TaxRepresentative } from '../model';
import { address, any, cac, cbc, id, type Node } from './ubl-xml';

function taxScheme(p: Node, companyId: string | undefined, scheme: string): void {
  if (!any(companyId)) return;
  const el = cac(p, 'PartyTaxScheme');
  cbc(el, 'CompanyID', companyId);
  cbc(cac(el, 'TaxScheme'), 'ID', scheme);
}

/** `creditorId`: BT-90, the bank assigned creditor identifier, a seller (or payee) identifier with scheme SEPA. */
export function addParty(
  parent: Node,
  wrapper: 'AccountingSupplierParty' | 'AccountingCustomerParty',
  party: Party,
  creditorId?: string,
): void {
  const p = cac(cac(parent, wrapper), 'Party');
  if (party.endpoint) cbc(p, 'EndpointID', party.endpoint.id, { schemeID: party.endpoint.scheme });
  const ids: Identifier[] = [...(party.identifiers ?? []), ...(creditorId ? [{ id: creditorId, scheme: 'SEPA' }] : [])];
  for (const i of ids) id(cac(p, 'PartyIdentification'), 'ID', i); // BT-29 / BT-46, BT-90
  if (any(party.tradingName)) cbc(cac(p, 'PartyName'), 'Name', party.tradingName); // BT-28 / BT-45
  address(p, 'PostalAddress', party.address);
  taxScheme(p, party.vatId, 'VAT'); // BT-31 / BT-48
  taxScheme(p, party.taxRegistrationId, 'FC'); // BT-32: a tax registration that is not VAT
  const legal = cac(p, 'PartyLegalEntity');
  cbc(legal, 'RegistrationName', party.name); // BT-27 / BT-44
  id(legal, 'CompanyID', party.companyId); // BT-30 / BT-47
  cbc(legal, 'CompanyLegalForm', party.legalInfo); // BT-33
  const c = party.contact;
  if (c && any(c.name, c.phone, c.email)) {
    const contact = cac(p, 'Contact');
    cbc(contact, 'Name', c.name);
    cbc(contact, 'Telephone', c.phone);
    cbc(contact, 'ElectronicMail', c.email);
  }
}

export function addPayee(parent: Node, payee: Payee | undefined, creditorId?: string): void {
  if (!payee) return;
  const p = cac(parent, 'PayeeParty');
  const ids: Identifier[] = [...(payee.id ? [payee.id] : []), ...(creditorId ? [{ id: creditorId, scheme: 'SEPA' }] : [])];
  for (const i of ids) id(cac(p, 'PartyIdentification'), 'ID', i); // BT-60, BT-90
  cbc(cac(p, 'PartyName'), 'Name', payee.name); // BT-59
  if (payee.companyId) id(cac(p, 'PartyLegalEntity'), 'CompanyID', payee.companyId); // BT-61
}

export function addTaxRepresentative(parent: Node, rep: TaxRepresentative | undefined): void {
  if (!rep) return;
  const p = cac(parent, 'TaxRepresentativeParty');
  cbc(cac(p, 'PartyName'), 'Name', rep.name); // BT-62
  address(p, 'PostalAddress', rep.address); // BG-12
  taxScheme(p, rep.vatId, 'VAT'); // BT-63
}
