// The Retry-After of a full render queue. 120 requests at once against two pages and a queue of 16: the refused ones
// are told to wait about as long as the backlog ahead of them really takes to clear, not a second per queued render
// (which said 33 s for a backlog of 2.5 s).
import { expect } from 'chai';
import { isPdf } from '../helpers/pdf';
import { post, startTestService } from '../helpers/service';

// Several pages each, so that 120 at once fill the queue on any machine (one-line invoices printed as fast as they
// arrived on an idle one, and none was refused).
const DOC = {
  from: 'Burst Co',
  to: 'Client',
  items: Array.from({ length: 120 }, (_, i) => ({
    name: `Widget ${i}`,
    description: 'A line that wraps a little, as real ones do.',
    quantity: 2,
    unit_cost: 5,
  })),
};

describe('Retry-After of a full render queue', function () {
  this.timeout(120000);

  it('120 requests at once: every 503 says at least 1 s and at most 3 × the time its backlog took to clear + 1 s', async function () {
    const service = await startTestService({ RENDER_CONCURRENCY: '2', RENDER_QUEUE_LIMIT: '16', RENDER_TIMEOUT_MS: '20000' });
    try {
      // A few renders first, as a service that has been up a while has done.
      for (let i = 0; i < 5; i++) {
        const res = await Promise.all([post(service, DOC), post(service, DOC)]);
        for (const r of res) expect(r.status).to.equal(200);
      }
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 120 }, () =>
          post(service, DOC).then(async (res) => {
            const body = new Uint8Array(await res.arrayBuffer());
            return { status: res.status, retryAfter: Number(res.headers.get('retry-after')), at: Date.now() - started, body };
          }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      const busy = results.filter((r) => r.status === 503);
      expect(ok.length + busy.length).to.equal(120);
      for (const r of ok) expect(isPdf(r.body)).to.equal(true);
      expect(busy.length, 'refused requests').to.be.greaterThan(0);
      // The backlog a refused request saw has cleared once the last accepted request has its PDF.
      const clearedAt = Math.max(...ok.map((r) => r.at));
      const worst = busy.map((r) => ({ retryAfter: r.retryAfter, clearS: (clearedAt - r.at) / 1000 }));
      const ratios = worst.map((w) => w.retryAfter / Math.max(w.clearS, 0.001));
      console.log(
        `      ${ok.length} × 200, ${busy.length} × 503 with Retry-After ${Math.min(...busy.map((r) => r.retryAfter))}-${Math.max(...busy.map((r) => r.retryAfter))} s; the backlog cleared ${(clearedAt - Math.min(...busy.map((r) => r.at))) / 1000} s after the first 503 (Retry-After / clear time up to ${Math.max(...ratios).toFixed(1)})`,
      );
      for (const w of worst) {
        expect(w.retryAfter).to.be.at.least(1);
        expect(w.retryAfter, `Retry-After for a backlog that cleared in ${w.clearS} s`).to.be.at.most(3 * w.clearS + 1);
      }
    } finally {
      await service.close();
    }
  });
});
