import { expect } from 'chai';
import { isCountryCode } from '../../../server/documents/country';

describe('country codes (unit)', () => {
  it('accepts the assigned ISO 3166-1 alpha-2 codes, including the newer and the small ones', () => {
    for (const code of ['BE', 'DE', 'GR', 'GB', 'US', 'JP', 'SS', 'CW', 'SX', 'BQ', 'AX', 'IM', 'JE', 'GG', 'VA', 'AQ'])
      expect(isCountryCode(code), code).to.equal(true);
  });

  it('refuses groupings, reserved, user-assigned and withdrawn codes that ICU still names', () => {
    for (const code of ['EU', 'EZ', 'UN', 'UK', 'EL', 'XK', 'XI', 'ZZ', 'QO', 'IC', 'EA', 'SU', 'YU', 'AN', 'CS', 'DD'])
      expect(isCountryCode(code), code).to.equal(false);
  });

  it('counts exactly the 249 codes ISO 3166-1 assigns', () => {
    let n = 0;
    for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) if (isCountryCode(String.fromCharCode(a, b))) n++;
    expect(n).to.equal(249);
  });

  it('wants two upper-case letters', () => {
    for (const code of ['be', 'Be', 'BEL', 'B', '', '12']) expect(isCountryCode(code), code).to.equal(false);
  });
});
