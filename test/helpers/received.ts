// Received e-invoices in tests: the official examples, the /validate report's shape as tests read it, and posting an
// XML or PDF body as it arrives from another system.
import fs from 'node:fs';
import path from 'node:path';
import { STANDARDS_DIR } from './schematron';
import { post, type TestService } from './service';

export const EXAMPLES_DIR = path.join(STANDARDS_DIR, 'examples');

/** The official examples, as `folder/file.xml` under EXAMPLES_DIR. */
export const OFFICIAL_EXAMPLES = fs
  .readdirSync(EXAMPLES_DIR)
  .flatMap((dir) => fs.readdirSync(path.join(EXAMPLES_DIR, dir)).map((f) => path.join(dir, f)))
  .filter((f) => f.endsWith('.xml'))
  .sort();

export const readExample = (file: string): string => fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');

export interface Finding {
  rule: string;
  severity: string;
  message: string;
  location?: string;
  rule_set: string;
  line?: number;
  column?: number;
}

export interface Report {
  valid: boolean;
  syntax: 'ubl' | 'cii';
  document_type: 'invoice' | 'credit_note';
  specification: string;
  profile: string | null;
  french: boolean;
  rule_sets: { name: string; version: string; fatal: number; warnings: number }[];
  errors: Finding[];
  warnings: Finding[];
}

/** POSTs an XML (or PDF) body as it arrives from another system. */
export function postReceived(
  service: TestService,
  body: string | Buffer,
  route: string,
  contentType = 'application/xml',
): Promise<Response> {
  return post(service, Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), { path: route, headers: { 'content-type': contentType } });
}
