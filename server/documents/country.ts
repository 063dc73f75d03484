// Which two-letter codes are countries (ISO 3166-1 alpha-2, what EN 16931's country code list holds): the regions
// ICU names, less the ones it names that ISO 3166-1 does not assign. The one place that says so, for the schema's
// `country` format and for the country read from a VAT identifier's prefix. No I/O.

/** Codes ICU names that are not assigned ISO 3166-1 countries: groupings (EU, EZ, UN, QO), user-assigned and
 * pseudo codes (XA, XB, XK, ZZ), exceptionally reserved ones (AC, CP, DG, EA, IC, TA, CQ, UK, FX) and withdrawn
 * ones (SU, YU, CS, AN, BU, TP, ZR, DD, YD, DY, HV, NH, RH, VD). Found by asking ICU for every pair of letters: it
 * names 280, ISO assigns 249. */
const NOT_ISO = new Set('EU EZ UN QO XA XB XK ZZ AC CP DG EA IC TA CQ UK FX SU YU CS AN BU TP ZR DD YD DY HV NH RH VD'.split(' '));

const regions = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });

/** An assigned ISO 3166-1 alpha-2 code, upper case. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_ISO.has(code) && regions.of(code) !== undefined;
}
