// Generated hostile values (fast-check) for the fuzz suites: text of every Unicode class, text that looks like markup
// or an entity, blank text, extreme numbers and decimals, odd dates, huge lists, deep nesting, odd shapes. Each is a
// value a client could send in any field; none is tied to one field.
import fc from 'fast-check';

/** Characters of one class each: scripts that shape (Arabic, Bengali), RTL, CJK, emoji with modifiers, combining
 * marks, invisible and bidi controls, the XML-illegal C0 controls, lone surrogates, private use, non-characters. */
const CLASSES = [
  [0x20, 0x7e], // ASCII
  [0xa0, 0xff], // Latin-1, the no-break space first
  [0x0600, 0x06ff], // Arabic
  [0x0980, 0x09ff], // Bengali
  [0x0590, 0x05ff], // Hebrew
  [0x4e00, 0x4fff], // CJK
  [0xac00, 0xacff], // Hangul
  [0x0300, 0x036f], // combining marks
  [0x200b, 0x200f], // zero-width and direction marks
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2066, 0x2069], // bidi isolates
  [0x2028, 0x2029], // line and paragraph separators
  [0x0000, 0x001f], // C0 controls (XML 1.0 refuses most)
  [0x007f, 0x009f], // DEL and C1 controls
  [0xd800, 0xdfff], // surrogates, alone
  [0xe000, 0xe0ff], // private use
  [0xfff0, 0xffff], // specials, U+FFFE and U+FFFF
  [0x1f300, 0x1f6ff], // emoji
  [0x1f3fb, 0x1f3ff], // skin-tone modifiers
  [0x10000, 0x100ff], // Linear B (no font has it)
] as const;

const codePoint = fc.constantFrom(...CLASSES).chain(([lo, hi]) => fc.integer({ min: lo, max: hi }));
const fromCodePoints = (points: number[]) =>
  points.map((p) => (p >= 0xd800 && p <= 0xdfff ? String.fromCharCode(p) : String.fromCodePoint(p))).join('');

/** Text mixing every class above. */
export const unicodeText = fc.array(codePoint, { maxLength: 40 }).map(fromCodePoints);

/** Text that looks like markup, an entity, a template or a format string. */
export const markupText = fc.constantFrom(
  'Price in &euro;',
  'a&nbsp;b',
  'AT&T;',
  '&#0;',
  '&#x1F600;',
  'R&amp;D',
  '&lt;b&gt;',
  '<![CDATA[x]]>',
  ']]>',
  '<!DOCTYPE x [<!ENTITY a "b">]>&a;',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{constructor.constructor "x"}}',
  '{{{notes}}}',
  '${process.exit()}',
  '%s%s%n',
  '__proto__',
  'constructor',
  "'; DROP TABLE keys; --",
  '\\u0000',
  '\\',
  '"quoted"',
  '=HYPERLINK("x")',
);

/** Text with nothing to print: spaces of every kind, line breaks, invisible characters. */
export const blankText = fc
  .array(fc.constantFrom(' ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u2028', '\u2029', '\u3000', '\u200b', '\ufeff', '\u180e', '\u2007'), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

/** Text at and past the bounds (2,000 and 10,000 characters), cheap to make. */
export const longText = fc
  .tuple(fc.constantFrom(1999, 2000, 2001, 9999, 10000, 10001, 50000), fc.constantFrom('x', 'ب', '😀', 'W\n', 'a\u0301'))
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));

/** Numbers and numeric-looking text at every edge: bounds, sub-cent decimals, exponents, other digits. */
export const numberish = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(
    0,
    -0,
    1e12,
    1e12 + 1,
    -1e12,
    -1e12 - 1,
    1e-20,
    5e-324,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_VALUE,
    0.1 + 0.2,
    '10.005',
    '0.5',
    '1e400',
    '-0',
    '0x10',
    '0b11',
    ' 12 ',
    '1,5',
    '1.000,50',
    '١٢٣',
    '৫',
    '99999999999999999999999',
    '0.00000000000000000001',
    '1e-400',
    'Infinity',
    'NaN',
    '+',
    '.',
    '1.',
    '.5',
    '%',
  ),
  fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 12 })).map(([n, d]) => (n / 10 ** d).toFixed(d)),
);

/** Dates: real, unreal, ISO with unreal times, other calendars' digits, far years. */
export const dateish = fc.oneof(
  fc.constantFrom(
    '2015-02-09T25:61:00Z',
    '2015-02-30',
    '2023-02-29',
    '0000-01-01',
    '9999-12-31',
    '2015-02-09T23:59:60Z',
    '2015-02-09T12:00+24:00',
    'Feb 29, 2023',
    '31/12/2024',
    '12/31/2024',
    '2024/13/01',
    '٢٠٢٤-٠١-٠١',
    'tomorrow',
    '1e10',
    '-2015-02-09',
    '+002015-02-09',
    '2015-W06-1',
  ),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
);

/** Nesting `depth` levels deep (the body bound is 64). */
export const nested = fc.constantFrom(2, 10, 63, 64, 65, 300).map((depth) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
});

/** Lists at and past every bound (20, 50, 1,000), with entries of any shape. */
export const hugeList = fc
  .tuple(
    fc.constantFrom(21, 51, 1001, 5000, 50000),
    fc.constantFrom<unknown>('x', 0, null, {}, [], { name: 'n', value: 'v', type: 'url', url: 'https://x.test' }),
  )
  .map(([n, entry]) => Array(n).fill(entry) as unknown[]);

/** Any hostile text. */
export const hostileText = fc.oneof(
  { arbitrary: unicodeText, weight: 4 },
  { arbitrary: markupText, weight: 3 },
  { arbitrary: blankText, weight: 2 },
  { arbitrary: longText, weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 2 },
);

/** Any hostile value for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileText, weight: 8 },
  { arbitrary: numberish, weight: 4 },
  { arbitrary: dateish, weight: 2 },
  {
    arbitrary: fc.constantFrom<unknown>(null, true, false, '', [], {}, JSON.parse('{"__proto__":{"from":"x"}}'), ['x'], [[]], { '': '' }),
    weight: 2,
  },
  { arbitrary: nested, weight: 1 },
  { arbitrary: hugeList, weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);
