// Headers as hostile clients send them, over a raw socket to the real service: request headers past Node's 16 KiB
// (a 150 KB Accept-Language) are a JSON 431 `headers_too_large`, not a 400 that says the request is not HTTP; a header
// of one value sent twice (two Content-Types, of which Node kept the first and dropped the second unseen) is a 400
// naming it. Neither is counted.
import net from 'node:net';
import { expect } from 'chai';
import { periodOf } from '../../server/quota/quota';
import { fakeRenderer, startTestService, type TestService } from '../helpers/service';

/** Sends `head` (request line and headers, without the blank line) and `body`; the status and, for an error, its body. */
function raw(service: TestService, head: string, body = ''): Promise<{ status: number; json: Record<string, unknown> }> {
  const url = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(`${head}\r\n\r\n${body}`));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    // The service answers as soon as the headers pass its limit and closes; the rest of a long header then meets a
    // closed socket (a reset), after the answer was read.
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' && out ? undefined : reject(err)));
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1]);
      const text = out.slice(out.indexOf('\r\n\r\n') + 4);
      resolve({ status, json: status === 200 ? {} : (JSON.parse(text) as Record<string, unknown>) });
    });
  });
}

describe('request headers hostile clients send', function () {
  this.timeout(60000);
  let service: TestService;
  before(async () => (service = await startTestService({}, { pdf: fakeRenderer() })));
  after(async () => service.close());

  const body = JSON.stringify({ from: 'A', to: 'B', items: [{ name: 'x' }] });
  const headers = (...extra: string[]): string =>
    [
      'POST / HTTP/1.1',
      'Host: localhost',
      `Authorization: Bearer ${service.key}`,
      `Content-Length: ${body.length}`,
      'Connection: close',
      ...extra,
    ].join('\r\n');

  it('a 150 KB Accept-Language: 431 headers_too_large, in the JSON shape', async function () {
    const res = await raw(service, headers('Content-Type: application/json', `Accept-Language: ${'en;q=0.5,'.repeat(15000)}`), body);
    expect(res.status).to.equal(431);
    expect(res.json).to.include({ code: 'headers_too_large', type: 'invalid_request' });
    const fine = await raw(service, headers('Content-Type: application/json', 'Accept-Language: de'), body);
    expect(fine.status, 'the same request with a short header').to.equal(200);
  });

  it('two Content-Type headers (or two Authorizations): a 400 naming the header, nothing made or counted', async function () {
    const before = await service.keys.usage('test-account', periodOf(new Date()));
    const two = await raw(service, headers('Content-Type: application/json', 'Content-Type: application/x-www-form-urlencoded'), body);
    expect(two.status).to.equal(400);
    expect(two.json).to.include({ code: 'invalid_request' });
    expect(two.json.details).to.deep.equal([{ field: 'Content-Type', message: 'The Content-Type header is sent 2 times; send it once.' }]);
    const auth = await raw(service, headers('Content-Type: application/json', 'authorization: Bearer sk_other'), body);
    expect(auth.status).to.equal(400);
    expect((auth.json.details as { field: string }[])[0]!.field).to.equal('Authorization');
    expect(await service.keys.usage('test-account', periodOf(new Date()))).to.equal(before);
  });
});
