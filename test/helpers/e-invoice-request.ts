// The structured e-invoice data the HTTP tests send (request JSON, not the model): a Belgian seller and a Dutch buyer
// with what EN 16931 and Peppol ask of them (countries, VAT ids, electronic addresses), and a credit transfer. One
// place, so that every e-invoice test starts from the same conformant parties.
export const SELLER = {
  country: 'BE',
  vat_id: 'BE0123456749',
  company_id: '0123456749',
  street: 'Rue Neuve 1',
  city: 'Brussels',
  postal_code: '1000',
  endpoint: { scheme: '0208', id: '0123456749' },
  email: 'billing@example.be',
};

export const BUYER = {
  country: 'NL',
  vat_id: 'NL123456789B01',
  street: 'Oudegracht 10',
  city: 'Utrecht',
  postal_code: '3511',
  endpoint: { scheme: '0106', id: '12345678' },
};

/** Seller, buyer, a buyer reference and a credit transfer: the `e_invoice` of a conformant Peppol invoice. */
export const E_INVOICE = {
  seller: SELLER,
  buyer: BUYER,
  buyer_reference: 'PO-77',
  payment_means: { code: '30', iban: 'BE71096123456769', bic: 'GKCCBEBB' },
};

/** A request for an XRechnung 3.0 e-invoice, valid under its rules (the official examples have no XRechnung). */
export const XRECHNUNG_REQUEST = {
  type: 'invoice',
  number: 'XR-1',
  date: '2026-11-02',
  due_date: '2026-12-02',
  from: 'Beispiel GmbH\nHauptstraße 1\n10115 Berlin',
  to: 'Kunde AG\nMarkt 2\n80331 München',
  currency: 'EUR',
  tax: 19,
  fields: { tax: '%' },
  items: [{ name: 'Beratung', quantity: 2, unit_cost: 150 }],
  e_invoice: {
    ...E_INVOICE,
    profile: 'xrechnung',
    buyer_reference: '04011000-12345-67',
    seller: {
      ...SELLER,
      country: 'DE',
      vat_id: 'DE123456789',
      contact_name: 'Erika Muster',
      phone: '+49 30 123456',
      email: 'erika@example.de',
    },
    buyer: { ...BUYER, country: 'DE', vat_id: 'DE987654321' },
    payment_means: { code: '58', iban: 'DE02120300000000202051' },
  },
};
