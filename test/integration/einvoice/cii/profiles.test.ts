// Every CII profile (PROFILES rows made in CII: MINIMUM, BASIC WL, BASIC, EN 16931, EXTENDED, XRechnung) written from
// the model with every term the profile can carry (test/helpers/einvoice-full.ts), checked by the service's own XSD
// validator against the profile's XSD and D16B, and by the official rules that apply: the CEN's EN 16931 CII rules
// for the profiles that are EN 16931 invoices (BASIC and up), the Factur-X schematron of MINIMUM, BASIC WL, BASIC and
// EN 16931, the KoSIT XRechnung CII rules. EXTENDED's published schematron stops SaxonJS (../shared/standards/README):
// it is checked with its XSD and the EN 16931 CII rules. Then the table of what each profile cannot carry
// (profile-terms.ts): the terms of the full model it refuses, by field, and that a document carrying such a term does
// fail the profile's own checks, so the refusals are not guesses.
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../../server/config';
import { buildCii } from '../../../../server/einvoice/cii/build';
import type { EInvoice, Line, Profile } from '../../../../server/einvoice/model';
import { carriageProblems, DOCUMENT_TERMS, LINE_TERMS } from '../../../../server/einvoice/profile-terms';
import { PROFILES, profileProblems } from '../../../../server/einvoice/profiles';
import { acquireXsdValidator, type XsdRoot, type XsdValidatorRef } from '../../../../server/einvoice/xsd-validator';
import { fullInvoice, invoiceFor } from '../../../helpers/einvoice-full';
import { loadRules, rules, STANDARDS_DIR, type Failure, type Validator } from '../../../helpers/schematron';

const FACTURX_SEF: Partial<Record<Profile, string>> = {
  minimum: 'facturx-minimum/Factur-X_1.09_MINIMUM.sef.json',
  basic_wl: 'facturx-basicwl/Factur-X_1.09_BASICWL.sef.json',
  basic: 'facturx-basic/Factur-X_1.09_BASIC.sef.json',
  en16931: 'facturx-en16931/Factur-X_1.09_EN16931.sef.json',
};
const loaded = new Map<string, Validator>();
const facturX = (p: Profile): Validator | undefined => {
  const file = FACTURX_SEF[p];
  if (!file) return undefined;
  if (!loaded.has(file)) loaded.set(file, loadRules(path.join(STANDARDS_DIR, 'factur-x', file)));
  return loaded.get(file);
};

const isFatal = (f: Failure): boolean => f.flag === 'fatal' || f.flag === 'error';

/** Where each row of profile-terms.ts lives in the model (a line's below lines[0]). */
const TERM_PATH: Record<string, string[]> = {
  'notes (terms, e_invoice.notes: BG-1)': ['notes'],
  'tax_point_date (BT-7)': ['taxPointDate'],
  'e_invoice.vat_point_date_code (BT-8)': ['taxPointDateCode'],
  'due_date (BT-9)': ['dueDate'],
  'payment_terms (BT-20)': ['paymentTerms'],
  'e_invoice.tax_currency (BT-6, BT-111)': ['taxCurrency'],
  'e_invoice.project_reference (BT-11)': ['projectReference'],
  'e_invoice.contract_reference (BT-12)': ['contractReference'],
  'e_invoice.sales_order_reference (BT-14)': ['salesOrderReference'],
  'e_invoice.receiving_advice (BT-15)': ['receivingAdvice'],
  'e_invoice.despatch_advice (BT-16)': ['despatchAdvice'],
  'e_invoice.tender_reference (BT-17)': ['tenderReference'],
  'e_invoice.invoiced_object (BT-18)': ['invoicedObject'],
  'e_invoice.buyer_accounting_reference (BT-19)': ['buyerAccountingReference'],
  'preceding_invoices (purchase_order of a receipt or credit note: BG-3)': ['precedingInvoices'],
  'invoice_period (BG-14)': ['period'],
  'e_invoice.attachments (BG-24)': ['documents'],
  'e_invoice.seller.trading_name (BT-28)': ['seller', 'tradingName'],
  'e_invoice.seller.identifiers (BT-29)': ['seller', 'identifiers'],
  'e_invoice.seller.legal_info (BT-33)': ['seller', 'legalInfo'],
  'e_invoice.seller.endpoint (BT-34)': ['seller', 'endpoint'],
  'e_invoice.seller.contact_name, phone, email (BG-6)': ['seller', 'contact'],
  'e_invoice.buyer.trading_name (BT-45)': ['buyer', 'tradingName'],
  'e_invoice.buyer.vat_id (a VAT ID line in to: BT-48)': ['buyer', 'vatId'],
  'e_invoice.buyer.identifiers (BT-46)': ['buyer', 'identifiers'],
  'e_invoice.buyer.endpoint (BT-49)': ['buyer', 'endpoint'],
  'e_invoice.buyer.contact_name, phone, email (BG-9)': ['buyer', 'contact'],
  'e_invoice.payee (BG-10)': ['payee'],
  'e_invoice.tax_representative (BG-11)': ['taxRepresentative'],
  'delivery_date (BT-72)': ['delivery'],
  'e_invoice.delivery (BG-13)': ['delivery'],
  'e_invoice.payment_means (payment_methods: BG-16)': ['payment'],
  "e_invoice.payment_means.text (a receipt's payment_terms, the name of a single payment method: BT-82)": ['payment', 'text'],
  'e_invoice.payment_means.account_name (BT-85)': ['payment', 'accountName'],
  'e_invoice.payment_means.bic (BT-86)': ['payment', 'bic'],
  "e_invoice.payment_means.additional_accounts[].account_name, bic (another account's BT-85, BT-86)": ['payment', 'additionalAccounts'],
  'e_invoice.payment_means.card (BG-18)': ['payment', 'card'],
  'discounts (e_invoice.allowances: BG-20)': ['allowancesCharges'],
  'shipping (e_invoice.charges: BG-21)': ['allowancesCharges'],
  'amount_paid (BT-113)': ['totals', 'prepaid'],
  'e_invoice.rounding_amount (BT-114)': ['totals', 'rounding'],
  'note (BT-127)': ['note'],
  'object_id (BT-128)': ['objectId'],
  'unit (BT-130)': ['unitCode'],
  'order_line_reference (BT-132)': ['orderLineReference'],
  'accounting_reference (BT-133)': ['accountingReference'],
  'period (BG-26)': ['period'],
  'allowances (BG-27)': ['allowancesCharges'],
  'charges (BG-28)': ['allowancesCharges'],
  'allowances, charges: percent (BT-137, BT-138, BT-142, BT-143)': ['allowancesCharges'],
  'gross_price (BT-148)': ['grossPrice'],
  'price_base_quantity (BT-149)': ['baseQuantity'],
  'description (BT-154, beside a name)': ['description'],
  'seller_item_id (BT-155)': ['sellerItemId'],
  'buyer_item_id (BT-156)': ['buyerItemId'],
  'standard_item_id (BT-157)': ['standardItemId'],
  'classifications (BT-158)': ['classifications'],
  'origin_country (BT-159)': ['originCountry'],
  'attributes (BG-32)': ['attributes'],
};

/** `invoice` without the term at `where` (`field` tells allowances from charges and a delivery's date from the rest);
 * amounts that depend on it follow (the payable amount without the rounding or prepaid amount, BT-107 and BT-108
 * without their allowances and charges). */
function withoutTerm(invoice: EInvoice, [key, sub]: string[], field: string): EInvoice {
  const t = invoice.totals;
  if (field.startsWith('discounts') || field.startsWith('shipping')) {
    const charge = field.startsWith('shipping');
    return {
      ...invoice,
      allowancesCharges: invoice.allowancesCharges.filter((a) => a.charge !== charge),
      totals: { ...t, ...(charge ? { charges: undefined } : { allowances: undefined }) },
    };
  }
  if (key === 'totals') {
    const value = t[sub as 'rounding' | 'prepaid']!;
    return { ...invoice, totals: { ...t, [sub!]: undefined, payable: sub === 'rounding' ? t.payable.sub(value) : t.payable.add(value) } };
  }
  if (field.startsWith('delivery_date')) return { ...invoice, delivery: { ...invoice.delivery, date: undefined } };
  if (key === 'delivery') return { ...invoice, delivery: invoice.delivery?.date ? { date: invoice.delivery.date } : undefined };
  if (key === 'documents') return { ...invoice, documents: invoice.documents.filter((d) => d.pdf) };
  const empty = Array.isArray((invoice as unknown as Record<string, unknown>)[key!]) ? [] : undefined;
  if (!sub) return { ...invoice, [key!]: empty };
  const group = (invoice as unknown as Record<string, Record<string, unknown> | undefined>)[key!];
  return { ...invoice, [key!]: { ...group, [sub]: undefined } };
}

function withoutLineTerm(line: Line, key: string, field: string): Line {
  const ac = line.allowancesCharges ?? [];
  if (field.startsWith('allowances, charges'))
    return { ...line, allowancesCharges: ac.map((a) => ({ ...a, base: undefined, percent: undefined })) };
  if (field.startsWith('allowances')) return { ...line, allowancesCharges: ac.filter((a) => a.charge) };
  if (field.startsWith('charges')) return { ...line, allowancesCharges: ac.filter((a) => !a.charge) };
  if (key === 'unitCode') return { ...line, unitCode: 'C62' };
  return { ...line, [key]: undefined };
}

/** `base` with the value `source` has at `where` (one or two keys deep). */
function withTerm(base: EInvoice, source: EInvoice, [key, sub]: string[]): EInvoice {
  const from = (source as unknown as Record<string, Record<string, unknown>>)[key!];
  const to = (base as unknown as Record<string, Record<string, unknown> | undefined>)[key!];
  return { ...base, [key!]: sub ? { ...(to ?? from), [sub]: from![sub] } : from };
}
const COLUMNS = ['profile XSD', 'D16B XSD', 'en16931-cii', 'Factur-X', 'xrechnung-cii'];

/** The documents checked: each profile with every term it carries; both BT-7 and BT-8 where the profile has them. */
const DOCUMENTS: [string, EInvoice][] = [
  ['minimum', invoiceFor('minimum')],
  ['basic_wl', invoiceFor('basic_wl')],
  ['basic', invoiceFor('basic')],
  ['en16931 (BT-8)', fullInvoice('en16931')],
  ['en16931 (BT-7)', fullInvoice('en16931', 'point date')],
  ['extended (BT-8)', fullInvoice('extended')],
  ['extended (BT-7)', fullInvoice('extended', 'point date')],
  ['xrechnung (BT-8)', fullInvoice('xrechnung')],
  ['xrechnung (BT-7)', fullInvoice('xrechnung', 'point date')],
];

describe('CII in every profile: XSD and official rules, and what each profile cannot carry', function () {
  this.timeout(60000);
  let xsd: XsdValidatorRef;
  const table: string[][] = [];

  before(async function () {
    xsd = acquireXsdValidator(loadConfig({}));
    await xsd.validator.ready();
  });
  after(async function () {
    await xsd?.release();
    if (!table.length) return;
    console.log('      document × check → XSD errors / fatal rule failures (+ warnings); - not applicable');
    const head = ['document', ...COLUMNS];
    const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
    for (const row of [head, ...table]) console.log(`      ${row.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`);
  });

  /** Every check that applies to `invoice`'s profile: column → problems, and the table's cells. */
  async function check(xml: string, profile: Profile): Promise<{ cells: Record<string, string>; problems: string[] }> {
    const row = PROFILES[profile];
    const cells: Record<string, string> = {};
    const problems: string[] = [];
    const schemas: [string, XsdRoot][] = [
      ['profile XSD', row.facturX!.xsd],
      ['D16B XSD', 'CrossIndustryInvoice'],
    ];
    for (const [column, root] of schemas) {
      const errors = await xsd.validator.validate(xml, root);
      cells[column] = String(errors.length);
      problems.push(...errors.map((e) => `${column}: ${e}`));
    }
    const sets: [string, Validator | undefined][] = [
      ['en16931-cii', row.en16931 ? rules('en16931Cii') : undefined],
      ['Factur-X', facturX(profile)],
      ['xrechnung-cii', profile === 'xrechnung' ? rules('xrechnungCii') : undefined],
    ];
    for (const [column, set] of sets) {
      if (!set) continue;
      const failures = set.validate(xml);
      const fatal = failures.filter(isFatal);
      const warnings = failures.length - fatal.length;
      cells[column] = `${fatal.length}${warnings ? ` (+${warnings} w)` : ''}`;
      problems.push(...fatal.map((f) => `${column}: ${f.id}: ${f.message.slice(0, 160)}`));
    }
    return { cells, problems };
  }

  for (const [name, invoice] of DOCUMENTS) {
    it(`${name}: valid under its XSDs, 0 fatal under every rule set that applies`, async function () {
      expect(carriageProblems(invoice, invoice.profile), 'the model holds only terms the profile carries').to.deep.equal([]);
      const xml = buildCii(invoice);
      const { cells, problems } = await check(xml, invoice.profile);
      table.push([name, ...COLUMNS.map((c) => cells[c] ?? '-')]);
      expect(problems).to.deep.equal([]);
      expect(xml).to.contain(`<ram:ID>${PROFILES[invoice.profile].specification}</ram:ID>`);
    });
  }

  it('MINIMUM and BASIC WL carry no line; MINIMUM no breakdown, line total, buyer address, nor seller street', function () {
    for (const p of ['minimum', 'basic_wl'] as const) expect(buildCii(invoiceFor(p)), p).not.to.contain('IncludedSupplyChainTradeLineItem');
    const min = buildCii(invoiceFor('minimum'));
    expect(min).not.to.match(/<ram:ApplicableTradeTax>|<ram:LineTotalAmount>|<ram:LineOne>|<ram:CityName>/);
    expect(min).to.contain('<ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>');
    expect(min.match(/<ram:PostalTradeAddress>/g), 'the seller only').to.have.length(1);
  });

  it('the full model is refused by MINIMUM, BASIC WL and BASIC naming each field, and the way out', function () {
    const fields = (p: Profile) => carriageProblems(fullInvoice(p, 'point date'), PROFILES[p].facturX!.level).map((f) => f.field);
    expect(fields('basic')).to.have.members([
      'tax_point_date',
      'e_invoice.project_reference',
      'e_invoice.sales_order_reference',
      'e_invoice.receiving_advice',
      'e_invoice.tender_reference',
      'e_invoice.invoiced_object',
      'e_invoice.attachments',
      'e_invoice.seller.legal_info',
      'e_invoice.seller.contact_name',
      'e_invoice.buyer.trading_name',
      'e_invoice.buyer.contact_name',
      'e_invoice.payment_means.text',
      'e_invoice.payment_means.account_name',
      'e_invoice.payment_means.bic',
      'e_invoice.payment_means.additional_accounts[].account_name',
      'e_invoice.payment_means.card',
      'e_invoice.rounding_amount',
      'items[0].object_id',
      'items[0].order_line_reference',
      'items[0].accounting_reference',
      'items[0].allowances',
      'items[0].description',
      'items[0].seller_item_id',
      'items[0].buyer_item_id',
      'items[0].classifications',
      'items[0].origin_country',
      'items[0].attributes',
    ]);
    expect(fields('basic_wl')).to.include.members(['items[0].unit', 'items[0].gross_price', 'items[0].note', 'items[0].period']);
    expect(fields('minimum')).to.include.members(['notes', 'due_date', 'e_invoice.payee', 'e_invoice.buyer.vat_id', 'amount_paid']);
    const attributes = carriageProblems(fullInvoice('basic'), 'BASIC').find((f) => f.field === 'items[0].attributes');
    expect(attributes?.message).to.equal(
      'items[0].attributes (BG-32) is not carried by the Factur-X BASIC profile; use en16931 or extended',
    );
    const payee = carriageProblems(fullInvoice('minimum'), 'MINIMUM').find((f) => f.field === 'e_invoice.payee');
    expect(payee?.message).to.equal(
      'e_invoice.payee (BG-10) is not carried by the Factur-X MINIMUM profile; use basic_wl, basic, en16931 or extended',
    );
    for (const p of ['en16931', 'extended', 'xrechnung'] as const) expect(fields(p), p).to.deep.equal([]);
  });

  it('profileProblems refuses those terms for CII, and the UBL-only peppol profile in CII at all', function () {
    const basic = profileProblems(fullInvoice('basic'), 'cii').map((f) => f.field);
    expect(basic).to.include('items[0].attributes');
    const peppol = profileProblems({ ...fullInvoice('en16931'), profile: 'peppol' }, 'cii');
    expect(peppol).to.have.length(1);
    expect(peppol[0]).to.deep.include({ field: 'e_invoice.profile' });
    expect(peppol[0]!.message).to.match(/peppol is made in UBL only; for CII use en16931, xrechnung, minimum, basic_wl, basic, extended/);
    expect(() => buildCii({ ...fullInvoice('en16931'), profile: 'peppol' })).to.throw(/UBL only/);
  });

  it("MINIMUM asks for the seller's country only (it has no buyer address); the other CII profiles for both", function () {
    const noCountry = (p: Profile) => {
      const e = p === 'minimum' || p === 'basic_wl' || p === 'basic' ? invoiceFor(p) : fullInvoice(p);
      return { ...e, buyer: { ...e.buyer, address: { ...e.buyer.address, country: undefined } } };
    };
    expect(profileProblems(noCountry('minimum'), 'cii')).to.deep.equal([]);
    for (const p of ['basic_wl', 'basic', 'en16931', 'extended'] as const) {
      expect(
        profileProblems(noCountry(p), 'cii').map((f) => f.field),
        p,
      ).to.deep.equal(['e_invoice.buyer.country']);
    }
  });

  it('what the table refuses does fail the profile: the full model written as BASIC, BASIC WL and MINIMUM', async function () {
    // The writer writes what the model holds; written anyway, the refused terms break the profile's XSD or rules.
    for (const p of ['minimum', 'basic_wl', 'basic'] as const) {
      const { problems } = await check(buildCii(fullInvoice(p)), p);
      expect(problems.length, p).to.be.greaterThan(0);
    }
    // One term at a time, where it is the XSD that has no place (BASIC: an item attribute) or the schematron that
    // marks it not used (BASIC: the buyer's trading name; MINIMUM: the buyer's VAT id).
    const basic = invoiceFor('basic');
    const attribute = { ...basic, lines: basic.lines.map((l) => ({ ...l, attributes: [{ name: 'Colour', value: 'Blue' }] })) };
    expect((await check(buildCii(attribute), 'basic')).problems.join('\n')).to.match(/profile XSD: .*ApplicableProductCharacteristic/);
    const trading = { ...basic, buyer: { ...basic.buyer, tradingName: 'Kunde' } };
    expect((await check(buildCii(trading), 'basic')).problems.join('\n')).to.match(/Factur-X: .*TradingBusinessName/);
    const min = invoiceFor('minimum');
    const vatId = { ...min, buyer: { ...min.buyer, vatId: 'DE987654321' } };
    expect((await check(buildCii(vatId), 'minimum')).problems.join('\n')).to.match(/Factur-X: .*SpecifiedTaxRegistration/);
  });

  it('the table is complete: the full model less every term the table refuses is valid in MINIMUM, BASIC WL and BASIC', async function () {
    for (const p of ['minimum', 'basic_wl', 'basic'] as const) {
      const full = fullInvoice(p, 'point date');
      let stripped = full;
      for (const t of DOCUMENT_TERMS)
        if (t.lacking.includes(p) && t.holds(stripped)) stripped = withoutTerm(stripped, TERM_PATH[t.field]!, t.field);
      const lines = stripped.lines.map((l) => {
        let line = l;
        for (const t of LINE_TERMS)
          if (t.lacking.includes(p) && t.holds(line)) line = withoutLineTerm(line, TERM_PATH[t.field]![0]!, t.field);
        return line;
      });
      stripped = { ...stripped, lines };
      expect(carriageProblems(stripped, p), p).to.deep.equal([]);
      const { problems } = await check(buildCii(stripped), p);
      expect(problems, p).to.deep.equal([]);
    }
  });

  it('every row of the table, one term at a time: written into a document of a profile that lacks it, it either has no place (nothing written) or breaks that profile', async function () {
    const unjustified: string[] = [];
    let written = 0;
    const source = (p: Profile): EInvoice => ({ ...fullInvoice(p), taxPointDate: '2026-02-28' });
    const cases = [
      ...DOCUMENT_TERMS.map((t) => ({ t, line: false, holds: (e: EInvoice) => t.holds(e) })),
      ...LINE_TERMS.map((t) => ({ t, line: true, holds: (e: EInvoice) => t.holds(e.lines[0]!) })),
    ];
    for (const { t, line, holds } of cases) {
      const where = TERM_PATH[t.field];
      expect(where, `a model path for ${t.field}`).to.be.an('array');
      for (const p of t.lacking as ('minimum' | 'basic_wl' | 'basic')[]) {
        if (line && !PROFILES[p].lines) continue; // no lines at all, by definition
        const base = invoiceFor(p);
        const patched = line
          ? { ...base, lines: base.lines.map((l, i) => (i === 0 ? { ...l, [where![0]!]: (source(p).lines[0] as never)[where![0]!] } : l)) }
          : withTerm(base, source(p), where!);
        expect(holds(base), `${t.field}: absent from the ${p} document`).to.equal(false);
        expect(holds(patched), `${t.field}: set for ${p}`).to.equal(true);
        const before = buildCii(base);
        const after = buildCii(patched);
        if (after === before) continue; // the writer has no place for it in this profile
        written++;
        if ((await check(after, p)).problems.length === 0) unjustified.push(`${t.field} in ${p}`);
      }
    }
    expect(unjustified, 'refused, yet valid in the profile').to.deep.equal([]);
    expect(written).to.be.greaterThan(40);
  });
});
