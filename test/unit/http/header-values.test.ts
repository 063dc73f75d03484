// A published example's headers read as the API reads them (http/header-values.ts): names in any case, JSON when no
// Content-Type is named, Accept-Language into preferences; an unsupported type refused as the API refuses it.
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { headerValues } from '../../../server/http/header-values';

describe('header values', function () {
  it('reads the body kind and the language preferences, header names in any case', function () {
    expect(headerValues()).to.deep.equal({ kind: 'json', languages: [] });
    expect(headerValues({ 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'de;q=0.5, fr-CH' })).to.deep.equal({
      kind: 'form',
      languages: ['fr-CH', 'de'],
    });
    expect(headerValues({ 'content-type': 'application/json', 'ACCEPT-LANGUAGE': 'th' })).to.deep.equal({
      kind: 'json',
      languages: ['th'],
    });
  });

  it('refuses a media type the API does not read', function () {
    expect(() => headerValues({ 'Content-Type': 'text/csv' }))
      .to.throw(DomainError)
      .with.property('code', 'unsupported_media_type');
  });
});
