// E-invoice parties (einvoice/parties.ts, docs/decisions.md §8): the free-text `from` / `to` read as a name, up to three address lines
// and a VAT line whose prefix gives the country, each field overridden by the structured e_invoice party.
import { expect } from 'chai';
import { countryOfVatId, modelParty, partyConflicts, partyFrom } from '../../../server/einvoice/parties';

describe('UBL parties from free text', function () {
  it('reads the name, the address lines and a VAT line written the usual ways', function () {
    expect(partyFrom('Acme GmbH\nHauptstraße 1\n10115 Berlin\nVAT ID: DE 123.456.789')).to.deep.equal({
      name: 'Acme GmbH',
      street: 'Hauptstraße 1',
      additionalStreet: '10115 Berlin',
      addressLine: undefined,
      country: 'DE',
      vatId: 'DE123456789',
      companyId: undefined,
      endpoint: undefined,
      email: undefined,
      contactName: undefined,
      phone: undefined,
    });
    for (const [line, vatId] of [
      ['VAT ID: BE 0123.456.749', 'BE0123456749'],
      ['VAT: BE0123-456-749', 'BE0123456749'],
      ['VAT No. be0123456749', 'BE0123456749'],
      ['VAT number FR 12 345678901', 'FR12345678901'],
      ['VAT reg. no: GB 123 4567 89', 'GB123456789'],
      ['vat registration no. NL/8547.12.345/B01', 'NL854712345B01'],
      ['VAT # IT12345678901', 'IT12345678901'],
    ] as const) {
      expect(partyFrom(`Acme\n${line}`).vatId, line).to.equal(vatId);
    }
  });

  it('takes the country from the VAT prefix only when it is a real country (EL is Greece)', function () {
    expect(partyFrom('Acme\nVAT: EL094019245').country).to.equal('GR');
    expect(countryOfVatId('el094019245')).to.equal('GR');
    expect(countryOfVatId('BE0123456749')).to.equal('BE');
    expect(countryOfVatId('XX12345')).to.equal(undefined);
    expect(countryOfVatId('12345678')).to.equal(undefined);
    const noPrefix = partyFrom('Acme\nVAT 12345678');
    expect(noPrefix.vatId).to.equal('12345678');
    expect(noPrefix.country).to.equal(undefined);
  });

  it('ignores blank lines and surrounding spaces, CRLF or LF', function () {
    const party = partyFrom('\r\n  Acme Ltd  \r\n\r\n   \r\n 1 High St \r\nLondon\r\n');
    expect(party.name).to.equal('Acme Ltd');
    expect([party.street, party.additionalStreet, party.addressLine]).to.deep.equal(['1 High St', 'London', undefined]);
  });

  it('keeps the first three address lines of a long address, and the first VAT line only', function () {
    const party = partyFrom('Acme\nBuilding 7\nFloor 3\nUnit 12\n1 Long Road\nSpringfield\nVAT: BE0123456749\nVAT: FR12345678901');
    expect([party.street, party.additionalStreet, party.addressLine]).to.deep.equal(['Building 7', 'Floor 3', 'Unit 12']);
    expect(party.vatId).to.equal('BE0123456749');
    // A VAT line above the address is still the VAT line, wherever it stands after the name.
    expect(partyFrom('Acme\nVAT: BE0123456749\nRue Neuve 1').street).to.equal('Rue Neuve 1');
  });

  it('treats the first line as the name even when it looks like a VAT line, and an empty text as no name', function () {
    expect(partyFrom('VAT ID: BE0123456749\nRue Neuve 1')).to.include({ name: 'VAT ID: BE0123456749', street: 'Rue Neuve 1' });
    expect(partyFrom('VAT ID: BE0123456749').vatId).to.equal(undefined);
    expect(partyFrom('')).to.include({ name: '', street: undefined, vatId: undefined, country: undefined });
    expect(partyFrom('\n\n')).to.include({ name: '' });
  });

  it('keeps right-to-left and CJK text as sent', function () {
    const arabic = partyFrom('شركة المثال للتجارة\nشارع الملك فهد ١٢\nالرياض ١١٥٦٤');
    expect(arabic).to.include({ name: 'شركة المثال للتجارة', street: 'شارع الملك فهد ١٢', additionalStreet: 'الرياض ١١٥٦٤' });
    const chinese = partyFrom('台灣測試股份有限公司\n臺北市信義區市府路1號');
    expect(chinese).to.include({ name: '台灣測試股份有限公司', street: '臺北市信義區市府路1號' });
  });
});

describe('UBL parties with structured e_invoice data', function () {
  it('overrides the name, VAT identifier and country field by field', function () {
    const party = partyFrom('Acme\nRue Neuve 1\nVAT: BE0123456749', { name: 'Acme NV', country: 'NL' });
    expect(party).to.include({ name: 'Acme NV', country: 'NL', vatId: 'BE0123456749', street: 'Rue Neuve 1' });
    const vat = partyFrom('Acme\nVAT: BE0123456749', { vat_id: 'FR12345678901' });
    expect(vat).to.include({ vatId: 'FR12345678901', country: 'FR' });
  });

  it('replaces the free-text address as a whole when any structured address field is sent', function () {
    const party = partyFrom('Acme\nRue Neuve 1\n1000 Bruxelles', { city: 'Brussels', postal_code: '1000' });
    expect(party).to.include({ city: 'Brussels', postalZone: '1000', street: undefined, additionalStreet: undefined });
    expect(party.addressLine).to.equal(undefined);
    const full = partyFrom('Acme', {
      street: 'Kerkstraat 1',
      additional_street: 'Bus 2',
      city: 'Antwerpen',
      postal_code: '2000',
      region: 'Antwerp',
    });
    expect(full).to.include({
      street: 'Kerkstraat 1',
      additionalStreet: 'Bus 2',
      city: 'Antwerpen',
      postalZone: '2000',
      region: 'Antwerp',
    });
  });

  it('passes the identifiers and the contact through', function () {
    const party = partyFrom('Acme', {
      company_id: '0123456749',
      endpoint: { scheme: '0208', id: '0123456749' },
      email: 'billing@acme.example',
      contact_name: 'Jane Doe',
      phone: '+32 2 123 45 67',
    });
    expect(party).to.deep.include({
      companyId: '0123456749',
      endpoint: { scheme: '0208', id: '0123456749' },
      email: 'billing@acme.example',
      contactName: 'Jane Doe',
      phone: '+32 2 123 45 67',
    });
    // No VAT identifier anywhere: no country is guessed.
    expect(party.country).to.equal(undefined);
  });

  it('keeps address lines that start with "Vat" as address lines, and needs a digit in an identifier', function () {
    const vatican = partyFrom('Holy See Press\nVia della Conciliazione 54\nVatican City');
    expect([vatican.vatId, vatican.country, vatican.additionalStreet]).to.deep.equal([undefined, undefined, 'Vatican City']);
    const bavaria = partyFrom('Acme GmbH\nVaterstettener Str. 12\n85591 Vaterstetten');
    expect([bavaria.vatId, bavaria.street, bavaria.additionalStreet]).to.deep.equal([
      undefined,
      'Vaterstettener Str. 12',
      '85591 Vaterstetten',
    ]);
    expect(partyFrom('Acme\nVAT exempt').vatId).to.equal(undefined);
  });

  it('takes no country from a prefix that is not an ISO 3166-1 country (EU, UK, XK, …)', function () {
    expect(partyFrom('Acme Ltd\nVAT: EU372000041')).to.include({ vatId: 'EU372000041', country: undefined });
    expect(partyFrom('Acme Ltd\nVAT: UK123456789')).to.include({ vatId: 'UK123456789', country: undefined });
    for (const prefix of ['EU', 'UK', 'XK', 'ZZ', 'QO', 'UN', 'SU'])
      expect(countryOfVatId(`${prefix}123456789`), prefix).to.equal(undefined);
    for (const [vat, country] of [
      ['GB123456789', 'GB'],
      ['EL123456789', 'GR'],
      ['XI123456789', undefined],
      ['CH123456789', 'CH'],
    ] as const)
      expect(countryOfVatId(vat), vat).to.equal(country);
  });
});

describe('France: SIREN and SIRET of a party', function () {
  it('the SIREN is the legal registration identifier in scheme 0002, the SIRET an identifier in scheme 0009, first', function () {
    const p = modelParty('Atelier SARL', { siren: '123456789', siret: '12345678900017', identifiers: [{ id: 'GLN-1', scheme: '0088' }] });
    expect(p.companyId).to.deep.equal({ id: '123456789', scheme: '0002' });
    expect(p.identifiers).to.deep.equal([
      { id: '12345678900017', scheme: '0009' },
      { id: 'GLN-1', scheme: '0088' },
    ]);
  });

  it('company_id wins over the SIREN when both are given and agree; another company_id beside a SIREN is a problem naming siren', function () {
    expect(modelParty('A', { siren: '123456789', company_id: '123456789', company_id_scheme: '0002' }).companyId).to.deep.equal({
      id: '123456789',
      scheme: '0002',
    });
    expect(partyConflicts({ siren: '123456789', company_id: '123456789' }, 'seller')).to.deep.equal([]);
    expect(partyConflicts({ siren: '123456789', company_id: 'HRB 1' }, 'buyer').map((p) => p.field)).to.deep.equal([
      'e_invoice.buyer.siren',
    ]);
    expect(partyConflicts({ siren: '123456789', company_id: '123456789', company_id_scheme: '0088' }, 'seller')).to.have.length(1);
    expect(partyConflicts(undefined, 'seller')).to.deep.equal([]);
  });
});
