// The XSD validator (server/einvoice/xsd-validator.ts) for CII and Factur-X beside UBL: where the schemas are found
// (CII_XSD_FILE, FACTURX_XSD_DIR), that a missing or broken schema stops start-up naming the setting, that the
// UBL-only form of the existing callers still works, and that CII documents are parsed with the same guards as UBL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../../server/config';
import { buildCii } from '../../../../server/einvoice/cii/build';
import { acquireXsdValidator, XsdLoadError, type XsdPaths } from '../../../../server/einvoice/xsd-validator';
import { makeInvoice, vat } from '../../../helpers/einvoice-model';

const config = loadConfig({});
const paths = (over: Partial<XsdPaths>): XsdPaths => ({
  ublXsdDir: config.ublXsdDir,
  ciiXsdFile: config.ciiXsdFile,
  facturxXsdDir: config.facturxXsdDir,
  franceXsdDir: config.franceXsdDir,
  ...over,
});
const invoice = () => buildCii(makeInvoice({ lines: [{ quantity: '2', price: '10', vat: vat('S', '19') }] }));

/** What starting a validator on `p` ends with: undefined when it started, else the error. */
async function startFailure(p: XsdPaths): Promise<Error | undefined> {
  try {
    const ref = acquireXsdValidator(p);
    try {
      await ref.validator.ready();
    } finally {
      await ref.release();
    }
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

describe('XSD validation of CII and Factur-X beside UBL', function () {
  let tmp: string;
  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cii-xsd-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('finds the schemas by default (in the standards folder, vendor/) and takes CII_XSD_FILE and FACTURX_XSD_DIR', function () {
    expect(fs.existsSync(config.ciiXsdFile), config.ciiXsdFile).to.equal(true);
    expect(path.basename(config.ciiXsdFile)).to.equal('CrossIndustryInvoice_100pD16B.xsd');
    expect(fs.existsSync(path.join(config.facturxXsdDir, 'facturx-en16931', 'Factur-X_EN16931.xsd'))).to.equal(true);
    const set = loadConfig({ CII_XSD_FILE: 'x/cii.xsd', FACTURX_XSD_DIR: 'y' });
    expect(set.ciiXsdFile).to.equal(path.resolve('x/cii.xsd'));
    expect(set.facturxXsdDir).to.equal(path.resolve('y'));
  });

  it('one validator for a Config knows every root (UBL, CII, the five Factur-X profiles, the French CII D22B and CDAR); the UBL-only form still validates UBL and refuses CII', async function () {
    const all = acquireXsdValidator(config);
    const again = acquireXsdValidator(paths({}));
    const ublOnly = acquireXsdValidator(config.ublXsdDir);
    try {
      expect(again.validator, 'shared per set of paths').to.equal(all.validator);
      expect(all.validator.roots()).to.deep.equal([
        'Invoice',
        'CreditNote',
        'CrossIndustryInvoice',
        'FacturX-MINIMUM',
        'FacturX-BASICWL',
        'FacturX-BASIC',
        'FacturX-EN16931',
        'FacturX-EXTENDED',
        'CrossIndustryInvoice-D22B',
        'CrossDomainAcknowledgementAndResponse',
      ]);
      expect(ublOnly.validator.roots()).to.deep.equal(['Invoice', 'CreditNote']);
      await Promise.all([all.validator.ready(), ublOnly.validator.ready()]);
      expect(await all.validator.validate(invoice(), 'CrossIndustryInvoice')).to.deep.equal([]);
      expect(await all.validator.validate(invoice(), 'FacturX-EN16931')).to.deep.equal([]);
      expect((await all.validator.validate(invoice(), 'Invoice')).join('\n'), 'CII is not UBL').to.match(/CrossIndustryInvoice/);
      expect(await ublOnly.validator.check()).to.equal(true);
      let refusal: Error | undefined;
      await ublOnly.validator.validate(invoice(), 'CrossIndustryInvoice').catch((err: Error) => (refusal = err));
      expect(refusal?.message).to.match(/started without the CrossIndustryInvoice schema/);
    } finally {
      await Promise.all([all.release(), again.release(), ublOnly.release()]);
    }
  });

  it('a missing CII or Factur-X schema stops start-up, naming the file and the setting', async function () {
    const noCii = await startFailure(paths({ ciiXsdFile: path.join(tmp, 'nowhere.xsd') }));
    expect(noCii).to.be.instanceOf(XsdLoadError);
    expect(noCii!.message).to.match(/CII D16B XSD files are missing: .*nowhere\.xsd \(run npm run standards, or set CII_XSD_FILE/);
    const noFx = await startFailure(paths({ facturxXsdDir: tmp }));
    expect(noFx).to.be.instanceOf(XsdLoadError);
    expect(noFx!.message).to.match(
      /Factur-X EN 16931 XSD files are missing: .*Factur-X_EN16931\.xsd \(run npm run standards, or set FACTURX_XSD_DIR/,
    );
  });

  it('a broken CII schema stops start-up, naming the schema set', async function () {
    const dir = path.join(tmp, 'cii');
    fs.cpSync(path.resolve(path.dirname(config.ciiXsdFile), '..', '..'), dir, { recursive: true });
    const main = path.join(dir, 'data', 'standard', path.basename(config.ciiXsdFile));
    fs.chmodSync(main, 0o644);
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').slice(0, 1500));
    const failure = await startFailure(paths({ ciiXsdFile: main }));
    expect(failure).to.be.instanceOf(XsdLoadError);
    expect(failure!.message).to.match(/^the CII D16B XSDs could not be loaded: /);
  });

  it('reads no external entity in a CII document', async function () {
    const secret = path.join(tmp, 'secret.txt');
    fs.writeFileSync(secret, 'TOP-SECRET-VALUE');
    const xxe = invoice()
      .replace(/^<\?xml[^>]*>/, `<?xml version="1.0"?><!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY x SYSTEM "file://${secret}">]>`)
      .replace(/(<udt:DateTimeString format="102">)\d+/, '$1&x;');
    const ref = acquireXsdValidator(config);
    try {
      const errors = await ref.validator.validate(xxe, 'CrossIndustryInvoice');
      expect(errors, 'refused').to.have.length.greaterThan(0);
      expect(errors.join('\n')).not.to.contain('TOP-SECRET-VALUE');
    } finally {
      await ref.release();
    }
  });
});
