// retarget: the specification a received invoice is written to when converted. Its own profile where the target
// syntax makes it, else the bare norm with BT-24 kept (UBL, CII) or EN 16931 (Factur-X, for a profile of no level);
// a profile the query names when the target makes it (a validation error otherwise); never UBL without lines.
import { expect } from 'chai';
import { DomainError } from '../../../../server/errors';
import type { EInvoice, Profile } from '../../../../server/einvoice/model';
import { PROFILES } from '../../../../server/einvoice/profiles';
import { retarget } from '../../../../server/einvoice/received/retarget';

/** An invoice with only what retarget reads (its other fields are passed on untouched). */
const invoice = (profile: Profile, extra: Partial<EInvoice> = {}): EInvoice =>
  ({
    profile,
    specification: undefined,
    businessProcess: undefined,
    lines: [{ id: '1' }],
    number: 'INV-1',
    ...extra,
  }) as unknown as EInvoice;

function validationMessage(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).code).to.equal('validation_failed');
    return JSON.stringify((err as DomainError).facts.details);
  }
  throw new Error('not refused');
}

describe('retarget (received invoice converted)', function () {
  it('keeps a profile the target syntax makes, as it is', function () {
    const x = invoice('xrechnung', { specification: 'as sent' });
    expect(retarget(x, 'ubl')).to.equal(x);
    expect(retarget(x, 'cii')).to.equal(x);
    const basic = invoice('basic');
    expect(retarget(basic, 'cii')).to.equal(basic);
  });

  it("writes a profile the syntax does not make as the bare norm, keeping BT-24 as sent (or the profile's own)", function () {
    const peppol = retarget(invoice('peppol'), 'cii');
    expect(peppol).to.include({ profile: 'en16931', specification: PROFILES.peppol.specification, number: 'INV-1' });
    const sent = retarget(invoice('extended', { specification: 'urn:as-sent' }), 'ubl');
    expect(sent).to.include({ profile: 'en16931', specification: 'urn:as-sent' });
  });

  it("writes Factur-X at the profile's own level, else at EN 16931, with no BT-24 of its own", function () {
    expect(retarget(invoice('xrechnung', { specification: 'urn:x' }), 'factur-x')).to.include({
      profile: 'xrechnung',
      specification: undefined,
    });
    expect(retarget(invoice('peppol', { specification: 'urn:p' }), 'factur-x')).to.include({
      profile: 'en16931',
      specification: undefined,
    });
    expect(retarget(invoice('minimum', { lines: [] }), 'factur-x'), 'no lines needed').to.include({ profile: 'minimum' });
  });

  it('takes the profile the query names, with its business process unless the invoice has one', function () {
    const asked = retarget(invoice('en16931', { specification: 'urn:old' }), 'ubl', 'peppol');
    expect(asked).to.include({ profile: 'peppol', specification: undefined, businessProcess: PROFILES.peppol.businessProcess });
    const own = retarget(invoice('en16931', { businessProcess: 'urn:own' } as Partial<EInvoice>), 'ubl', 'peppol');
    expect(own.businessProcess).to.equal('urn:own');
  });

  it('refuses a named profile the target does not make, naming the field', function () {
    expect(validationMessage(() => retarget(invoice('en16931'), 'cii', 'peppol')))
      .to.contain('"profile"')
      .and.contain('not made in CII');
    expect(validationMessage(() => retarget(invoice('en16931'), 'ubl', 'basic'))).to.contain('not made in UBL');
    expect(validationMessage(() => retarget(invoice('en16931'), 'factur-x', 'peppol'))).to.contain('not made as Factur-X');
  });

  it('refuses UBL for an invoice without lines, kept or asked', function () {
    expect(validationMessage(() => retarget(invoice('minimum', { lines: [] }), 'ubl'))).to.contain('no lines');
    expect(validationMessage(() => retarget(invoice('en16931', { lines: [] }), 'ubl', 'en16931'))).to.contain('no lines');
    expect(retarget(invoice('basic_wl', { lines: [] }), 'cii').lines).to.deep.equal([]);
  });
});
