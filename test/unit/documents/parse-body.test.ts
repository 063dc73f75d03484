// Reading a body of a given kind: JSON or the reference's bracket-notation form fields; every failure a named domain
// error that speaks of the body, never of a header (which kind a Content-Type gives: test/unit/http/body-kind.test.ts).
import { expect } from 'chai';
import { DomainError } from '../../../server/errors';
import { MAX_JSON_DEPTH, parseBody } from '../../../server/documents/parse-body';

const LIMITS = { maxItems: 100, maxValues: 1000 };

/** The first problem a refusal names. */
const firstProblem = (fn: () => unknown): { field: string; message: string } | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as DomainError).facts.details?.[0];
  }
  return undefined;
};

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError ? err.code : `not a domain error: ${(err as Error).message}`;
  }
  return undefined;
};

describe('parse-body', function () {
  it('reads JSON (a BOM dropped), refusing empty, malformed and too deeply nested bodies', function () {
    expect(parseBody('json', Buffer.from('\uFEFF{"from":"A"}'), LIMITS)).to.deep.equal({ from: 'A' });
    expect(codeOf(() => parseBody('json', Buffer.from('  \n'), LIMITS))).to.equal('empty_body');
    expect(codeOf(() => parseBody('json', Buffer.from('{"from":'), LIMITS))).to.equal('malformed_json');
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect(codeOf(() => parseBody('json', Buffer.from(deep), LIMITS))).to.equal('malformed_json');
  });

  it('refuses bytes that are not UTF-8, saying where, rather than reading them as U+FFFD', function () {
    const message = (fn: () => unknown): string => {
      try {
        fn();
      } catch (err) {
        return (err as Error).message;
      }
      return 'read';
    };
    // Latin-1 bytes, a stray byte, an encoded surrogate (CESU), an overlong slash and a cut three-byte character.
    const bodies: [string, number[], string][] = [
      ['{"from":"Caf', [0xe9], '"}'],
      ['{"from":"A', [0xff, 0xfe], '"}'],
      ['{"from":"', [0xed, 0xa0, 0x80], '"}'],
      ['{"from":"', [0xc0, 0xaf], '"}'],
      ['{"from":"', [0xe2, 0x82], '"}'],
    ];
    for (const [head, bytes, tail] of bodies) {
      const raw = Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]);
      expect(
        codeOf(() => parseBody('json', raw, LIMITS)),
        head,
      ).to.equal('malformed_json');
      const hex = bytes[0]!.toString(16).toUpperCase();
      expect(message(() => parseBody('json', raw, LIMITS))).to.contain(
        `byte 0x${hex} at offset ${head.length}, after "${head}", is not UTF-8`,
      );
    }
    const form = Buffer.concat([Buffer.from('from=Caf'), Buffer.from([0xe9]), Buffer.from('&to=B')]);
    expect(firstProblem(() => parseBody('form', form, LIMITS))).to.deep.equal({
      field: '(body)',
      message: 'the body must be UTF-8: byte 0xE9 at offset 8, after "from=Caf", is not UTF-8',
    });
    // UTF-8 itself, four-byte characters and U+FFFD sent as such included, is read.
    expect(parseBody('json', Buffer.from('{"from":"Café 🚚 \uFFFD �"}'), LIMITS)).to.deep.equal({ from: 'Café 🚚 � �' });
  });

  it('reads a form’s percent escapes as UTF-8, refusing escapes of bytes that are not, keeping a stray %', function () {
    const from = (body: string) => (parseBody('form', Buffer.from(body), LIMITS) as { from: string }).from;
    expect(from('from=Caf%C3%A9+%26+Co')).to.equal('Café & Co');
    expect(from('from=50%25+off')).to.equal('50% off');
    // A sloppy client's bare %: kept, and the escapes around it still read.
    expect(from('from=50%+off+Caf%C3%A9')).to.equal('50% off Café');
    expect(from('from=100%')).to.equal('100%');
    for (const body of ['from=A%FF', 'from=%E0%A4%A', 'from=%ED%A0%80', 'fr%FFom=A']) {
      expect(
        firstProblem(() => parseBody('form', Buffer.from(body), LIMITS)),
        body,
      ).to.deep.include({ field: '(body)' });
      expect(firstProblem(() => parseBody('form', Buffer.from(body), LIMITS))!.message, body).to.match(
        /^the body must be UTF-8: the form value ".*" has percent escapes that are not UTF-8$/,
      );
    }
  });

  it('reads a stray % without an error thrown and caught (the published VAT example sends `fields[tax]=%`)', function () {
    // A thrown error records a stack trace: the example's form paid one per request before the stray % was looked for.
    const real = globalThis.decodeURIComponent;
    let thrown = 0;
    globalThis.decodeURIComponent = (text: string) => {
      try {
        return real(text);
      } catch (err) {
        thrown++;
        throw err;
      }
    };
    try {
      const body = parseBody('form', Buffer.from('fields[tax]=%&from=50%+off+Caf%C3%A9&to=100%25'), LIMITS);
      expect(body).to.deep.equal({ fields: { tax: '%' }, from: '50% off Café', to: '100%' });
    } finally {
      globalThis.decodeURIComponent = real;
    }
    expect(thrown).to.equal(0);
  });

  it('says what is wrong with the body without naming a header', function () {
    const messageOf = (raw: string) => {
      try {
        parseBody('json', Buffer.from(raw), LIMITS);
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    for (const raw of ['{"from":', ' ', '['.repeat(MAX_JSON_DEPTH + 1)]) {
      expect(messageOf(raw)).to.match(/^The request body is /);
      expect(messageOf(raw)).not.to.match(/Content-Type|header/i);
    }
  });

  it('reads form fields in bracket notation: long item lists stay lists, the last repeated key wins, no prototypes', function () {
    const items = Array.from({ length: 40 }, (_, i) => `items[${i}][name]=N${i}`).join('&');
    const body = parseBody('form', Buffer.from(`from=A%0AB&to=C&to=D&${items}&__proto__[x]=1`), LIMITS) as {
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

  it('reads JSON nested as deep as docs/api.md says (64 levels), and refuses the 65th', function () {
    const nest = (levels: number) => '['.repeat(levels - 1) + '{}' + ']'.repeat(levels - 1);
    expect(MAX_JSON_DEPTH).to.equal(64);
    expect(() => parseBody('json', Buffer.from(`{"a":${nest(63)}}`), LIMITS)).not.to.throw();
    expect(codeOf(() => parseBody('json', Buffer.from(`{"a":${nest(64)}}`), LIMITS))).to.equal('malformed_json');
  });

  it('refuses a form of more fields than a document can need before qs reads it, naming the field that sends most', function () {
    const form = `from=A&to=B&${Array.from({ length: 1200 }, () => 'items[]=x').join('&')}`;
    const problem = firstProblem(() => parseBody('form', Buffer.from(form), LIMITS));
    expect(problem?.field).to.equal('items');
    expect(problem?.message).to.contain('1200 form fields');
    // At the bound it is read.
    const atBound = `from=A&${Array.from({ length: 999 }, (_, i) => `items[${i % 100}][name]=x`).join('&')}`;
    expect(() => parseBody('form', Buffer.from(atBound), LIMITS)).not.to.throw();
  });

  it('refuses a JSON body of more values than a document can need, naming the field that holds the most', function () {
    const body = JSON.stringify({ from: 'A', items: [{ name: 'x' }], notes: Array(400).fill({ a: 1, b: [2] }) });
    const problem = firstProblem(() => parseBody('json', Buffer.from(body), LIMITS));
    expect(problem?.field).to.equal('notes');
    expect(problem?.message).to.equal('notes holds 1601 values; a document may hold at most 1000 in all');
    const atBound = JSON.stringify({ items: Array(499).fill('x') });
    expect(() => parseBody('json', Buffer.from(atBound), LIMITS)).not.to.throw();
  });
});
