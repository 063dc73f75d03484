// The French invoice the France tests start from (profile fr or extended_ctc_fr): a seller in Paris and a buyer in
// Lyon with their SIREN, the seller's SIRET, goods and services (M1), VAT on debits, domestic B2B, a credit transfer.
/** A French B2B invoice: goods and services (M1), VAT on debits, SIREN and SIRET, a credit transfer. */
export function frenchRequest(profile = 'fr', overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base = {
    from: 'Atelier Lumière SARL\n35 rue de la Paix\n75002 Paris',
    to: 'Client SAS\n1 place Bellecour\n69002 Lyon',
    number: 'F-2026-0042',
    date: '2026-11-20',
    due_date: '2026-12-20',
    currency: 'EUR',
    tax: 20,
    items: [
      { name: 'Lampe de bureau', quantity: 2, unit_cost: 89.5 },
      { name: 'Installation', quantity: 1.5, unit_cost: 60, unit: 'HUR' },
    ],
    e_invoice: {
      profile,
      operation_category: 'mixed',
      vat_on: 'debits',
      processing: 'B2B',
      seller: {
        country: 'FR',
        vat_id: 'FR32123456789',
        siren: '123456789',
        siret: '12345678900017',
        street: '35 rue de la Paix',
        city: 'Paris',
        postal_code: '75002',
      },
      buyer: {
        country: 'FR',
        vat_id: 'FR61987654321',
        siren: '987654321',
        street: '1 place Bellecour',
        city: 'Lyon',
        postal_code: '69002',
      },
      payment_means: { code: '30', iban: 'FR7630006000011234567890189' },
    },
  };
  return { ...base, ...overrides };
}
