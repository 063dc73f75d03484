// Reading a body by its Content-Type: JSON or the reference's bracket-notation form fields; every failure a named
// domain error.
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { bodyKind, MAX_JSON_DEPTH, parseBody } from '../../../server/documents/parse-body';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError ? err.code : `not a domain error: ${(err as Error).message}`;
  }
  return undefined;
};

describe('parse-body', function () {
  it('tells JSON from form bodies by Content-Type, refusing others and charsets other than UTF-8', function () {
    expect(bodyKind('application/json')).to.equal('json');
    expect(bodyKind('application/json; charset=utf-8')).to.equal('json');
    expect(bodyKind('application/x-www-form-urlencoded')).to.equal('form');
    expect(codeOf(() => bodyKind('text/plain'))).to.equal('unsupported_media_type');
    expect(codeOf(() => bodyKind(undefined))).to.equal('unsupported_media_type');
    expect(codeOf(() => bodyKind('application/json; charset=latin1'))).to.equal('unsupported_media_type');
  });

  it('reads JSON (a BOM dropped), refusing empty, malformed and too deeply nested bodies', function () {
    expect(parseBody('json', Buffer.from('\uFEFF{"from":"A"}'), 100)).to.deep.equal({ from: 'A' });
    expect(codeOf(() => parseBody('json', Buffer.from('  \n'), 100))).to.equal('empty_body');
    expect(codeOf(() => parseBody('json', Buffer.from('{"from":'), 100))).to.equal('malformed_json');
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect(codeOf(() => parseBody('json', Buffer.from(deep), 100))).to.equal('malformed_json');
  });

  it('reads form fields in bracket notation: long item lists stay lists, the last repeated key wins, no prototypes', function () {
    const items = Array.from({ length: 40 }, (_, i) => `items[${i}][name]=N${i}`).join('&');
    const body = parseBody('form', Buffer.from(`from=A%0AB&to=C&to=D&${items}&__proto__[x]=1`), 100) as {
      from: string;
      to: string;
      items: { name: string }[];
    };
    expect(body.from).to.equal('A\nB');
    expect(body.to).to.equal('D');
    expect(Array.isArray(body.items)).to.equal(true);
    expect(body.items).to.have.length(40);
    expect(body.items[39]!.name).to.equal('N39');
    expect(({} as Record<string, unknown>).x).to.equal(undefined);
  });
});
