// Errors into HTTP answers (server/http/errors-to-http.ts), as logged: a refusal the service could not help (5xx) is
// logged with its code, and with its cause when one is known (what the time-stamping authority answered, say),
// while the client's answer names neither the cause nor the authority. A real express app on a local port.
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import express from 'express';
import pino from 'pino';
import { errors } from '../../../server/errors';
import { errorHandler } from '../../../server/http/errors-to-http';

async function answerAndLog(
  thrown: Error,
): Promise<{ status: number; retryAfter: string | null; body: string; log: Record<string, unknown>[] }> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const app = express();
  app.get('/x', () => {
    throw thrown;
  });
  app.use(errorHandler(pino({ level: 'info' }, sink), 1000));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: await res.text(),
      log: lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    };
  } finally {
    server.close();
  }
}

describe('errors into HTTP answers, as logged', function () {
  it("logs a 503 timestamp_unavailable with the authority's answer, which the client is not told", async function () {
    const reason = 'the time-stamping authority answered HTTP 500';
    const { status, retryAfter, body, log } = await answerAndLog(errors.timestampUnavailable(5, new Error(reason)));
    expect(status).to.equal(503);
    expect(retryAfter).to.equal('5');
    expect(JSON.parse(body)).to.include({ code: 'timestamp_unavailable' });
    expect(body).not.to.include('HTTP 500');
    const entry = log.find((line) => line.code === 'timestamp_unavailable');
    expect(entry, JSON.stringify(log)).to.not.equal(undefined);
    expect(entry!.level).to.equal(40); // warn
    expect((entry!.cause as { message?: string }).message).to.equal(reason);
  });

  it('logs a 503 without a known cause with its code alone', async function () {
    const { status, log } = await answerAndLog(errors.timestampUnavailable(5));
    expect(status).to.equal(503);
    const entry = log.find((line) => line.code === 'timestamp_unavailable');
    expect(entry).to.not.equal(undefined);
    expect(entry).not.to.have.property('cause');
  });
});
