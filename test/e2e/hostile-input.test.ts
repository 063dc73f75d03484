// Hostile input that once cost a renderer gigabytes, against the real service and real Chromium: a 48 KB PNG of
// 20000×20000 pixels as a data: URI and from a URL, and 1,000 items of 470 line breaks each.
// Each answers with a 200 or a clear 400 for the bound it breaks (the logo's pixels, the lines a document prints), and
// no Chromium process of the service grows past 1 GB.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { pngBomb } from '../helpers/logo-bombs';
import { pdfImageCount } from '../helpers/pdf';
import { solidPng } from '../helpers/png';
import { descendants } from '../helpers/processes';
import { post, sharedService, startTestService, type TestService } from '../helpers/service';

/** The largest peak resident size (VmHWM) among the service's Chromium processes, in MiB. */
function chromiumPeakMiB(): number {
  let peak = 0;
  for (const pid of descendants(process.pid)) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue;
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      // gone
    }
  }
  return peak;
}

describe('hostile input stays cheap (real Chromium)', function () {
  this.timeout(60000);
  let service: TestService;
  let images: http.Server;
  let imageBase: string;
  const bomb = pngBomb(20000, 20000);
  const logLines: string[] = [];

  before(async function () {
    images = http.createServer((req, res) => {
      const body = req.url === '/bomb.png' ? bomb : solidPng(60, 20);
      res.writeHead(200, { 'content-type': 'image/png' }).end(body);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    const sink = new Writable({
      write(chunk, _enc, done) {
        logLines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    service = await startTestService({ LOGO_ALLOWED_HOSTS: new URL(imageBase).host }, { logger: pino({ level: 'info' }, sink) });
  });
  after(async function () {
    await service?.close();
    await new Promise((resolve) => images?.close(resolve));
  });

  let seq = 0;
  const timed = async (body: unknown) => {
    const requestId = `hostile-${++seq}`;
    const started = Date.now();
    const res = await post(service, body, { headers: { 'x-request-id': requestId } });
    return { res, ms: Date.now() - started, requestId };
  };
  /** Why the logo of a request was left out, as the service logged it. */
  const leftOut = (requestId: string): unknown =>
    logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.requestId === requestId && e.msg === 'logo not used')
      ?.reason;

  it('a 20000×20000 PNG logo (data: URI or URL) is left out for its pixels, before any decode, and no renderer balloons', async function () {
    console.log(`      PNG bomb: ${bomb.length} bytes for 20000×20000 pixels`);
    expect(bomb.length).to.be.lessThan(100 * 1024);
    for (const logo of [`data:image/png;base64,${bomb.toString('base64')}`, `${imageBase}/bomb.png`]) {
      const { res, ms, requestId } = await timed({ from: 'A', to: 'B', logo, items: [{ name: 'x', quantity: 1, unit_cost: 1 }] });
      expect(res.status, logo.slice(0, 30)).to.equal(200);
      expect(pdfImageCount(new Uint8Array(await res.arrayBuffer())), 'the logo is left out').to.equal(0);
      // For its pixels (the header read against the budget), not by a decode or fetch deadline.
      console.log(`      ${logo.slice(0, 30)}: left out in ${ms} ms (${String(leftOut(requestId))})`);
      expect(leftOut(requestId), logo.slice(0, 30)).to.equal('image_refused: too many pixels');
    }
    // A normal logo from the same server still prints.
    const ok = await post(service, { from: 'A', to: 'B', logo: `${imageBase}/logo.png`, items: [{ name: 'x' }] });
    expect(pdfImageCount(new Uint8Array(await ok.arrayBuffer()))).to.equal(1);
    const peak = chromiumPeakMiB();
    console.log(`      peak RSS of a Chromium process: ${peak.toFixed(0)} MiB`);
    expect(peak).to.be.lessThan(1024);
  });

  it('1,000 items of 470 line breaks each: blank lines print once; 300 printed lines each are a 400 naming the items', async function () {
    const blank = await timed({
      from: 'A',
      to: 'B',
      items: Array.from({ length: 1000 }, (_, i) => ({ name: `n${i}`, description: '\n'.repeat(470) })),
    });
    // A 200: the blank lines count once (470,000 of them would break the 6,000 lines' bound, as below).
    expect(blank.res.status).to.equal(200);
    await blank.res.arrayBuffer();

    const lines = await timed({
      from: 'A',
      to: 'B',
      items: Array.from({ length: 1000 }, (_, i) => ({ name: `n${i}`, description: 'x\n'.repeat(300) })),
    });
    expect(lines.res.status).to.equal(400);
    const body = (await lines.res.json()) as { code: string; details: { field: string; message: string }[] };
    expect(body.code).to.equal('validation_failed');
    expect(body.details[0]!.field).to.equal('items');
    expect(body.details[0]!.message).to.match(/^items prints about 301,\d{3} lines/);
    expect(body.details[0]!.message).to.contain('at most 6,000');
    console.log(`      newline bombs: blank ${blank.ms} ms (200), printed lines ${lines.ms} ms (400)`);
    const peak = chromiumPeakMiB();
    console.log(`      peak RSS of a Chromium process: ${peak.toFixed(0)} MiB`);
    expect(peak).to.be.lessThan(1024);
  });
});

describe('hostile bodies are clear 400s, never 500s', function () {
  this.timeout(60000);
  let service: TestService;
  before(async function () {
    service = await sharedService();
  });
  const base = { from: 'Acme', to: 'Client', number: 'INV-1', items: [{ name: 'x', quantity: 1, unit_cost: 1 }] };
  const problems = async (res: Response) => {
    const body = (await res.json()) as { code: string; details?: { field: string; message: string }[] };
    return { code: body.code, fields: (body.details ?? []).map((d) => d.field) };
  };
  const raw = (text: string | Buffer, contentType = 'application/json') =>
    post(service, Buffer.from(text), { headers: { 'content-type': contentType } });

  it('control characters, U+FFFE and half surrogate pairs are refused in every text field, all named at once, on / and /ubl', async function () {
    const doc = {
      ...base,
      to: 'Client\u0001 Ltd',
      notes: 'ok\uFFFE',
      items: [{ name: 'bell\u0007', description: 'tab\tLF\nCR\r are fine', quantity: 1, unit_cost: 1 }],
      custom_fields: [{ name: 'Ref', value: 'esc\u001b' }],
    };
    for (const path of ['/', '/ubl']) {
      const res = await post(service, doc, { path });
      expect(res.status, path).to.equal(400);
      const got = await problems(res);
      expect(got.code).to.equal('validation_failed');
      expect(got.fields, path).to.have.members(['to', 'notes', 'items[0].name', 'custom_fields[0].value']);
    }
    // Vertical tab and form feed (Word's manual breaks) are line breaks, not refused, also in the e-invoice.
    for (const path of ['/', '/ubl']) {
      expect((await post(service, { ...base, to: 'Client\u000bLine 2\u000cLine 3' }, { path })).status, path).to.equal(200);
    }
    // Half a surrogate pair, as JSON escapes can send it.
    const lone = await raw('{"from":"Acme","to":"B\\ud800","items":[{"name":"x"}]}');
    expect(lone.status).to.equal(400);
    expect((await problems(lone)).fields).to.deep.equal(['to']);
  });

  it('2,000 levels of nested arrays are a 400, not a stack overflow', async function () {
    const res = await raw(`{"from":"A","to":"B","items":[{"name":"x"}],"junk":${'['.repeat(2000)}${']'.repeat(2000)}}`);
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).to.equal('malformed_json');
    expect(body.error).to.contain('nested more than 64 levels');
  });

  it("__proto__ in a body is not the document's prototype", async function () {
    const res = await raw('{"__proto__":{"from":"Evil","to":"Corp","items":[{"name":"x"}]}}');
    expect(res.status).to.equal(400);
    expect((await problems(res)).fields).to.include.members(['from', 'to', 'items']);
  });

  it('numbers are decimals only: "0x10", "0b11", "0o17" and "Infinity" are refused, "12.50" and "1e2" read', async function () {
    const items = ['0x10', '0b11', '0o17', 'Infinity'].map((q) => ({ name: 'x', quantity: q }));
    const res = await post(service, { ...base, items, tax: '0x5' });
    expect(res.status).to.equal(400);
    expect((await problems(res)).fields).to.have.members([
      'items[0].quantity',
      'items[1].quantity',
      'items[2].quantity',
      'items[3].quantity',
      'tax',
    ]);
    const ok = await post(service, { ...base, items: [{ name: 'x', quantity: '1e2', unit_cost: ' 12.50 ' }] });
    expect(ok.status).to.equal(200);
  });

  it('numbers too large for a double ("1e400", or 1e400 in JSON) are refused by their bounds on every route, never a 500 or ∞', async function () {
    // ajv checks no bound on an infinite number: these passed, to print "$∞" and "$NaN" or fail the e-invoice's XSD.
    const huge = {
      ...base,
      tax: '1e400',
      amount_paid: '-1e400',
      e_invoice: {
        rounding_amount: '1e400',
        allowances: [
          { amount: '1e400', reason: 'Discount' },
          { percent: '1e400', reason: 'Discount' },
        ],
      },
    };
    const fields = ['tax', 'amount_paid', 'e_invoice.rounding_amount', 'e_invoice.allowances[0].amount', 'e_invoice.allowances[1].percent'];
    for (const path of ['/', '/ubl', '/cii', '/factur-x']) {
      const res = await post(service, huge, { path });
      expect(res.status, path).to.equal(400);
      const got = await problems(res);
      expect(got.code, path).to.equal('validation_failed');
      expect(got.fields, path).to.include.members(fields);
    }
    // JSON itself: JSON.parse reads 1e400 as Infinity.
    const res = await raw(
      '{"from":"A","to":"B","number":"1","discounts":1e400,"fields":{"discounts":true},"items":[{"name":"x","quantity":1,"unit_cost":-1e999}]}',
    );
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { details: { field: string; message: string }[] };
    expect(body.details.map((d) => d.message)).to.have.members([
      'discounts must be at most 1000000000000',
      'items[0].unit_cost must be at least -1000000000000',
    ]);
  });

  it('bytes that are not UTF-8 are a 400 saying where, not replacement characters printed', async function () {
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const json = await raw(latin1('{"from":"Caf\u00e9","to":"B","items":[{"name":"x"}]}'));
    expect(json.status).to.equal(400);
    const jsonBody = (await json.json()) as { code: string; error: string };
    expect(jsonBody.code).to.equal('malformed_json');
    expect(jsonBody.error).to.contain('byte 0xE9 at offset 12');
    const form = await raw(latin1('from=Caf\u00e9&to=B&items[0][name]=x'), 'application/x-www-form-urlencoded');
    expect(form.status).to.equal(400);
    expect((await problems(form)).fields).to.deep.equal(['(body)']);
  });

  it('a body declared in a charset other than UTF-8 is a 415 that says to send UTF-8', async function () {
    const res = await raw(JSON.stringify(base), 'application/json; charset=iso-8859-1');
    expect(res.status).to.equal(415);
    expect(((await res.json()) as { error: string }).error).to.contain('UTF-8');
    expect((await raw(JSON.stringify(base), 'application/json; charset=UTF-8')).status).to.equal(200);
  });

  it('/ubl names every bad field at once: a bad date and a missing number', async function () {
    const res = await post(
      service,
      { from: 'A', to: 'B', date: 'not a date', items: [{ name: 'x', quantity: 1, unit_cost: 1 }] },
      { path: '/ubl' },
    );
    expect(res.status).to.equal(400);
    expect((await problems(res)).fields).to.have.members(['number', 'date']);
  });
});

describe('a client that leaves cancels its render', function () {
  this.timeout(120000);
  it('6 requests abandoned 150 ms after the service has them: renders cancelled, 0 documents counted, each logged as 499', async function () {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    const service = await startTestService({ RENDER_CONCURRENCY: '1' }, { logger: pino({ level: 'info' }, sink) });
    try {
      const period = new Date().toISOString().slice(0, 7);
      const long = {
        from: 'A',
        to: 'B',
        items: Array.from({ length: 1000 }, (_, i) => ({
          name: `Line ${i}`,
          description: 'A description that wraps a little.',
          quantity: 1,
          unit_cost: 1,
        })),
      };
      const before = service.pdf.stats().renders;
      // Each request is abandoned 150 ms after the service has it (its body read), not 150 ms after it was sent: on a
      // busy machine a request sent may not have reached the service yet, and one it never had is logged by nobody.
      const arrived = new Map<string, () => void>();
      service.server.on('request', (req: http.IncomingMessage) => {
        const id = String(req.headers['x-request-id'] ?? '');
        req.once('end', () => arrived.get(id)?.());
      });
      await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const controller = new AbortController();
          arrived.set(`gone-${i}`, () => setTimeout(() => controller.abort(), 150));
          const res = fetch(`${service.url}/`, {
            method: 'POST',
            signal: controller.signal,
            headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json', 'x-request-id': `gone-${i}` },
            body: JSON.stringify(long),
          });
          await res.then(
            () => expect.fail('the request was abandoned'),
            (err: Error) => expect(err.name).to.equal('AbortError'),
          );
        }),
      );
      // Wait for the pool to settle (the cancelled work leaves it) and for every request to have been logged: a
      // request abandoned while its document was still being prepared (in turns of the event loop) has not reached
      // the pool yet, so an idle pool alone does not mean that all six are done.
      const goneLogged = () => lines.filter((l) => l.includes('"requestId":"gone-')).length;
      const settle = Date.now() + 20000;
      while ((service.pdf.stats().active > 0 || service.pdf.stats().queued > 0 || goneLogged() < 6) && Date.now() < settle)
        await new Promise((r) => setTimeout(r, 50));
      const stats = service.pdf.stats();
      console.log(
        `      6 abandoned: ${stats.renders - before} renders completed, ${await service.keys.usage('test-account', period)} documents counted`,
      );
      expect(await service.keys.usage('test-account', period)).to.equal(0);
      expect(stats.renders - before, 'renders completed for nobody').to.be.at.most(1);
      const logged = lines
        .map((l) => JSON.parse(l) as { requestId?: string; status?: number })
        .filter((e) => e.requestId?.startsWith('gone-'));
      expect(logged.map((e) => e.status)).to.deep.equal(Array(6).fill(499));
      // The service goes on: the next request renders and counts.
      expect((await post(service, { from: 'A', to: 'B', items: [{ name: 'x' }] })).status).to.equal(200);
      expect(await service.keys.usage('test-account', period)).to.equal(1);
    } finally {
      await service.close();
    }
  });
});
