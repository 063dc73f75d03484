// The logo cache against the real service and a real local image server that counts what it is asked: one fetch for
// many documents, revalidation with ETag (304) after the lifetime, a changed logo picked up, no-store honoured, an
// unreachable host costing one attempt (the second request answers in under a second), bounded bytes.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import { LogoCache } from '../../server/logo/logo-cache';
import { solidPng } from '../helpers/png';
import { post, startTestService, type TestService } from '../helpers/service';

/** Widths of the images a PDF draws (pdfimages -list). */
function imageWidths(pdf: Uint8Array): number[] {
  const lines = execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString().trim().split('\n').slice(2);
  return lines.map((l) => Number(l.trim().split(/\s+/)[3]));
}

describe('logo cache (real HTTP, real Chromium)', function () {
  this.timeout(60000);
  let service: TestService;
  let images: http.Server;
  let base: string;
  const hits: Record<string, number> = {};
  let conditional304 = 0;
  let version = 1;
  const hanging = new Set<Socket>();

  before(async function () {
    images = http.createServer((req, res) => {
      const path = req.url ?? '';
      hits[path] = (hits[path] ?? 0) + 1;
      const png = (w: number) => solidPng(w, Math.round(w / 3));
      if (path === '/shared.png')
        return void res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=3600' }).end(png(60));
      if (path === '/etag.png') {
        const etag = `"v${version}"`;
        if (req.headers['if-none-match'] === etag) {
          conditional304++;
          return void res.writeHead(304, { etag, 'cache-control': 'max-age=1' }).end();
        }
        return void res
          .writeHead(200, { 'content-type': 'image/png', etag, 'cache-control': 'max-age=1' })
          .end(png(version === 1 ? 60 : 90));
      }
      if (path === '/no-store.png')
        return void res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(png(30));
      if (path === '/hang.png') {
        hanging.add(req.socket);
        return; // never answers
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    service = await startTestService({ LOGO_ALLOWED_HOSTS: new URL(base).host, LOGO_CACHE_MIN_SECONDS: '1', LOGO_TIMEOUT_MS: '2000' });
  });
  after(async function () {
    await service?.close();
    for (const s of hanging) s.destroy();
    await new Promise((resolve) => images?.close(resolve));
  });

  const doc = (logo: string) => ({ from: 'A', to: 'B', logo, items: [{ name: 'x', quantity: 1, unit_cost: 1 }] });
  const render = async (logo: string) => {
    const res = await post(service, doc(logo));
    expect(res.status).to.equal(200);
    return new Uint8Array(await res.arrayBuffer());
  };

  it('20 documents at once with the same logo URL: the image server is asked once', async function () {
    const pdfs = await Promise.all(Array.from({ length: 20 }, () => render(`${base}/shared.png`)));
    for (const pdf of pdfs) expect(imageWidths(pdf)).to.deep.equal([60]);
    for (let i = 0; i < 5; i++) await render(`${base}/shared.png`);
    expect(hits['/shared.png']).to.equal(1);
  });

  /** Renders with `logo` until `done()` holds (the logo's lifetime of 1 s passing in the service), then returns the
   * last PDF: waits for the event, not for a fixed time. Fresh renders cost the image server nothing. */
  const renderUntil = async (logo: string, done: (pdf: Uint8Array) => boolean): Promise<Uint8Array> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const pdf = await render(logo);
      if (done(pdf)) return pdf;
      if (Date.now() > deadline) throw new Error('the cache never revalidated the logo');
    }
  };

  it('after its lifetime a logo is revalidated (304 keeps it), and a changed logo is picked up', async function () {
    expect(imageWidths(await render(`${base}/etag.png`))).to.deep.equal([60]);
    expect(imageWidths(await render(`${base}/etag.png`))).to.deep.equal([60]);
    expect(hits['/etag.png']).to.equal(1);
    // Once its second has passed, the next document revalidates it: a 304, and the same logo.
    const revalidated = await renderUntil(`${base}/etag.png`, () => conditional304 === 1);
    expect(imageWidths(revalidated)).to.deep.equal([60]);
    expect(hits['/etag.png']).to.equal(2);
    version = 2; // the logo changes at its URL
    expect(imageWidths(await render(`${base}/etag.png`)), 'still fresh: the old logo').to.deep.equal([60]);
    const changed = await renderUntil(`${base}/etag.png`, (pdf) => imageWidths(pdf)[0] !== 60);
    expect(imageWidths(changed), 'after its lifetime: the new logo').to.deep.equal([90]);
    expect(hits['/etag.png']).to.equal(3);
  });

  it('no-store is not kept', async function () {
    for (let i = 0; i < 3; i++) await render(`${base}/no-store.png`);
    expect(hits['/no-store.png']).to.equal(3);
  });

  it('an unreachable logo costs one attempt: the second document does not ask the host again', async function () {
    let started = Date.now();
    const first = await post(service, doc(`${base}/hang.png`));
    const firstMs = Date.now() - started;
    expect(first.status).to.equal(200);
    started = Date.now();
    const second = await post(service, doc(`${base}/hang.png`));
    const secondMs = Date.now() - started;
    console.log(
      `      unreachable logo: first document ${firstMs} ms, second ${secondMs} ms; the host was asked ${hits['/hang.png']} time(s)`,
    );
    expect(second.status).to.equal(200);
    // Served from what the cache remembers of the failure: the hanging host was asked once, by the first document.
    expect(hits['/hang.png']).to.equal(1);
    expect(imageWidths(new Uint8Array(await second.arrayBuffer()))).to.deep.equal([]);
  });

  it('is bounded in bytes', async function () {
    const cache = new LogoCache({
      minFreshMs: 60_000,
      maxFreshMs: 60_000,
      failureMs: 60_000,
      maxBytes: 100_000,
      fetch: async (url) => ({ ok: true, dataUri: `data:image/png;base64,${'A'.repeat(10_000)}${url}`, headers: {} }),
    });
    const opts = { allowPrivate: true, timeoutMs: 1000, maxBytes: 1_000_000 };
    for (let i = 0; i < 50; i++) await cache.get(`https://example.com/${i}.png`, opts);
    expect(cache.stats().bytes).to.be.at.most(100_000);
    expect(cache.stats().entries).to.be.within(5, 10);
  });
});
