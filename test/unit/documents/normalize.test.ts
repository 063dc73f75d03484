// Request clean-up before validation (documents/normalize.ts, docs/decisions.md §1): empty strings and nulls are absent at any
// depth, form-style lists become lists, numeric strings must be decimals, toggles and codes are read as clients write
// them. It never rejects: whatever it cannot read is left for the schema to report.
import { expect } from 'chai';
import { loadConfig } from '../../../server/config';
import { normalizeRequest } from '../../../server/documents/normalize';
import { projectAssets } from '../../helpers/project-assets';

/** The numeric fields as the real schemas name them. */
const { numericFields } = projectAssets(loadConfig({ NODE_ENV: 'test' }).limits).schemas;
const normalize = (body: Record<string, unknown>) => normalizeRequest(body, numericFields);

const NOT_A_DECIMAL = { notADecimal: true };

describe('request normalization', function () {
  it('drops null and empty-string members at any depth, and leaves the body it was given alone', function () {
    const body = {
      from: 'Acme',
      to: '',
      notes: null,
      items: [{ name: 'Consulting', description: '', quantity: null, unit_cost: 150 }],
      e_invoice: { seller: { name: '', vat_id: null, city: 'Ghent' } },
    };
    const before = structuredClone(body);
    expect(normalize(body)).to.deep.equal({
      from: 'Acme',
      items: [{ name: 'Consulting', unit_cost: 150 }],
      e_invoice: { seller: { city: 'Ghent' } },
    });
    expect(body).to.deep.equal(before);
  });

  it('keeps zeros, false and list entries as sent (the schema judges them)', function () {
    const out = normalize({ tax: 0, amount_paid: '0', fields: { tax: false }, items: [null, '', { name: 'a', quantity: 0 }] });
    expect(out).to.deep.equal({ tax: 0, amount_paid: '0', fields: { tax: false }, items: [null, '', { name: 'a', quantity: 0 }] });
  });

  it('turns vertical tabs and form feeds (Word line and page breaks) into line breaks', function () {
    expect(normalize({ notes: 'Line 1\u000bLine 2\fPage 2', items: [{ description: 'a\u000bb' }] })).to.deep.equal({
      notes: 'Line 1\nLine 2\nPage 2',
      items: [{ description: 'a\nb' }],
    });
  });

  it('drops a __proto__ member instead of letting it become the prototype', function () {
    const out = normalize(
      JSON.parse('{"from": "A", "__proto__": {"tax": 99, "from": "evil"}, "items": [{"__proto__": {"unit_cost": 5}}]}'),
    );
    expect(Object.getPrototypeOf(out)).to.equal(Object.prototype);
    expect(out.tax).to.equal(undefined);
    expect(out.from).to.equal('A');
    expect((out.items as Record<string, unknown>[])[0]!.unit_cost).to.equal(undefined);
  });

  it('turns a list sent as an object keyed by index (form bodies) into a list in numeric order', function () {
    const out = normalize({
      items: { '10': { name: 'k' }, '2': { name: 'c' }, '0': { name: 'a' } },
      custom_fields: { '0': { name: 'PO', value: '42' } },
      payment_methods: { '1': { type: 'url', name: 'Pay', url: 'https://pay.example' } },
    });
    expect(out.items).to.deep.equal([{ name: 'a' }, { name: 'c' }, { name: 'k' }]);
    expect(out.custom_fields).to.deep.equal([{ name: 'PO', value: '42' }]);
    expect(out.payment_methods).to.deep.equal([{ type: 'url', name: 'Pay', url: 'https://pay.example' }]);
    // Keys that are not all indexes: left as an object for the schema to refuse.
    expect(normalize({ items: { '0': { name: 'a' }, name: 'b' } }).items).to.deep.equal({ '0': { name: 'a' }, name: 'b' });
  });

  it('reads numeric strings only as decimals: no hex, binary, octal, Infinity, thousands separators or other digits', function () {
    for (const text of ['12', '1234567.89', '-0.25', '+3', '.5', '5.', '1e3', '2.5E-4', ' 7 ']) {
      expect(normalize({ tax: text }).tax, text).to.equal(text);
    }
    for (const text of ['0x10', '0b11', '0o17', 'Infinity', '-Infinity', 'NaN', '1,000', '1 000', '1e', '12%', '$5', '١٢']) {
      expect(normalize({ tax: text }).tax, text).to.deep.equal(NOT_A_DECIMAL);
    }
    const out = normalize({
      discounts: '10%',
      shipping: '0x1F',
      amount_paid: 'abc',
      amount_refunded: '5',
      items: [{ name: '0x10', quantity: '0x10', unit_cost: 'Infinity', payment: '12.50' }],
    });
    expect(out).to.deep.equal({
      discounts: NOT_A_DECIMAL,
      shipping: NOT_A_DECIMAL,
      amount_paid: NOT_A_DECIMAL,
      amount_refunded: '5',
      items: [{ name: '0x10', quantity: NOT_A_DECIMAL, unit_cost: NOT_A_DECIMAL, payment: '12.50' }],
    });
  });

  it('a numeric field of white space only is absent, at any depth, as blank text is elsewhere', function () {
    // A form's padded empty input: before, "tax must be a number" (a 400) where the docs say blank counts as absent.
    const out = normalize({
      tax: '  ',
      shipping: '\u00a0',
      discounts: '\t\n',
      amount_paid: '\u2028',
      notes: ' ',
      items: [{ name: 'x', quantity: ' ', unit_cost: ' ', allowances: [{ amount: ' ', reason: 'r' }] }],
    });
    expect(out).to.deep.equal({ notes: ' ', items: [{ name: 'x', allowances: [{ reason: 'r' }] }] });
  });

  it('makes a number too large for a double the largest double of its sign, for the bounds to refuse by name', function () {
    // "1e400" is a decimal, but Number("1e400") and JSON's 1e400 are Infinity, on which ajv checks no bound.
    const out = normalize({ tax: '1e400', shipping: Infinity, amount_paid: '-1e999', items: [{ name: 'x', unit_cost: -Infinity }] });
    expect(out).to.deep.equal({
      tax: Number.MAX_VALUE,
      shipping: Number.MAX_VALUE,
      amount_paid: -Number.MAX_VALUE,
      items: [{ name: 'x', unit_cost: -Number.MAX_VALUE }],
    });
    expect(normalize({ tax: '1e300' }).tax).to.equal('1e300');
  });

  it('drops custom fields with neither name nor value (unused form rows), keeps the others', function () {
    const out = normalize({ custom_fields: [{ name: '', value: null }, { name: 'PO' }, {}, { value: 'orphan' }] });
    expect(out.custom_fields).to.deep.equal([{ name: 'PO' }, { value: 'orphan' }]);
  });

  it('reads the legacy invoice_number_title as number_title, unless number_title is sent too', function () {
    expect(normalize({ invoice_number_title: 'Invoice No.' })).to.deep.equal({ number_title: 'Invoice No.' });
    expect(normalize({ invoice_number_title: 'Old', number_title: 'New' })).to.deep.equal({ number_title: 'New' });
  });

  it('reads toggles sent as text, in any case and with spaces; leaves anything else for the schema', function () {
    expect(normalize({ fields: { tax: ' % ', discounts: 'TRUE', shipping: 'False' } }).fields).to.deep.equal({
      tax: '%',
      discounts: true,
      shipping: false,
    });
    expect(normalize({ fields: { tax: 'yes', discounts: 1 } }).fields).to.deep.equal({ tax: 'yes', discounts: 1 });
  });

  it('writes codes as the schemas expect them: currency, type, countries, VAT ids, tax category, IBAN and BIC', function () {
    const out = normalize({
      currency: ' eur ',
      type: ' Credit_Note ',
      e_invoice: {
        seller: { country: ' be ', vat_id: 'be 0123.456-749' },
        buyer: { country: 'nl', vat_id: 'nl 8547.12.345.b01' },
        tax_category: ' ae ',
        payment_means: { code: 30, iban: 'be71 0961 2345 6769', bic: 'gkcc bebb' },
      },
    });
    expect(out).to.deep.equal({
      currency: 'EUR',
      type: 'credit_note',
      e_invoice: {
        seller: { country: 'BE', vat_id: 'BE0123456749' },
        buyer: { country: 'NL', vat_id: 'NL854712345B01' },
        tax_category: 'AE',
        payment_means: { code: '30', iban: 'BE71096123456769', bic: 'GKCCBEBB' },
      },
    });
  });

  it('never throws, whatever the shape', function () {
    for (const body of [
      {},
      { items: 'abc', fields: [], e_invoice: 'x', custom_fields: 5 },
      { items: [[1], 2, 'x'], e_invoice: { seller: 'x', buyer: [], payment_means: 'x' } },
      { fields: null, currency: 7, type: ['invoice'] },
    ]) {
      expect(() => normalize(body as Record<string, unknown>), JSON.stringify(body)).to.not.throw();
    }
  });

  it("reads only the toggles' own words: constructor or __proto__ stay the strings sent (the schema refuses them)", function () {
    expect(normalize({ fields: { tax: 'constructor', discounts: '__proto__', shipping: 'toString' } }).fields).to.deep.equal({
      tax: 'constructor',
      discounts: '__proto__',
      shipping: 'toString',
    });
  });

  it('finds the numeric fields in the schemas: every amount of the body and of a line, nothing else', function () {
    expect([...numericFields.document].sort()).to.deep.equal(['amount_paid', 'amount_refunded', 'discounts', 'shipping', 'tax']);
    expect([...numericFields.item].sort()).to.deep.equal(['gross_price', 'payment', 'price_base_quantity', 'quantity', 'tax', 'unit_cost']);
    // A text field keeps a hexadecimal-looking value as text.
    expect(normalize({ number: '0x10', items: [{ name: '0b11' }] })).to.deep.equal({ number: '0x10', items: [{ name: '0b11' }] });
  });

  it('reads numbers nested in lists and objects as decimals too: taxes, allowances, charges, tax currency, rounding', function () {
    const shape = (s: typeof numericFields.shape): unknown => ({
      numbers: [...s.numbers].sort(),
      ...Object.fromEntries([...s.children].map(([k, c]) => [k, shape(c)])),
    });
    expect(shape(numericFields.shape)).to.deep.include({
      taxes: { numbers: ['amount', 'rate'] },
      e_invoice: {
        numbers: ['rounding_amount'],
        tax_currency: { numbers: ['exchange_rate'] },
        allowances: { numbers: ['amount', 'base_amount', 'percent', 'tax_rate'] },
        charges: { numbers: ['amount', 'base_amount', 'percent', 'tax_rate'] },
      },
    });
    const out = normalize({
      taxes: [
        { title: 'GST', rate: '0x10' },
        { title: 'PST', rate: '7.5', amount: 'Infinity' },
      ],
      items: [{ name: 'a', allowances: [{ amount: '0b11', reason: '0x10' }], charges: [{ percent: ' 2.5 ' }] }],
      e_invoice: { tax_currency: { code: 'DKK', exchange_rate: '0o17' }, rounding_amount: '1e-2', allowances: [{ tax_rate: '1_0' }] },
    });
    expect(out).to.deep.equal({
      taxes: [
        { title: 'GST', rate: NOT_A_DECIMAL },
        { title: 'PST', rate: '7.5', amount: NOT_A_DECIMAL },
      ],
      // A text beside a number (reason) keeps what looks like a number as text.
      items: [{ name: 'a', allowances: [{ amount: NOT_A_DECIMAL, reason: '0x10' }], charges: [{ percent: ' 2.5 ' }] }],
      e_invoice: {
        tax_currency: { code: 'DKK', exchange_rate: NOT_A_DECIMAL },
        rounding_amount: '1e-2',
        allowances: [{ tax_rate: NOT_A_DECIMAL }],
      },
    });
  });

  it('writes a payment URL of non-ASCII letters (an IRI) in ASCII, and leaves any other as sent', function () {
    const urls = (...sent: unknown[]) =>
      (normalize({ payment_methods: sent.map((url) => ({ type: 'url', name: 'Pay', url })) }).payment_methods as { url: unknown }[]).map(
        (m) => m.url,
      );
    expect(urls('https://bücher.de/pay', 'https://e.com/?x=ä', 'https://例え.jp/支払い')).to.deep.equal([
      'https://xn--bcher-kva.de/pay',
      'https://e.com/?x=%C3%A4',
      'https://xn--r8jz45g.jp/%E6%94%AF%E6%89%95%E3%81%84',
    ]);
    // ASCII URLs stay byte for byte (no trailing slash added); what is not a URL is the schema's to refuse.
    expect(urls('https://pay.example.com', 'https://e.com/a b', 'not a url ä', 42)).to.deep.equal([
      'https://pay.example.com',
      'https://e.com/a b',
      'not a url ä',
      42,
    ]);
    // The e-invoice attachments' URLs (BT-124), the other URLs the schemas check, alike.
    const attached = normalize({ e_invoice: { attachments: [{ id: 'A', url: 'https://bücher.de/a' }, { id: 'B' }] } }).e_invoice as {
      attachments: { url?: string }[];
    };
    expect(attached.attachments.map((a) => a.url)).to.deep.equal(['https://xn--bcher-kva.de/a', undefined]);
  });
});
