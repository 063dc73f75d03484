// A brand per account (GET and PUT /brand) on the real service, with SQLite and with Redis: set, read back as set,
// applied to every document made with the account's keys (its theme, accent, text colour, font, logo, footer,
// language and paper: read from the PDF's fonts, pixels, text and page size) unless the request says otherwise, and
// never to another account's documents, with the two accounts' requests interleaved. Hostile values are 400s naming
// the field; the API key is required; an empty brand clears it.
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import fc from 'fast-check';
import { hostileValue } from '../helpers/hostile-values';
import { pdfImageCount, pdfText } from '../helpers/pdf';
import { solidPng } from '../helpers/png';
import { startRedis, type TestRedis } from '../helpers/redis';
import { post, startTestService, type TestService } from '../helpers/service';

/** The RGB of the pixel at (x, y) points of page 1, rendered at 72 dpi. */
function rgbAt(pdf: Buffer, x: number, y: number): string {
  const ppm = execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-x', String(x), '-y', String(y), '-W', '1', '-H', '1', '-'], {
    input: pdf,
  });
  return [...ppm.subarray(ppm.length - 3)].map((c) => c.toString(16).padStart(2, '0')).join('');
}
const fonts = (pdf: Buffer) =>
  [
    ...execFileSync('pdffonts', ['-'], { input: pdf })
      .toString()
      .matchAll(/\+([\w-]+)/g),
  ]
    .map((m) => m[1])
    .join(' ');
const pageSize = (pdf: Buffer) =>
  execFileSync('pdfinfo', ['-'], { input: pdf })
    .toString()
    .match(/Page size:\s+([\d.]+) x/)![1];

async function putBrand(service: TestService, key: string, brand: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${service.url}/brand`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(brand),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const getBrand = async (service: TestService, key: string) =>
  (await fetch(`${service.url}/brand`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<Record<string, unknown>>;

const OCEAN = {
  theme: 'modern',
  accent_color: '#0e7490',
  text_color: '#1f2937',
  font: 'Arimo',
  logo: `data:image/png;base64,${solidPng(60, 30).toString('base64')}`,
  footer: 'Ocean Ltd · Registered in Cardiff 01234567',
  language: 'de',
  page_size: 'letter',
};
const FOREST = {
  theme: 'classic',
  accent_color: '#166534',
  font: 'DejaVu Sans',
  footer: 'Forest GmbH · HRB 98765',
  language: 'fr',
  page_size: 'a4',
};
const doc = (n: number) => ({ from: `Sender ${n}`, to: 'Client', number: `BR-${n}`, items: [{ name: 'Item', unit_cost: 10 }] });

for (const backend of ['SQLite', 'Redis'] as const) {
  describe(`brand per account (${backend})`, function () {
    this.timeout(180000);
    let service: TestService;
    let redis: TestRedis | undefined;
    let ocean: string;
    let forest: string;
    let plain: string;
    before(async function () {
      if (backend === 'Redis') redis = await startRedis();
      service = await startTestService(redis ? { REDIS_URL: redis.url } : {});
      ocean = (await service.keys.createKey(`ocean-${backend}`, 'paid')).key;
      forest = (await service.keys.createKey(`forest-${backend}`, 'paid')).key;
      plain = (await service.keys.createKey(`plain-${backend}`, 'paid')).key;
    });
    after(async function () {
      await service?.close();
      await redis?.stop();
    });

    it("PUT sets it, GET answers it as set; the logo is kept as the account's own copy", async function () {
      const put = await putBrand(service, ocean, OCEAN);
      expect(put.status).to.equal(200);
      expect(put.body).to.deep.include({ theme: 'modern', accent_color: '#0e7490', font: 'Arimo', language: 'de' });
      expect(String(put.body.logo)).to.match(/^data:image\/png;base64,/);
      expect(await getBrand(service, ocean)).to.deep.equal(put.body);
      expect((await putBrand(service, forest, FOREST)).status).to.equal(200);
      expect(await getBrand(service, plain)).to.deep.equal({});
    });

    it("each account's documents carry its own brand, never another's, with their requests interleaved", async function () {
      const keys = [ocean, forest, plain];
      const made = await Promise.all(
        Array.from({ length: 9 }, async (_, i) => {
          const key = keys[i % 3]!;
          const res = await post(service, doc(i), { key });
          expect(res.status).to.equal(200);
          return { key, lang: res.headers.get('content-language'), pdf: Buffer.from(await res.arrayBuffer()) };
        }),
      );
      for (const { key, lang, pdf } of made) {
        const text = pdfText(pdf);
        if (key === ocean) {
          expect([lang, fonts(pdf), pageSize(pdf), rgbAt(pdf, 300, 48)]).to.deep.equal([
            'de-DE',
            'Arimo-Regular Arimo-Bold',
            '612',
            '0e7490',
          ]);
          expect(text).to.include('RECHNUNG').and.include('Registered in Cardiff').and.not.include('Forest');
        } else if (key === forest) {
          expect([lang, fonts(pdf), pageSize(pdf)]).to.deep.equal(['fr-FR', 'DejaVuSans DejaVuSans-Bold', '595.92']);
          expect(text).to.include('FACTURE').and.include('Forest GmbH').and.not.include('Ocean');
        } else {
          expect([lang, fonts(pdf), pageSize(pdf), rgbAt(pdf, 300, 48)]).to.deep.equal([
            'en-US',
            'NotoSans-Regular NotoSans-Bold',
            '612',
            'ffffff',
          ]);
          expect(text).to.include('INVOICE').and.not.include('Ocean').and.not.include('Forest');
        }
      }
    });

    it("the brand's logo prints as it was stored, not decoded again for each document; a request's own is", async function () {
      const logos = service.pipeline.logos;
      const get = logos.get.bind(logos);
      const asked: string[] = [];
      logos.get = (url, opts) => {
        asked.push(url.slice(0, 22));
        return get(url, opts);
      };
      try {
        const stored = (await getBrand(service, ocean)).logo as string;
        for (let i = 0; i < 3; i++) {
          const pdf = Buffer.from(await (await post(service, doc(i), { key: ocean })).arrayBuffer());
          expect(pdfImageCount(pdf), 'the logo on the page').to.equal(1);
        }
        expect(asked, 'the stored logo: no check').to.deep.equal([]);
        const own = `data:image/png;base64,${solidPng(40, 20).toString('base64')}`;
        for (const logo of [own, own]) expect((await post(service, { ...doc(9), logo }, { key: ocean })).status).to.equal(200);
        expect(asked, "the request's own logo: checked each time").to.deep.equal(['data:image/png;base64,', 'data:image/png;base64,']);
        expect(stored.startsWith('data:image/png;base64,')).to.equal(true);
        // A brand holding anything but such a copy (written to the store by other means) has its logo checked.
        asked.length = 0;
        const account = `url-logo-${backend}`;
        const key = (await service.keys.createKey(account, 'paid')).key;
        await service.keys.putBrand(account, JSON.stringify({ logo: 'http://127.0.0.1:9/logo.png' }));
        expect((await post(service, doc(10), { key })).status).to.equal(200);
        expect(asked).to.deep.equal(['http://127.0.0.1:9/log']);
      } finally {
        logos.get = get;
      }
    });

    if (backend === 'Redis')
      it('two instances on one Redis: a brand changed through one is in the very next document of the other', async function () {
        const other = await startTestService({ REDIS_URL: redis!.url });
        try {
          const key = (await service.keys.createKey(`two-${backend}`, 'paid')).key;
          expect((await putBrand(service, key, { footer: 'First footer Ltd' })).status).to.equal(200);
          const footer = async () => pdfText(Buffer.from(await (await post(other, doc(1), { key })).arrayBuffer()));
          expect(await footer()).to.include('First footer Ltd');
          expect((await putBrand(service, key, { footer: 'Second footer Ltd' })).status).to.equal(200);
          const own = pdfText(Buffer.from(await (await post(service, doc(2), { key })).arrayBuffer()));
          expect(own, 'the instance that changed it').to.include('Second footer Ltd');
          // The other held the first brand's text: the stamp it reads for each document tells it the brand changed
          // (server/keys/cached-brands.ts).
          expect(await footer(), 'the other instance')
            .to.include('Second footer Ltd')
            .and.not.include('First footer Ltd');
          expect((await putBrand(other, key, {})).status).to.equal(200);
          expect(
            pdfText(Buffer.from(await (await post(service, doc(3), { key })).arrayBuffer())),
            'cleared through the other',
          ).to.not.include('Second footer Ltd');
        } finally {
          await other.close();
        }
      });

    it('a stored brand whose theme is no longer offered leaves the theme out; the rest still applies', async function () {
      const { key } = await service.keys.createKey(`gone-${backend}`, 'paid');
      await service.keys.putBrand(`gone-${backend}`, JSON.stringify({ theme: 'removed-theme', footer: 'Still here Ltd' }));
      const res = await post(service, doc(40), { key });
      expect(res.status).to.equal(200);
      expect(pdfText(Buffer.from(await res.arrayBuffer()))).to.include('Still here Ltd');
    });

    it("the request's own fields win over the brand's", async function () {
      const res = await post(
        service,
        { ...doc(20), theme: 'slate', page_size: 'a4', footer: 'My own footer' },
        { key: ocean, headers: { 'accept-language': 'es' } },
      );
      const pdf = Buffer.from(await res.arrayBuffer());
      expect([res.headers.get('content-language'), pageSize(pdf)]).to.deep.equal(['es-ES', '595.92']);
      expect(pdfText(pdf)).to.include('My own footer').and.not.include('Cardiff');
    });

    it('generated hostile values in every field: 200 or a 400 naming the field, never a 5xx', async function () {
      const fields = ['theme', 'accent_color', 'text_color', 'font', 'logo', 'footer', 'language', 'page_size'];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fields), hostileValue, async (field, value) => {
          const { status, body } = await putBrand(service, plain, { [field]: value });
          // A body past the size bound is refused whole (413), as one nested past the parser's (malformed_json),
          // before any field is read; anything else is a 200 or a 400 naming the field.
          expect([200, 400, 413], `${field} ${JSON.stringify(value).slice(0, 80)}`).to.include(status);
          if (status === 400 && body.code !== 'malformed_json')
            expect((body.details as { field: string }[]).map((d) => d.field.split(/[.[]/)[0])).to.include(field);
        }),
        { numRuns: 40 },
      );
      await putBrand(service, plain, {});
    });

    it('hostile values are 400s naming each field; no key is 401; an empty brand clears it', async function () {
      const bad = await putBrand(service, ocean, {
        accent_color: '#ffff00',
        text_color: 'red;}',
        font: '../../x',
        theme: 'nope',
        logo: 'file:///etc/passwd',
      });
      expect(bad.status).to.equal(400);
      const fields = (bad.body.details as { field: string }[]).map((d) => d.field).sort();
      expect(fields).to.deep.equal(['accent_color', 'font', 'text_color', 'theme']);
      const logo = await putBrand(service, ocean, { logo: 'file:///etc/passwd' });
      expect([logo.status, (logo.body.details as { field: string }[])[0]!.field]).to.deep.equal([400, 'logo']);
      expect(logo.body.message, 'a brand, not a document').to.match(/^Invalid brand: logo cannot be used: /);
      for (const body of [[], null, 'x']) {
        const notObject = await putBrand(service, ocean, body);
        expect(notObject.status).to.equal(400);
        expect(notObject.body.message, JSON.stringify(body)).to.match(/^The request body must be a JSON object with the brand's fields/);
      }
      expect(bad.body.message).to.match(/^Invalid brand: /);
      expect(await getBrand(service, ocean)).to.include({ theme: 'modern' }); // a refused PUT changes nothing
      expect((await fetch(`${service.url}/brand`)).status).to.equal(401);
      expect((await fetch(`${service.url}/brand`, { method: 'DELETE', headers: { authorization: `Bearer ${ocean}` } })).status).to.equal(
        405,
      );
      expect((await putBrand(service, forest, {})).status).to.equal(200);
      expect(await getBrand(service, forest)).to.deep.equal({});
      const after = await post(service, doc(30), { key: forest });
      expect(after.headers.get('content-language')).to.equal('en-US');
    });
  });
}
