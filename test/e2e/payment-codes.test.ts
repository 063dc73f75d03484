// Payment QR codes on the page (payment_code), on the real service: each code read back from the rendered page by
// ZXingReader at 150 and 300 dpi and compared with the standard's payload written out here line by line (EPC069-12
// version 002), in both themes, the page still PDF/A and PDF/UA (the code a Figure with its alternate text); the link
// code and its caption; and every refusal a 400 naming its field.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { archiveCheck } from '../helpers/pdf-archive-check';
import { pdfFlatText } from '../helpers/pdf';
import { readQr } from '../helpers/qr-read';
import { post, postOk, sharedService, tempDir } from '../helpers/service';
import { THEMES } from '../helpers/themes';

const EPC_REQUEST = {
  from: 'Northwind Traders GmbH\nBerliner Str. 1\n10115 Berlin',
  to: 'Contoso GmbH',
  number: 'INV-7',
  currency: 'EUR',
  payment_code: 'epc',
  items: [
    { name: 'Consulting', quantity: 12, unit_cost: 150 },
    { name: 'Licence', quantity: 1, unit_cost: 0.005 },
  ],
  amount_paid: 100,
  e_invoice: {
    payment_means: {
      iban: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFFXXX',
      account_name: 'Northwind Traders GmbH',
      payment_id: 'RF18 5390 0754 7034',
    },
  },
};

/** Page 1 of `pdf` as a PNG at `dpi`. */
function pagePng(pdf: Buffer, dpi: number): Buffer {
  const dir = tempDir('pay-code');
  fs.writeFileSync(path.join(dir, 'doc.pdf'), pdf);
  execFileSync('pdftoppm', ['-r', String(dpi), '-f', '1', '-l', '1', '-png', path.join(dir, 'doc.pdf'), path.join(dir, 'page')]);
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.png'))!;
  return fs.readFileSync(path.join(dir, file));
}

const fieldsOf = async (res: Response) => ((await res.json()) as { details: { field: string }[] }).details.map((d) => d.field);

describe('payment QR codes on the page (payment_code)', function () {
  this.timeout(60000);

  for (const theme of THEMES) {
    it(`epc (${theme}): ZXingReader reads the EPC069-12 payload of the balance due at 150 and 300 dpi; PDF/A and PDF/UA kept`, async function () {
      const pdf = await postOk(await sharedService(), { ...EPC_REQUEST, theme });
      // 12 × 150 + 0.005 rounds to 1,800.01; less 100 paid: 1,700.01 due.
      const expected = [
        'BCD',
        '002',
        '1',
        'SCT',
        'COBADEFFXXX',
        'Northwind Traders GmbH',
        'DE89370400440532013000',
        'EUR1700.01',
        '',
        'RF18539007547034',
      ].join('\n');
      expect(readQr(pagePng(pdf, 150))).to.equal(expected);
      expect(readQr(pagePng(pdf, 300))).to.equal(expected);
      const check = await archiveCheck(pdf);
      expect(check.problems).to.deep.equal([]);
      expect(check.summary.figures).to.deep.equal(['QR code to pay €1,700.01 to Northwind Traders GmbH']);
      expect(pdfFlatText(pdf)).to.include('Scan to pay with your banking app');
    });
  }

  it('epc in German: the caption and the alternate text in the document language; remittance text when not RF', async function () {
    const body = {
      ...EPC_REQUEST,
      e_invoice: { payment_means: { iban: 'DE89370400440532013000', payment_id: 'Rechnung INV-7 – Müller' } },
    };
    const pdf = await postOk(await sharedService(), body, { headers: { 'accept-language': 'de-DE' } });
    expect(readQr(pagePng(pdf, 150))!.split('\n')).to.deep.equal([
      'BCD',
      '002',
      '1',
      'SCT',
      '',
      'Northwind Traders GmbH',
      'DE89370400440532013000',
      'EUR1700.01',
      '',
      '',
      'Rechnung INV-7 – Müller',
    ]);
    expect(pdfFlatText(pdf)).to.include('Mit der Banking-App scannen und bezahlen');
    expect((await archiveCheck(pdf)).summary.figures).to.deep.equal(['QR-Code zur Zahlung von 1.700,01\u00a0€ an Northwind Traders GmbH']);
  });

  it('epc near its byte limit (140 characters of remittance, decomposed marks): read at 100, 150, 200 and 300 dpi in both themes', async function () {
    const service = await sharedService();
    const name = 'Ñorthwind Traders GmbH & Co. KG, Berlin'; // 40 characters
    const remittances = ['e\u0301'.repeat(70), 'é'.repeat(40) + 'x'.repeat(100), 'Ü'.repeat(60) + 'y'.repeat(80)];
    for (const theme of THEMES) {
      for (const text of remittances) {
        const body = {
          ...EPC_REQUEST,
          theme,
          e_invoice: { payment_means: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', account_name: name, payment_id: text } },
        };
        const pdf = await postOk(service, body);
        const payload = ['BCD', '002', '1', 'SCT', 'COBADEFFXXX', name, 'DE89370400440532013000', 'EUR1700.01', '', '', text].join('\n');
        expect(Buffer.byteLength(payload), "within EPC069-12's 331 bytes").to.be.within(280, 331);
        for (const dpi of [100, 150, 200, 300])
          expect(readQr(pagePng(pdf, dpi)), `${theme}, ${Buffer.byteLength(payload)} bytes, ${dpi} dpi`).to.equal(payload);
      }
    }
  });

  it('link: the first payment_methods URL, its name as caption', async function () {
    const url = 'https://pay.example.com/invoices/INV-7?token=a1b2c3&lang=en';
    const body = {
      from: 'Acme',
      to: 'Client',
      payment_code: 'link',
      items: [{ name: 'Work', quantity: 1, unit_cost: 10 }],
      payment_methods: [{ type: 'url', name: 'Pay online by card', url }],
    };
    const pdf = await postOk(await sharedService(), body);
    expect(readQr(pagePng(pdf, 150))).to.equal(url);
    expect(pdfFlatText(pdf)).to.include('Pay online by card');
    expect((await archiveCheck(pdf)).problems).to.deep.equal([]);
  });

  it('link to an address of non-ASCII letters (an IRI): taken, and its QR code reads the same address in ASCII', async function () {
    const body = {
      from: 'Bücherstube',
      to: 'Client',
      payment_code: 'link',
      items: [{ name: 'Bücher', quantity: 1, unit_cost: 10 }],
      payment_methods: [{ type: 'url', name: 'Online bezahlen', url: 'https://bücher.de/zahlung?für=Rechnung-7' }],
    };
    const pdf = await postOk(await sharedService(), body);
    expect(readQr(pagePng(pdf, 150))).to.equal('https://xn--bcher-kva.de/zahlung?f%C3%BCr=Rechnung-7');
  });

  it('no payment_code, no code on the page', async function () {
    const { payment_code: _, ...body } = EPC_REQUEST;
    expect(readQr(pagePng(await postOk(await sharedService(), body), 150))).to.equal(undefined);
  });

  it('refuses with a 400 naming the field: currency, account, reference, nothing due, no link, a packing slip, a credit note, a purchase order, an unknown code, a link that is not http(s) or too long to scan', async function () {
    const service = await sharedService();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...EPC_REQUEST, currency: 'USD' }, ['currency']],
      [{ ...EPC_REQUEST, e_invoice: { payment_means: { bic: 'COBADEFFXXX' } } }, ['e_invoice.payment_means.iban']],
      [
        { ...EPC_REQUEST, e_invoice: { payment_means: { iban: 'DE89370400440532013000', payment_id: 'RF19539007547034' } } },
        ['e_invoice.payment_means.payment_id'],
      ],
      [{ ...EPC_REQUEST, amount_paid: 1800.01 }, ['balance_due']],
      [{ ...EPC_REQUEST, payment_code: 'link' }, ['payment_methods']],
      [{ from: 'A', to: 'B', type: 'packing_slip', payment_code: 'epc', items: [{ name: 'Box', quantity: 1 }] }, ['payment_code']],
      [{ ...EPC_REQUEST, payment_code: 'bitcoin' }, ['payment_code']],
      // A credit note's amount is owed to its reader, a purchase order's paid once invoiced: no code asks to pay the sender.
      [{ ...EPC_REQUEST, type: 'credit_note', amount_paid: undefined }, ['payment_code']],
      [{ ...EPC_REQUEST, type: 'purchase_order', amount_paid: undefined }, ['payment_code']],
      // Only a web address is a link to pay.
      ...['javascript:alert(1)', 'file:///etc/passwd', 'mailto:pay@example.com'].map((url): [Record<string, unknown>, string[]] => [
        { ...EPC_REQUEST, payment_code: 'link', payment_methods: [{ type: 'url', name: 'Pay', url }] },
        ['payment_methods[0].url'],
      ]),
      [
        {
          ...EPC_REQUEST,
          payment_code: 'link',
          payment_methods: [{ type: 'url', name: 'Pay', url: `https://pay.example.com/${'a'.repeat(1900)}` }],
        },
        ['payment_methods[0].url'],
      ],
    ];
    for (const [body, fields] of cases) {
      const res = await post(service, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
      expect(await fieldsOf(res)).to.deep.equal(fields);
    }
  });
});
