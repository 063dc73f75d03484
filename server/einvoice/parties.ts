// Parties of an e-invoice (docs/decisions.md §8): from the free-text `from` / `to` (first line the name, then up to three address
// lines, a `VAT ID: …` line the VAT identifier whose prefix gives the country), overridden field by field by the
// structured `e_invoice.seller` / `e_invoice.buyer`, then as the model's BG-4 / BG-7 (modelParty). Pure functions; no XML
// here.
import type { EInvoiceParty } from '../documents/model';
import type { FieldProblem } from '../errors';
import { isCountryCode } from '../documents/country';
import type { Party } from './model';

export interface UblParty {
  name: string;
  /** Structured address, or the free-text lines (at most 3). */
  street?: string;
  additionalStreet?: string;
  addressLine?: string;
  city?: string;
  postalZone?: string;
  region?: string;
  country?: string;
  vatId?: string;
  companyId?: string;
  endpoint?: { scheme: string; id: string };
  email?: string;
  contactName?: string;
  phone?: string;
}

/** `VAT ID: BE 0123.456.749`, `VAT: …`, `VAT No. …`, `VAT number …`, `VAT reg. no: …`. "VAT" and the word after it
 * end where a letter does not follow (a street in Vaterstetten or Vatican City is an address line), and an
 * identifier has a digit. */
const VAT_LINE =
  /^\s*VAT(?![A-Za-z])(?:\s*(?:ID|identifier|no\.?|number|reg(?:istration)?\.?(?:\s*no\.?)?)(?![A-Za-z]))?\s*[:#]?\s*(?=[^\d]*\d)([A-Za-z0-9][A-Za-z0-9 .\-/]{1,30})\s*$/i;

/** The country of a VAT identifier's prefix (EL is Greece's VAT prefix for GR), when it is a real country. */
export function countryOfVatId(vatId: string): string | undefined {
  const prefix = vatId.slice(0, 2).toUpperCase();
  if (!/^[A-Z]{2}$/.test(prefix)) return undefined;
  const country = prefix === 'EL' ? 'GR' : prefix;
  return isCountryCode(country) ? country : undefined;
}

export function partyFrom(freeText: string, structured: EInvoiceParty = {}): UblParty {
  const lines = freeText
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  let vatFromText: string | undefined;
  const address: string[] = [];
  for (const line of lines.slice(1)) {
    const m = VAT_LINE.exec(line);
    if (m && vatFromText === undefined) vatFromText = m[1]!.replace(/[\s.\-/]/g, '').toUpperCase();
    else address.push(line);
  }
  const vatId = structured.vat_id ?? vatFromText;
  const structuredAddress = [
    structured.street,
    structured.additional_street,
    structured.address_line_3,
    structured.city,
    structured.postal_code,
    structured.region,
  ].some((v) => v !== undefined);
  const party: UblParty = {
    name: structured.name ?? lines[0] ?? '',
    country: structured.country ?? (vatId ? countryOfVatId(vatId) : undefined),
    vatId,
    companyId: structured.company_id,
    endpoint: structured.endpoint,
    email: structured.email,
    contactName: structured.contact_name,
    phone: structured.phone,
  };
  if (structuredAddress) {
    party.street = structured.street;
    party.additionalStreet = structured.additional_street;
    party.addressLine = structured.address_line_3;
    party.city = structured.city;
    party.postalZone = structured.postal_code;
    party.region = structured.region;
  } else {
    [party.street, party.additionalStreet, party.addressLine] = address.slice(0, 3);
  }
  return party;
}

function identifiersOf(structured: EInvoiceParty): Party['identifiers'] {
  const all = [
    ...(structured.siret ? [{ id: structured.siret, scheme: '0009' }] : []),
    ...(structured.identifiers ?? []).map((i) => ({ id: i.id, scheme: i.scheme })),
  ];
  return all.length > 0 ? all : undefined;
}

/** Structured terms of a party that contradict each other (a SIREN beside another legal registration identifier). */
export function partyConflicts(structured: EInvoiceParty | undefined, role: 'seller' | 'buyer'): FieldProblem[] {
  if (!structured?.siren || structured.company_id === undefined) return [];
  if (structured.company_id === structured.siren && (structured.company_id_scheme ?? '0002') === '0002') return [];
  return [
    {
      field: `e_invoice.${role}.siren`,
      message: `e_invoice.${role}.siren is the legal registration identifier (BT-${role === 'seller' ? 30 : 47}), and company_id gives another: send one`,
    },
  ];
}

/** The party of the EN 16931 model (BG-4 seller, BG-7 buyer): the free text read as above, with every structured
 * term of the request (trading name, identifiers, legal and tax registration, contact). */
export function modelParty(freeText: string, structured: EInvoiceParty = {}): Party {
  const p = partyFrom(freeText, structured);
  const contact = p.contactName || p.phone || p.email ? { name: p.contactName, phone: p.phone, email: p.email } : undefined;
  return {
    name: p.name,
    tradingName: structured.trading_name,
    // France: the SIRET is an identifier in scheme 0009 (BT-29 / BT-46), first; the SIREN the legal registration
    // identifier in scheme 0002 (BT-30 / BT-47) when company_id does not give it.
    identifiers: identifiersOf(structured),
    endpoint: p.endpoint,
    address: {
      street: p.street,
      additionalStreet: p.additionalStreet,
      line3: p.addressLine,
      city: p.city,
      postalCode: p.postalZone,
      region: p.region,
      country: p.country,
    },
    vatId: p.vatId,
    taxRegistrationId: structured.tax_registration_id,
    companyId: p.companyId
      ? { id: p.companyId, scheme: structured.company_id_scheme }
      : structured.siren
        ? { id: structured.siren, scheme: '0002' }
        : undefined,
    legalInfo: structured.legal_info,
    contact,
  };
}
