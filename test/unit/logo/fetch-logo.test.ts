// The logo fetcher's SSRF guards and limits, against real local HTTP servers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import sharp from 'sharp';
import { fetchLogo, isPublicAddress } from '../../../server/logo/fetch-logo';
import { solidPng } from '../../helpers/png';

describe('logo fetcher', function () {
  let server: http.Server;
  let base: string;
  const png = solidPng(8, 8);
  before(async function () {
    server = http.createServer((req, res) => {
      if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/big.png') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(5000));
      else if (req.url === '/redirect') res.writeHead(302, { location: '/logo.png' }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const open = { allowPrivate: true, timeoutMs: 2000, maxBytes: 4096 };
  const guarded = { ...open, allowPrivate: false };

  it('fetches an image and returns it as a data: URI (decoded and written again)', async function () {
    const r = await fetchLogo(`${base}/logo.png`, open);
    expect(r.ok).to.equal(true);
    if (!r.ok || !('dataUri' in r)) return;
    expect(r.dataUri).to.match(/^data:image\/png;base64,/);
    const meta = await sharp(Buffer.from(r.dataUri.split(',')[1]!, 'base64')).metadata();
    expect(meta).to.include({ format: 'png', width: 8, height: 8 });
  });

  it('follows a redirect, but not forever', async function () {
    expect((await fetchLogo(`${base}/redirect`, open)).ok).to.equal(true);
    const loop = await fetchLogo(`${base}/loop`, open);
    expect(loop).to.deep.equal({ ok: false, reason: 'too_many_redirects' });
  });

  it('refuses loopback, private and link-local addresses unless allowed', async function () {
    for (const url of [
      `${base}/logo.png`,
      'http://localhost:1/logo.png',
      'http://10.0.0.1/logo.png',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x.png',
      'http://[::ffff:127.0.0.1]/x.png',
    ]) {
      const r = await fetchLogo(url, guarded);
      expect(r.ok, url).to.equal(false);
      if (!r.ok) expect(r.reason, url).to.equal('address_not_public');
    }
    expect(isPublicAddress('93.184.216.34')).to.equal(true);
    expect(isPublicAddress('192.168.1.1')).to.equal(false);
    expect(isPublicAddress('fd00::1')).to.equal(false);
  });

  it('refuses images over the size cap, non-image types and other schemes', async function () {
    const big = await fetchLogo(`${base}/big.png`, open);
    expect(big.ok).to.equal(false);
    const missing = await fetchLogo(`${base}/nothing`, open);
    expect(missing).to.deep.equal({ ok: false, reason: 'http_status 404' });
    expect((await fetchLogo('file:///etc/passwd', open)).ok).to.equal(false);
    expect((await fetchLogo('data:text/html;base64,PGgxPg==', open)).ok).to.equal(false);
  });

  it('leaves out an SVG that embeds a bitmap (a PNG bomb in an SVG wrapper), keeps a plain SVG', async function () {
    const svg = (body: string) =>
      `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40">${body}</svg>`).toString('base64')}`;
    const plain = await fetchLogo(svg('<rect width="100" height="40" fill="red"/>'), open);
    expect(plain.ok).to.equal(true);
    const wrapped = await fetchLogo(svg('<image href="data:image/png;base64,iVBORw0KGgo=" width="100" height="40"/>'), open);
    expect(wrapped.ok).to.equal(false);
    if (!wrapped.ok) expect(wrapped.reason).to.equal('svg_refused: element image');
  });
});
