// Slow, huge and endless bodies: cut off with 413 or 408, and they tie up nothing that other requests need.
import net from 'node:net';
import { expect } from 'chai';
import { post, startTestService, type TestService } from '../helpers/service';

/** Sends headers and part of a body, then trickles or stalls; resolves with the status line (or 'closed'), how long
 * it took (printed only), and how many bytes of the body it had written when the answer or the close came. */
function slowRequest(
  service: TestService,
  opts: { length: number; first: string; trickleMs?: number },
  sent?: () => void,
): Promise<{ status: string; ms: number; bodyBytes: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(service.port, '127.0.0.1');
    let data = '';
    let timer: NodeJS.Timeout | undefined;
    let bodyBytes = 0;
    socket.on('connect', () => {
      socket.write(
        `POST / HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${service.key}\r\nContent-Type: application/json\r\nContent-Length: ${opts.length}\r\n\r\n${opts.first}`,
        () => sent?.(),
      );
      bodyBytes = Buffer.byteLength(opts.first);
      if (opts.trickleMs) timer = setInterval(() => socket.write(' ', () => bodyBytes++), opts.trickleMs);
    });
    socket.on('data', (chunk) => {
      clearInterval(timer);
      data += chunk.toString();
    });
    const done = () => {
      clearInterval(timer);
      resolve({ status: data.split('\r\n')[0] || 'closed', ms: Date.now() - started, bodyBytes });
    };
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

describe('slow and huge bodies', function () {
  this.timeout(30000);
  let service: TestService;
  before(async function () {
    // A request deadline long enough that a render on a loaded machine ends well within it: the answers below are
    // compared with the hanging bodies in order, not in milliseconds.
    service = await startTestService({ REQUEST_TIMEOUT_MS: '4000' });
  });
  after(async function () {
    await service.close();
  });

  it('a body that never ends is cut off with 408, and other requests are served meanwhile', async function () {
    // The 8 bodies begin (headers and a first byte written), then hang.
    let answered = 0;
    const writes: Promise<void>[] = [];
    const stalled = Array.from({ length: 8 }, () => {
      let sent!: () => void;
      writes.push(new Promise<void>((resolve) => (sent = resolve)));
      return slowRequest(service, { length: 100000, first: '{"from":' }, sent).then((r) => (answered++, r));
    });
    await Promise.all(writes);
    const ok = await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] });
    expect(ok.status).to.equal(200);
    await ok.arrayBuffer();
    // Served while the 8 bodies hang: none of them has been answered yet.
    expect(answered, 'hanging bodies answered before the document').to.equal(0);
    for (const r of await Promise.all(stalled)) {
      // Cut off by the request deadline, the one thing that answers a body that never ends (mocha's timeout would
      // catch one left hanging).
      expect(r.status).to.match(/^HTTP\/1\.1 408|^closed$/);
    }
  });

  it('a trickling body is cut off at the request deadline', async function () {
    const r = await slowRequest(service, { length: 100000, first: '{"from":"', trickleMs: 100 });
    console.log(`      trickling body: ${r.status} after ${r.ms} ms, ${r.bodyBytes} of 100,000 bytes sent`);
    expect(r.status).to.match(/^HTTP\/1\.1 408|^closed$/);
    // Read as it came, byte after byte (no idle timeout cut it at the first pause), until the deadline: far from the
    // whole body.
    expect(r.bodyBytes, 'body bytes written').to.be.within(10, 100000 - 1);
  });

  it('a declared length over the limit gets 413 at once, before the body is read', async function () {
    const r = await slowRequest(service, { length: 50 * 1024 * 1024, first: '{' });
    // A 413, not the deadline's 408, with one byte of the 50 MiB sent: answered before the body was read.
    expect(r.status).to.match(/^HTTP\/1\.1 413/);
    expect(r.bodyBytes).to.equal(1);
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
