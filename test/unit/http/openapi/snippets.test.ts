// The client snippets (openapi/snippets.ts) shown on /docs and copied into docs/clients.md: each sends the same
// invoice to POST / and POST /ubl, reads the URL and key from DOCGEN_URL and DOCGEN_API_KEY (no key written in),
// writes invoice.pdf and invoice.xml and fails on an error answer; Redoc's code samples are the same sources.
// That they run against the service is test/e2e/clients.test.ts's.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../../server/config';
import { CODE_SAMPLES, SNIPPETS } from '../../../../server/http/openapi/snippets';

describe('client snippets', function () {
  it('has one snippet per language, in the order docs/clients.md shows them', function () {
    expect(SNIPPETS.map((s) => s.lang)).to.deep.equal(['sh', 'js', 'ts', 'python', 'ruby']);
  });

  it('sends the same invoice to / and /ubl, keyed from the environment, writing both files', function () {
    for (const s of SNIPPETS) {
      expect(s.source, s.label).to.contain('DOCGEN_URL').and.contain('DOCGEN_API_KEY');
      expect(s.source, s.label).to.contain('invoice.pdf').and.contain('invoice.xml');
      expect(s.source, s.label).to.contain('/ubl');
      for (const v of ['Northwind Traders Ltd', 'Contoso GmbH', 'INV-1', 'EUR', 'Consulting', '12', '150'])
        expect(s.source, `${s.label}: ${v}`).to.contain(v);
      expect(s.source, `${s.label}: no key written in`).to.not.match(/sk_[0-9A-Za-z]{32}/);
    }
  });

  it('fails on an error answer in every language', function () {
    const failing: Record<string, RegExp> = {
      sh: /--fail-with-body[\s\S]*--fail-with-body/,
      js: /if \(!res\.ok\)/,
      ts: /if \(pdf\.error\)[\s\S]*if \(ubl\.error\)/,
      python: /except urllib\.error\.HTTPError/,
      ruby: /unless response\.is_a\?\(Net::HTTPSuccess\)/,
    };
    for (const s of SNIPPETS) expect(s.source, s.label).to.match(failing[s.lang]!);
  });

  it("gives Redoc each snippet's source under Redoc's language name", function () {
    expect(CODE_SAMPLES.map((c) => c.lang)).to.deep.equal(['Shell', 'JavaScript', 'TypeScript', 'Python', 'Ruby']);
    expect(CODE_SAMPLES.map((c) => [c.label, c.source])).to.deep.equal(SNIPPETS.map((s) => [s.label, s.source]));
  });

  it('is copied verbatim into docs/clients.md', function () {
    const doc = fs.readFileSync(path.join(projectRoot(), 'docs', 'clients.md'), 'utf8');
    for (const s of SNIPPETS) expect(doc, s.label).to.contain(`\`\`\`${s.lang}\n${s.source}\n\`\`\``);
  });
});
