// Received e-invoices for the checking tests and the bench: the official examples the install step puts in vendor/examples
// (33 files, each valid under EN 16931, the Peppol ones under Peppol BIS 3.0 too), and a long invoice made from one.
import fs from 'node:fs';
import path from 'node:path';
import { STANDARDS_DIR } from './schematron';

export const OFFICIAL_EXAMPLES_DIR = path.join(STANDARDS_DIR, 'examples');

export interface OfficialExample {
  /** `folder/file.xml`. */
  name: string;
  folder: 'en16931-ubl' | 'en16931-cii' | 'peppol-bis-3';
  xml: string;
}

/** Every official example, by folder and name. */
export function officialExamples(): OfficialExample[] {
  return (['en16931-cii', 'en16931-ubl', 'peppol-bis-3'] as const).flatMap((folder) =>
    fs
      .readdirSync(path.join(OFFICIAL_EXAMPLES_DIR, folder))
      .filter((f) => f.endsWith('.xml'))
      .sort()
      .map((f) => ({ name: `${folder}/${f}`, folder, xml: fs.readFileSync(path.join(OFFICIAL_EXAMPLES_DIR, folder, f), 'utf8') })),
  );
}

export function officialExample(name: string): string {
  return fs.readFileSync(path.join(OFFICIAL_EXAMPLES_DIR, name), 'utf8');
}

/** The Peppol base example (peppol-bis-3/base-example.xml) with its two lines repeated `pairs` times (2 × pairs
 * invoice lines, about 32 lines of XML each) and its totals made right again: valid under EN 16931 and Peppol.
 * 150 pairs are a 10,000-line invoice (390 KB). */
export function longInvoice(pairs: number): string {
  const xml = officialExample('peppol-bis-3/base-example.xml');
  const start = xml.indexOf('<cac:InvoiceLine>');
  const end = xml.lastIndexOf('</cac:InvoiceLine>') + '</cac:InvoiceLine>'.length;
  const lines = xml.slice(start, end);
  let body = '';
  for (let i = 0; i < pairs; i++) {
    let k = 0;
    body += `${lines.replace(/<cbc:ID>(1|2)<\/cbc:ID>/g, () => `<cbc:ID>${2 * i + ++k}</cbc:ID>`)}\n`;
  }
  // Each pair nets 2,800 - 1,500; the document adds a charge of 25; VAT is 25 %.
  const net = 1300 * pairs;
  const exclusive = net + 25;
  const tax = (exclusive * 0.25).toFixed(2);
  const inclusive = (exclusive * 1.25).toFixed(2);
  return (xml.slice(0, start) + body + xml.slice(end))
    .replace('<cbc:LineExtensionAmount currencyID="EUR">1300<', `<cbc:LineExtensionAmount currencyID="EUR">${net}<`)
    .replace('<cbc:TaxExclusiveAmount currencyID="EUR">1325<', `<cbc:TaxExclusiveAmount currencyID="EUR">${exclusive}<`)
    .replace('<cbc:TaxInclusiveAmount currencyID="EUR">1656.25<', `<cbc:TaxInclusiveAmount currencyID="EUR">${inclusive}<`)
    .replace('<cbc:PayableAmount currencyID="EUR">1656.25<', `<cbc:PayableAmount currencyID="EUR">${inclusive}<`)
    .replace('<cbc:TaxableAmount currencyID="EUR">1325<', `<cbc:TaxableAmount currencyID="EUR">${exclusive}<`)
    .replaceAll('<cbc:TaxAmount currencyID="EUR">331.25<', `<cbc:TaxAmount currencyID="EUR">${tax}<`);
}
