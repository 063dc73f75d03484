// Logo SSRF guards end to end (docs/decisions.md §7): with private addresses refused, only the configured stand-in for a
// public host (a loopback test server, allowed by LOGO_ALLOWED_HOSTS) is fetched. Loopback, private, link-local and
// IPv6 loopback addresses, file: URLs, a redirect from the allowed host to a private one, a 50 MiB image and a slow
// server are all refused or cut off, and every document still renders.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { isPdf, pdfFlatText, pdfImageCount } from '../helpers/pdf';
import { solidPng } from '../helpers/png';
import { post, startTestService, type TestService } from '../helpers/service';

function listen(handler: http.RequestListener): Promise<{ server: http.Server; base: string; host: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}` });
    }),
  );
}

describe('logo SSRF guards (HTTP)', function () {
  this.timeout(60000);
  let service: TestService;
  let publicHost: Awaited<ReturnType<typeof listen>>;
  let privateHost: Awaited<ReturnType<typeof listen>>;
  let privateHits = 0;
  let bigBytesSent = 0;
  let slowAbandoned = 0;

  before(async function () {
    const png = solidPng(30, 10);
    privateHost = await listen((_req, res) => {
      privateHits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    publicHost = await listen((req, res) => {
      if (req.url === '/logo.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (req.url === '/to-private') return void res.writeHead(302, { location: `${privateHost.base}/secret.png` }).end();
      if (req.url === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/huge.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(1024 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 50 && res.write(chunk)) {
            sent++;
            bigBytesSent += chunk.length;
          }
          if (sent < 50) res.once('drain', pump);
          else res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      // Never answers: only the logo deadline ends the wait (the fetcher closes the connection, counted).
      if (req.url === '/slow.png')
        return void res.on('close', () => {
          if (!res.writableEnded) slowAbandoned++;
        });
      res.writeHead(404).end();
    });
    service = await startTestService({ LOGO_ALLOW_PRIVATE: 'false', LOGO_ALLOWED_HOSTS: publicHost.host, LOGO_TIMEOUT_MS: '1500' });
  });
  after(async function () {
    await service.close();
    publicHost.server.closeAllConnections();
    publicHost.server.close();
    privateHost.server.close();
  });

  async function render(logo: string): Promise<{ images: number; ms: number }> {
    const started = Date.now();
    const res = await post(service, { from: 'Guarded Ltd', to: 'Client', logo, items: [{ name: 'Widget', unit_cost: 1 }] });
    expect(res.status, logo).to.equal(200);
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(isPdf(pdf)).to.equal(true);
    expect(pdfFlatText(pdf)).to.contain('Widget');
    return { images: pdfImageCount(pdf), ms: Date.now() - started };
  }

  it('fetches the allowed stand-in for a public host (control)', async function () {
    expect((await render(`${publicHost.base}/logo.png`)).images).to.equal(1);
  });

  for (const url of [
    'http://127.0.0.1/logo.png',
    'http://10.0.0.1/logo.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/logo.png',
    'http://localhost/logo.png',
    'file:///etc/passwd',
    'ftp://example.com/x.png',
    'gopher://127.0.0.1/',
  ]) {
    it(`refuses ${url}, and the document renders`, async function () {
      expect((await render(url)).images).to.equal(0);
    });
  }

  it('refuses a redirect from the public host to a private one', async function () {
    privateHits = 0;
    expect((await render(`${publicHost.base}/to-private`)).images).to.equal(0);
    expect((await render(`${publicHost.base}/to-metadata`)).images).to.equal(0);
    expect(privateHits, 'the private server was never contacted').to.equal(0);
  });

  it('cuts off a 50 MiB image at the 2 MiB cap', async function () {
    bigBytesSent = 0;
    const r = await render(`${publicHost.base}/huge.png`);
    expect(r.images).to.equal(0);
    expect(bigBytesSent, 'the server could not push all 50 MiB').to.be.lessThan(50 * 1024 * 1024);
  });

  it('cuts off a slow server at the logo deadline', async function () {
    slowAbandoned = 0;
    const r = await render(`${publicHost.base}/slow.png`);
    expect(r.images).to.equal(0);
    // The document came though the host never answered: the fetcher gave up at its deadline and closed the
    // connection (seen here once the close reaches the host; mocha's timeout catches a wait without end).
    while (slowAbandoned === 0) await new Promise((res) => setTimeout(res, 20));
    expect(slowAbandoned).to.equal(1);
  });
});
