import { expect } from 'chai';
import { hasVatPrefix, isIban } from '../../../server/documents/identifiers';

describe('identifiers the e-invoice rules check (unit)', () => {
  it('accepts IBANs whose check digits are right, of any length their country uses', () => {
    for (const iban of [
      'DE02120300000000202051',
      'BE71096123456769',
      'FR1420041010050500013M02606',
      'NL91ABNA0417164300',
      'GB82WEST12345698765432',
      'MT84MALT011000012345MTLCAST001S',
    ])
      expect(isIban(iban), iban).to.equal(true);
  });

  it('refuses a typo (one digit changed, two swapped), an unknown country and a malformed one', () => {
    for (const iban of [
      'DE02120300000000202052',
      'DE02120300000000220251',
      'XX82WEST12345698765432',
      'DE0212030000',
      'de02120300000000202051',
    ])
      expect(isIban(iban), iban).to.equal(false);
  });

  it("takes a VAT identifier's prefix as a country, EL for Greece and XI for Northern Ireland, nothing else", () => {
    for (const id of ['BE0123456749', 'DE123456789', 'EL123456789', 'XI123456789', 'ATU12345678'])
      expect(hasVatPrefix(id), id).to.equal(true);
    for (const id of ['EU372000041', 'UK123456789', 'GR123456789'.replace('GR', 'ZZ'), 'QO1234'])
      expect(hasVatPrefix(id), id).to.equal(false);
  });
});
