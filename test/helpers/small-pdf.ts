// A one-page PDF written by hand (catalog, pages, page, and optionally an Info dictionary), then rewritten by qpdf
// with the given arguments: the small inputs of the PDF unit tests, no Chromium needed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function smallPdf(opts: { catalog?: string; info?: string; qpdfArgs?: string[] } = {}): Buffer {
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R${opts.catalog ? ` ${opts.catalog}` : ''} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    ...(opts.info ? [opts.info] : []),
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((obj, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  const size = objects.length + 1;
  body += `xref\n0 ${size}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${size} /Root 1 0 R${opts.info ? ` /Info ${size - 1} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-small-pdf-'));
  fs.writeFileSync(path.join(dir, 'in.pdf'), body, 'latin1');
  execFileSync('qpdf', [...(opts.qpdfArgs ?? []), path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
  return fs.readFileSync(path.join(dir, 'out.pdf'));
}
