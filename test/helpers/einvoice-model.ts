// EN 16931 model objects (server/einvoice/model.ts) built by hand for the syntax tests, with the arithmetic the mapping
// will do: line net = quantity × price rounded; BT-106 = Σ lines; per VAT category and rate, taxable = its lines − its
// allowances + its charges, tax = taxable × rate rounded; totals from those. A test states the lines, adjustments and
// parties; every amount is derived here, so that a document is only as wrong as a test makes it on purpose.
import { Decimal, roundMoney } from '../../server/money/totals';
import type { AllowanceCharge, EInvoice, Party, VatCategory, VatCategoryCode } from '../../server/einvoice/model';

export const vat = (code: VatCategoryCode, rate?: string): VatCategory => ({
  code,
  rate: rate === undefined ? undefined : new Decimal(rate),
});

export interface LineSpec {
  quantity: string;
  price: string;
  vat: VatCategory;
  name?: string;
  description?: string;
  unitCode?: string;
}

/** An allowance or charge by amount, or by percentage of a base (the amount is then computed). */
export interface AdjustmentSpec {
  charge: boolean;
  vat: VatCategory;
  amount?: string;
  percent?: string;
  base?: string;
  reason: string;
  reasonCode: string;
}

export interface InvoiceSpec extends Partial<Omit<EInvoice, 'lines' | 'allowancesCharges' | 'vatBreakdown' | 'totals'>> {
  lines: LineSpec[];
  adjustments?: AdjustmentSpec[];
  /** BT-120 / BT-121 by category code (E, AE, K, G, O). */
  exemptions?: Partial<Record<VatCategoryCode, { reason: string; code: string }>>;
  prepaid?: string;
}

export const SELLER: Party = {
  name: 'Nordlicht Software GmbH',
  address: { street: 'Hafenstraße 12', city: 'Hamburg', postalCode: '20457', country: 'DE' },
  vatId: 'DE123456789',
  companyId: { id: 'HRB 123456' },
  contact: { name: 'Jana Berger', phone: '+49 40 1234567', email: 'billing@nordlicht.example' },
};

export const BUYER: Party = {
  name: 'Kunde AG',
  address: { street: 'Marktplatz 3', additionalStreet: 'Gebäude B', city: 'München', postalCode: '80331', country: 'DE' },
};

/** A French seller with every address line, and a French buyer. */
export const FR_SELLER: Party = {
  ...SELLER,
  name: 'Atelier Lumière SARL',
  address: {
    street: '35 rue de la Paix',
    additionalStreet: 'Cour intérieure',
    line3: 'Bâtiment C',
    city: 'Paris',
    postalCode: '75002',
    region: 'Île-de-France',
    country: 'FR',
  },
  vatId: 'FR32123456789',
  companyId: { id: '123456789', scheme: '0002' },
};
export const FR_BUYER: Party = {
  ...BUYER,
  name: 'Client SAS',
  address: { street: '1 place Bellecour', city: 'Lyon', postalCode: '69002', country: 'FR' },
};

const key = (c: VatCategory): string => `${c.code}:${c.rate?.toFixed() ?? '-'}`;

/** A complete, arithmetically consistent invoice (EUR, two decimals) from `spec`. */
export function makeInvoice(spec: InvoiceSpec): EInvoice {
  const { lines: lineSpecs, adjustments = [], exemptions = {}, prepaid, ...fields } = spec;
  const minorUnits = fields.minorUnits ?? 2;
  const round = (v: Decimal): Decimal => roundMoney(v, minorUnits);
  const zero = new Decimal(0);
  const lines = lineSpecs.map((l, i) => {
    const quantity = new Decimal(l.quantity);
    const price = new Decimal(l.price);
    return {
      id: String(i + 1),
      quantity,
      unitCode: l.unitCode ?? 'C62',
      net: round(quantity.mul(price)),
      price,
      name: l.name ?? `Item ${i + 1}`,
      description: l.description,
      vat: l.vat,
    };
  });
  const allowancesCharges: AllowanceCharge[] = adjustments.map((a) => {
    const base = a.base === undefined ? undefined : new Decimal(a.base);
    const percent = a.percent === undefined ? undefined : new Decimal(a.percent);
    const amount = a.amount !== undefined ? new Decimal(a.amount) : round(base!.mul(percent!).div(100));
    return { charge: a.charge, amount, base, percent, reason: a.reason, reasonCode: a.reasonCode, vat: a.vat };
  });
  // One breakdown per category and rate, in order of first use.
  const groups = new Map<string, { category: VatCategory; taxable: Decimal }>();
  const add = (c: VatCategory, v: Decimal) => {
    const g = groups.get(key(c)) ?? { category: c, taxable: zero };
    groups.set(key(c), { ...g, taxable: g.taxable.add(v) });
  };
  for (const l of lines) add(l.vat, l.net);
  for (const a of allowancesCharges) add(a.vat, a.charge ? a.amount : a.amount.neg());
  const vatBreakdown = [...groups.values()].map(({ category, taxable }) => ({
    category,
    taxable,
    tax: round(taxable.mul(category.rate ?? 0).div(100)),
    exemptionReason: exemptions[category.code]?.reason,
    exemptionReasonCode: exemptions[category.code]?.code,
  }));
  const sum = (values: Decimal[]): Decimal => values.reduce((s, v) => s.add(v), zero);
  const lineNet = sum(lines.map((l) => l.net));
  const allowances = sum(allowancesCharges.filter((a) => !a.charge).map((a) => a.amount));
  const charges = sum(allowancesCharges.filter((a) => a.charge).map((a) => a.amount));
  const taxExclusive = lineNet.sub(allowances).add(charges);
  const tax = sum(vatBreakdown.map((b) => b.tax));
  const taxInclusive = taxExclusive.add(tax);
  const paid = prepaid === undefined ? undefined : new Decimal(prepaid);
  return {
    profile: 'en16931',
    typeCode: '380',
    number: 'RE-2026-0042',
    issueDate: '2026-03-02',
    dueDate: '2026-04-01',
    currency: 'EUR',
    notes: [],
    precedingInvoices: [],
    documents: [],
    seller: SELLER,
    buyer: BUYER,
    payment: { code: '58', iban: 'DE02120300000000202051', accountName: 'Nordlicht Software GmbH', bic: 'BYLADEM1001', notes: [] },
    minorUnits,
    ...fields,
    lines,
    allowancesCharges,
    vatBreakdown,
    totals: {
      lineNet,
      allowances: allowances.isZero() ? undefined : allowances,
      charges: charges.isZero() ? undefined : charges,
      taxExclusive,
      tax,
      taxInclusive,
      prepaid: paid,
      payable: taxInclusive.sub(paid ?? 0),
    },
  };
}
