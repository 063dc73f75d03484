// FX-LEVEL: the conformance level a Factur-X / ZUGFeRD PDF declares in its XMP against the guideline (BT-24) its XML
// names: the guidelines of every Factur-X profile the service writes, the older ZUGFeRD ones and every XRechnung
// version map to their level; agreeing is no finding, differing is fatal, an unknown guideline is a warning.
import { expect } from 'chai';
import { checkConformanceLevel, levelOfGuideline } from '../../../../server/einvoice/received/facturx-level';
import { PROFILES } from '../../../../server/einvoice/profiles';

describe('FX-LEVEL (facturx-level)', function () {
  it("maps the guideline of every profile written as Factur-X to that profile's level", function () {
    const written = Object.values(PROFILES).filter((row) => row.facturX);
    expect(written.length).to.be.greaterThan(5);
    for (const row of written) expect(levelOfGuideline(row.specification), row.specification).to.equal(row.facturX!.level);
  });

  it('maps the ZUGFeRD 2.0 and 1.0 guidelines and every XRechnung version, ignoring surrounding spaces', function () {
    expect(levelOfGuideline('urn:zugferd.de:2p0:minimum')).to.equal('MINIMUM');
    expect(levelOfGuideline('  urn:ferd:CrossIndustryDocument:invoice:1p0:comfort\n')).to.equal('COMFORT');
    expect(levelOfGuideline('urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended')).to.equal('EXTENDED');
    for (const v of [
      'xeinkauf.de:kosit:xrechnung_3.0',
      'xeinkauf.de:kosit:xrechnung_2.3',
      'xoev-de:kosit:standard:xrechnung_1.2',
      'xeinkauf.de:kosit:xrechnung_3.0.2',
    ])
      expect(levelOfGuideline(`urn:cen.eu:en16931:2017#compliant#urn:${v}`), v).to.equal('XRECHNUNG');
  });

  it('knows no level for other guidelines, nor for near misses of an XRechnung id', function () {
    for (const id of [
      'urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_',
      'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0x',
      'xurn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
      'URN:FACTUR-X.EU:1P0:MINIMUM',
      '',
    ])
      expect(levelOfGuideline(id), id).to.equal(undefined);
  });

  it('finds nothing when the levels agree or nothing is declared', function () {
    expect(checkConformanceLevel('EN 16931', 'urn:cen.eu:en16931:2017')).to.equal(undefined);
    expect(checkConformanceLevel(undefined, 'urn:factur-x.eu:1p0:minimum')).to.equal(undefined);
    expect(checkConformanceLevel(undefined, 'nonsense')).to.equal(undefined);
  });

  it('is fatal (at the XMP) when the declared level differs from the guideline', function () {
    const check = checkConformanceLevel('EN 16931', 'urn:factur-x.eu:1p0:minimum');
    expect(check).to.include({ rule: 'FX-LEVEL', severity: 'fatal', location: 'XMP' });
    expect(check!.message).to.contain('EN 16931').and.contain('MINIMUM');
    expect(checkConformanceLevel('en 16931', 'urn:cen.eu:en16931:2017')?.severity, 'levels are compared as written').to.equal('fatal');
  });

  it('warns that a guideline of no Factur-X level cannot be compared, quoting at most 120 of its characters', function () {
    const long = `urn:example:${'x'.repeat(500)}`;
    const check = checkConformanceLevel('BASIC', long);
    expect(check).to.include({ rule: 'FX-LEVEL', severity: 'warning' });
    expect(check!.message).to.contain('x'.repeat(100)).and.not.contain('x'.repeat(121));
  });
});
