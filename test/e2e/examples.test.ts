// Every published example gives the status and the PDF text or UBL it expects, over real HTTP, real Chromium.
import { expect } from 'chai';
import { loadExamples } from '../helpers/examples';
import { isPdf, pdfFlatText } from '../helpers/pdf';
import { sharedService } from '../helpers/service';
import { embeddedPdf, xsdErrors } from '../helpers/ubl';

describe('published examples', function () {
  const examples = loadExamples();

  it('there are examples to run', function () {
    expect(examples.length).to.be.greaterThanOrEqual(8);
  });

  for (const ex of examples) {
    it(`${ex.name}: ${ex.request.path} → ${ex.expect.status}`, async function () {
      const service = await sharedService();
      const headers: Record<string, string> = { ...ex.request.headers };
      if (!ex.no_auth) headers.authorization = `Bearer ${service.key}`;
      const body = typeof ex.request.body === 'string' ? ex.request.body : JSON.stringify(ex.request.body);
      const res = await fetch(`${service.url}${ex.request.path}`, { method: ex.request.method, headers, body });
      expect(res.status, await peek(res)).to.equal(ex.expect.status);
      if (ex.expect.content_type) expect(res.headers.get('content-type')).to.contain(ex.expect.content_type);
      if (ex.expect.content_language) expect(res.headers.get('content-language')).to.equal(ex.expect.content_language);
      if (ex.expect.status === 200 && ex.request.path === '/ubl') {
        const xml = await res.text();
        if (ex.expect.xsd) expect(xsdErrors(xml, ex.expect.xsd as 'Invoice' | 'CreditNote')).to.deep.equal([]);
        for (const t of ex.expect.xml_text ?? []) expect(xml, `XML should contain "${t}"`).to.contain(t);
        expect(isPdf(embeddedPdf(xml))).to.equal(true);
      } else if (ex.expect.status === 200) {
        const pdf = new Uint8Array(await res.arrayBuffer());
        expect(isPdf(pdf)).to.equal(true);
        const text = pdfFlatText(pdf);
        for (const t of ex.expect.text ?? []) expect(text, `PDF text should contain "${t}"`).to.contain(t);
        for (const t of ex.expect.absent ?? []) expect(text, `PDF text should not contain "${t}"`).not.to.contain(t);
      } else {
        const json = (await res.json()) as Record<string, unknown>;
        for (const [k, v] of Object.entries(ex.expect.json ?? {})) expect(json[k]).to.equal(v);
        const message = String(json.error ?? '') + ' ' + String(json.message ?? '');
        for (const word of ex.expect.json_error_mentions ?? []) expect(message).to.contain(word);
      }
    });
  }
});

async function peek(res: Response): Promise<string> {
  if (res.status === 200) return 'ok';
  return `HTTP ${res.status}: ${await res.clone().text()}`;
}
