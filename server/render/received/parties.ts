// The parties of a received e-invoice as labelled sections, with what the top of the page (names and addresses)
// does not say: the seller's and buyer's identifiers (VAT id BT-31/48, tax registration BT-32, legal registration
// with its scheme BT-30/47, other identifiers BT-29/46, electronic address with its scheme BT-34/49), trading name,
// legal information (BT-33) and contact (BG-6, BG-9); the payee (BG-10) and the tax representative (BG-11) whole;
// the delivery's location (BT-71). Plain data for the view; a section without a row is left out.
import type { EInvoice, Party } from '../../einvoice/model';
import { addressLines, type ReceivedContext } from './context';
import { rows, section, type ReceivedRow, type ReceivedSection } from './sections';

function partyRows(party: Party, { text, scheme }: ReceivedContext): ReceivedRow[] {
  const c = party.contact;
  const contact = c ? [c.name, c.department, c.phone, c.email].filter(Boolean).join('\n') : undefined;
  const ids = (party.identifiers ?? []).map((i) => scheme(i.id, i.scheme)).join('\n');
  return rows(
    [text('trading_name'), party.tradingName],
    [text('vat_id'), party.vatId],
    [text('tax_registration_id'), party.taxRegistrationId],
    [text('legal_registration_id'), party.companyId && scheme(party.companyId.id, party.companyId.scheme)],
    [text('identifier'), ids],
    [text('electronic_address'), party.endpoint && scheme(party.endpoint.id, party.endpoint.scheme)],
    [text('legal_info'), party.legalInfo],
    [text('contact'), contact],
  );
}

export function partySections(invoice: EInvoice, ctx: ReceivedContext): ReceivedSection[] {
  const { text, scheme, country } = ctx;
  const { payee, taxRepresentative: rep, delivery } = invoice;
  return [
    ...section('seller', text('seller'), partyRows(invoice.seller, ctx)),
    ...section('buyer', text('buyer'), partyRows(invoice.buyer, ctx)),
    ...section(
      'payee',
      text('payee'),
      rows(
        [text('name'), payee?.name],
        [text('identifier'), payee?.id && scheme(payee.id.id, payee.id.scheme)],
        [text('legal_registration_id'), payee?.companyId && scheme(payee.companyId.id, payee.companyId.scheme)],
      ),
    ),
    ...section(
      'tax-representative',
      text('tax_representative'),
      rows([text('name'), rep?.name], [text('vat_id'), rep?.vatId], [text('address'), addressLines(rep?.address, country).join('\n')]),
    ),
    ...section(
      'delivery',
      text('delivery'),
      rows([text('location'), delivery?.locationId && scheme(delivery.locationId.id, delivery.locationId.scheme)]),
    ),
  ];
}
