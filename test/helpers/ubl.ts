// Checking UBL in the tests: XSD validity with xmllint (independent of the service's own validator), the embedded
// PDF, and amounts read from the XML.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../server/config';

export const XSD_DIR = loadConfig({}).ublXsdDir;

/** xmllint's verdict: [] when valid, else its error lines. */
/** xmllint's verdict on `xml` against the XSD file `xsd`: [] when valid, else its error lines (a second opinion,
 * independent of the service's own validator). */
export function xmllintErrors(xml: string, xsd: string): string[] {
  try {
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', xsd, '-'], { input: xml, stdio: ['pipe', 'pipe', 'pipe'] });
    return [];
  } catch (err) {
    return String((err as { stderr: Buffer }).stderr)
      .trim()
      .split('\n')
      .filter((l) => !l.endsWith('validates'));
  }
}

export function xsdErrors(xml: string, root: 'Invoice' | 'CreditNote'): string[] {
  return xmllintErrors(xml, path.join(XSD_DIR, 'maindoc', `UBL-${root}-2.1.xsd`));
}

/** Text of the first element with this qualified name (e.g. `cbc:PayableAmount`). */
export function xmlValue(xml: string, qname: string): string | undefined {
  return new RegExp(`<${qname}(?:\\s[^>]*)?>([^<]*)</${qname}>`).exec(xml)?.[1];
}

export function embeddedPdf(xml: string): Buffer {
  const b64 = xmlValue(xml, 'cbc:EmbeddedDocumentBinaryObject');
  if (!b64) throw new Error('no embedded document');
  return Buffer.from(b64, 'base64');
}

export function rootOf(xml: string): 'Invoice' | 'CreditNote' {
  return /<CreditNote\b/.test(xml) ? 'CreditNote' : 'Invoice';
}
