// The log of a logo that is left out carries a code, never what the client sent: before, a reason was
// `ENOTFOUND <host>`, `the address <ip> is not public`, `<scheme> URLs are not fetched`, …. Against a real service
// whose pino output is captured: each logo request's `logo not used` line has the expected code, every reason is made
// of the fetcher's words, and no host, path, address or SVG text of any logo appears anywhere in the log.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { dataUri, svgUseFanout } from '../helpers/logo-bombs';
import { post, startTestService, type TestService } from '../helpers/service';

describe('logo failures are logged as codes, without client text', function () {
  this.timeout(60000);
  let service: TestService;
  let images: http.Server;
  let imageHost: string;
  const lines: string[] = [];

  before(async function () {
    images = http.createServer((req, res) => {
      if (req.url === '/secret-page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>x</p>');
      if (req.url === '/secret-redirect') return void res.writeHead(302, { location: 'http://secret-redirect-host.invalid/x.png' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => images.listen(0, '127.0.0.1', () => r()));
    imageHost = `127.0.0.1:${(images.address() as AddressInfo).port}`;
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    service = await startTestService(
      { LOGO_ALLOW_PRIVATE: 'false', LOGO_ALLOWED_HOSTS: imageHost, LOGO_TIMEOUT_MS: '1500' },
      { logger: pino({ level: 'info' }, sink) },
    );
  });
  after(async function () {
    await service?.close();
    images?.close();
  });

  it('logs dns_not_found, address_not_public, http_status, … and nothing the client wrote', async function () {
    const secretSvg = `<svg xmlns="http://www.w3.org/2000/svg"><script>secret-svg-text()</script></svg>`;
    const cases: [string, string][] = [
      ['https://logo-of-secret-client.invalid/brand.png', 'dns_not_found'],
      ['http://10.11.12.13/secret-internal.png', 'address_not_public'],
      ['http://[::7f00:1]/secret-compat.png', 'address_not_public'],
      [`http://${imageHost}/secret-missing.png`, 'http_status 404'],
      [`http://${imageHost}/secret-page.html`, 'content_type_not_image'],
      [`http://${imageHost}/secret-redirect`, 'dns_not_found'],
      ['gopher://secret-gopher-host/x', 'scheme_not_fetched'],
      [dataUri('image/svg+xml', secretSvg), 'svg_refused: element script'],
      [dataUri('image/svg+xml', svgUseFanout(3, 10).replace(/l(\d)"/g, 'secret-id-$1"')), 'svg_refused: use inside a use target'],
      [dataUri('image/png', 'secret bytes, not a PNG'), 'image_refused: not a supported bitmap'],
    ];
    for (const [i, [logo]] of cases.entries()) {
      const res = await post(
        service,
        { from: 'A', to: 'B', logo, items: [{ name: 'x', quantity: 1, unit_cost: 1 }] },
        { headers: { 'x-request-id': `logo-log-${i}` } },
      );
      expect(res.status, logo.slice(0, 60)).to.equal(200);
      await res.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 300));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const reasons = cases.map((_c, i) => entries.find((e) => e.requestId === `logo-log-${i}` && e.msg === 'logo not used')?.reason);
    console.log(`      reasons logged:\n        ${reasons.map(String).join('\n        ')}`);
    expect(reasons).to.deep.equal(cases.map(([, reason]) => reason));
    const all = lines.join('\n');
    for (const secret of ['secret', '10.11.12.13', '7f00', 'gopher', imageHost, '.invalid']) {
      expect(all.toLowerCase(), `the log names ${secret}`).not.to.contain(secret.toLowerCase());
    }
  });
});
