// A document request's Content-Type read into a body kind (http/body-kind.ts): JSON (and +json types) or a form, in
// UTF-8; any other type or charset refused as unsupported_media_type, naming the header the client sent.
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { bodyKind } from '../../../server/http/body-kind';

/** The code and message of the refusal of `contentType`, or the kind it gives. */
function refusal(contentType: string | undefined): { code: string; message: string } | string {
  try {
    return bodyKind(contentType);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { code: err.code, message: err.message };
  }
}

describe('body kind', function () {
  it('tells JSON from form bodies by Content-Type', function () {
    expect(bodyKind('application/json')).to.equal('json');
    expect(bodyKind('Application/JSON; charset=utf-8')).to.equal('json');
    expect(bodyKind('application/vnd.api+json; charset="UTF-8"')).to.equal('json');
    expect(bodyKind('application/x-www-form-urlencoded; charset=us-ascii')).to.equal('form');
  });

  it('refuses other types naming the Content-Type, and charsets other than UTF-8', function () {
    expect(refusal('text/plain; charset=utf-8')).to.deep.equal({
      code: 'unsupported_media_type',
      message: 'Content-Type text/plain is not supported. Send application/json or application/x-www-form-urlencoded.',
    });
    expect(refusal(undefined)).to.deep.equal({
      code: 'unsupported_media_type',
      message: 'The request has no Content-Type. Send application/json or application/x-www-form-urlencoded.',
    });
    expect(refusal('application/json; charset=latin1')).to.deep.equal({
      code: 'unsupported_media_type',
      message: 'The body is declared as latin1; only UTF-8 is read. Send the body in UTF-8 (charset=utf-8, or no charset).',
    });
  });
});
