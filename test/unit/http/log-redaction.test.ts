// What the log may say of an error: the kind and the counts, never the client's text.
import { expect } from 'chai';
import { EInvoiceSchemaError } from '../../../server/einvoice/schema-error';
import { errorForLog, redactQuotes } from '../../../server/http/log-redaction';

describe('log redaction', function () {
  it("replaces quoted text by its length, keeping the schema's element names", function () {
    const xsd =
      "Element '{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}Note': [facet 'maxLength'] The value 'Secret note' has a length of '11'.";
    expect(redactQuotes(xsd)).to.equal(
      "Element '{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}Note': [facet '(9 characters)'] The value '(11 characters)' has a length of '(2 characters)'.",
    );
    expect(redactQuotes('Entity "euro" not defined')).to.equal('Entity "(4 characters)" not defined');
  });

  it('an XSD failure is logged with its count and redacted messages; no message carries what was sent', function () {
    const err = new EInvoiceSchemaError(
      'Invoice',
      Array.from({ length: 7 }, (_, i) => `line ${i}: The value 'AT&T secret ${i}' is not valid`),
    );
    const logged = JSON.stringify(errorForLog(err));
    expect(logged).not.to.contain('secret');
    const parsed = JSON.parse(logged) as { xsdErrorCount: number; xsdErrors: string[]; type: string; stack: string };
    expect(parsed.xsdErrorCount).to.equal(7);
    expect(parsed.xsdErrors).to.have.length(5);
    expect(parsed.type).to.equal('EInvoiceSchemaError');
    expect(parsed.stack).to.match(/^\s+at /);
  });
});
