// The client snippets for POST / and POST /ubl, shown on /docs (Redoc's x-codeSamples) and copied verbatim into the
// docs/clients.md. test/e2e/clients.test.ts runs that page's copies against the real service and holds
// them equal to these, so neither the OpenAPI page nor docs/clients.md can drift from a snippet that works.
// Every snippet reads DOCGEN_URL and DOCGEN_API_KEY and writes invoice.pdf and invoice.xml in the current folder.

const CURL = `# POST /: a PDF from a JSON body
curl -sS --fail-with-body "$DOCGEN_URL/" \\
  -H "Authorization: Bearer $DOCGEN_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"from": "Northwind Traders Ltd", "to": "Contoso GmbH", "number": "INV-1", "currency": "EUR",
       "items": [{"name": "Consulting", "quantity": 12, "unit_cost": 150}]}' \\
  -o invoice.pdf
# POST /ubl: a UBL 2.1 e-invoice from form fields in bracket notation
curl -sS --fail-with-body "$DOCGEN_URL/ubl" \\
  -H "Authorization: Bearer $DOCGEN_API_KEY" \\
  --data-urlencode 'from=Northwind Traders Ltd' --data-urlencode 'to=Contoso GmbH' \\
  --data-urlencode 'number=INV-1' --data-urlencode 'currency=EUR' \\
  --data-urlencode 'items[0][name]=Consulting' --data-urlencode 'items[0][quantity]=12' \\
  --data-urlencode 'items[0][unit_cost]=150' \\
  -o invoice.xml`;

/** The invoice of both JavaScript snippets (fetch and the typed client), written once. */
const JS_INVOICE = `const invoice = {
  from: 'Northwind Traders Ltd',
  to: 'Contoso GmbH',
  number: 'INV-1',
  currency: 'EUR',
  items: [{ name: 'Consulting', quantity: 12, unit_cost: 150 }],
};`;

const NODE_FETCH = `// Node 18+, no dependencies (save as invoice.mjs)
import { writeFile } from 'node:fs/promises';

const headers = { Authorization: \`Bearer \${process.env.DOCGEN_API_KEY}\`, 'Content-Type': 'application/json' };
${JS_INVOICE}

for (const [path, file] of [['/', 'invoice.pdf'], ['/ubl', 'invoice.xml']]) {
  const res = await fetch(process.env.DOCGEN_URL + path, { method: 'POST', headers, body: JSON.stringify(invoice) });
  if (!res.ok) {
    const error = await res.json();
    throw new Error(\`\${res.status} \${error.code}: \${error.message}\`);
  }
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
}`;

const NODE_TYPED = `// npx openapi-typescript "$DOCGEN_URL/openapi.json" -o docgen.d.ts && npm install openapi-fetch
// (save as invoice.mts; run with tsx, or compile with tsc)
import { writeFile } from 'node:fs/promises';
import createClient from 'openapi-fetch';
import type { paths } from './docgen.js';

const client = createClient<paths>({
  baseUrl: process.env.DOCGEN_URL,
  headers: { Authorization: \`Bearer \${process.env.DOCGEN_API_KEY}\` },
});
${JS_INVOICE}

const pdf = await client.POST('/', { body: invoice, parseAs: 'arrayBuffer' });
if (pdf.error) throw new Error(\`\${pdf.error.code}: \${pdf.error.message}\`);
await writeFile('invoice.pdf', Buffer.from(pdf.data));

const ubl = await client.POST('/ubl', { body: invoice, parseAs: 'text' });
if (ubl.error) throw new Error(\`\${ubl.error.code}: \${ubl.error.message}\`);
await writeFile('invoice.xml', ubl.data);`;

const PYTHON = `# Python 3, standard library only
import json
import os
import urllib.error
import urllib.request

invoice = {
    "from": "Northwind Traders Ltd",
    "to": "Contoso GmbH",
    "number": "INV-1",
    "currency": "EUR",
    "items": [{"name": "Consulting", "quantity": 12, "unit_cost": 150}],
}
headers = {"Authorization": "Bearer " + os.environ["DOCGEN_API_KEY"], "Content-Type": "application/json"}

for path, name in [("/", "invoice.pdf"), ("/ubl", "invoice.xml")]:
    request = urllib.request.Request(
        os.environ["DOCGEN_URL"] + path, data=json.dumps(invoice).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request) as response, open(name, "wb") as out:
            out.write(response.read())
    except urllib.error.HTTPError as e:
        error = json.load(e)
        raise SystemExit(f"{e.code} {error['code']}: {error['message']}")`;

const RUBY = `# Ruby, standard library only (net/http)
require 'json'
require 'net/http'

invoice = {
  from: 'Northwind Traders Ltd',
  to: 'Contoso GmbH',
  number: 'INV-1',
  currency: 'EUR',
  items: [{ name: 'Consulting', quantity: 12, unit_cost: 150 }]
}

{ '/' => 'invoice.pdf', '/ubl' => 'invoice.xml' }.each do |path, name|
  uri = URI(ENV.fetch('DOCGEN_URL') + path)
  request = Net::HTTP::Post.new(uri, 'Authorization' => "Bearer #{ENV.fetch('DOCGEN_API_KEY')}",
                                     'Content-Type' => 'application/json')
  request.body = JSON.generate(invoice)
  response = Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == 'https') { |http| http.request(request) }
  unless response.is_a?(Net::HTTPSuccess)
    error = JSON.parse(response.body)
    abort "#{response.code} #{error['code']}: #{error['message']}"
  end
  File.binwrite(name, response.body)
end`;

/** docs/clients.md's fenced blocks, by info string, in the order that page shows them. */
export const SNIPPETS = [
  { lang: 'sh', label: 'curl', source: CURL },
  { lang: 'js', label: 'Node (fetch)', source: NODE_FETCH },
  { lang: 'ts', label: 'Node (typed client)', source: NODE_TYPED },
  { lang: 'python', label: 'Python', source: PYTHON },
  { lang: 'ruby', label: 'Ruby', source: RUBY },
] as const;

const REDOC_LANG = { sh: 'Shell', js: 'JavaScript', ts: 'TypeScript', python: 'Python', ruby: 'Ruby' } as const;

/** Redoc's `x-codeSamples` of POST / and POST /ubl. */
export const CODE_SAMPLES = SNIPPETS.map((s) => ({ lang: REDOC_LANG[s.lang], label: s.label, source: s.source }));
