// Slow, huge and endless bodies: cut off with 413 or 408, and they tie up nothing that other requests need.
import net from 'node:net';
import { expect } from 'chai';
import { post, startTestService, type TestService } from '../helpers/service';

/** Sends headers and part of a body, then trickles or stalls; resolves with the status line (or 'closed'). */
function slowRequest(
  service: TestService,
  opts: { length: number; first: string; trickleMs?: number },
): Promise<{ status: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(service.port, '127.0.0.1');
    let data = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(
        `POST / HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${service.key}\r\nContent-Type: application/json\r\nContent-Length: ${opts.length}\r\n\r\n${opts.first}`,
      );
      if (opts.trickleMs) timer = setInterval(() => socket.write(' '), opts.trickleMs);
    });
    socket.on('data', (chunk) => (data += chunk.toString()));
    const done = () => {
      clearInterval(timer);
      resolve({ status: data.split('\r\n')[0] || 'closed', ms: Date.now() - started });
    };
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

describe('slow and huge bodies', function () {
  this.timeout(30000);
  let service: TestService;
  before(async function () {
    service = await startTestService({ REQUEST_TIMEOUT_MS: '1500' });
  });
  after(async function () {
    await service.close();
  });

  it('a body that never ends is cut off with 408, and other requests are served meanwhile', async function () {
    const stalled = Array.from({ length: 8 }, () => slowRequest(service, { length: 100000, first: '{"from":' }));
    const t = Date.now();
    const ok = await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] });
    expect(ok.status).to.equal(200);
    expect(Date.now() - t, 'served while 8 bodies hang').to.be.lessThan(1500);
    for (const r of await Promise.all(stalled)) {
      expect(r.status).to.match(/^HTTP\/1\.1 408|^closed$/);
      expect(r.ms).to.be.lessThan(5000);
    }
  });

  it('a trickling body is cut off at the request deadline', async function () {
    const r = await slowRequest(service, { length: 100000, first: '{"from":"', trickleMs: 100 });
    expect(r.status).to.match(/^HTTP\/1\.1 408|^closed$/);
    expect(r.ms).to.be.within(1000, 5000);
  });

  it('a declared length over the limit gets 413 at once, before the body is read', async function () {
    const r = await slowRequest(service, { length: 50 * 1024 * 1024, first: '{' });
    expect(r.status).to.match(/^HTTP\/1\.1 413/);
    expect(r.ms).to.be.lessThan(1000);
  });

  it('a chunked body that grows past the limit gets 413', async function () {
    const res = await fetch(`${service.url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
          for (let i = 0; i < 40; i++) controller.enqueue(chunk);
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).to.equal(413);
    expect(((await res.json()) as { error: string }).error).to.contain('larger than the limit');
  });
});
