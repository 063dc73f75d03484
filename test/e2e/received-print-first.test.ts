// PDFs first (a 10,000-line invoice being checked does not slow the PDFs of others): while the service prints, its rule
// checker processes are stopped (SIGSTOP, seen in /proc as state T), at most 900 ms at a time; when the PDFs stop, the
// check goes on and ends with its report. Real service, real Chromium, real rule workers.
import fs from 'node:fs';
import { expect } from 'chai';
import { post, sharedService, type TestService } from '../helpers/service';
import { postReceived, type Report } from '../helpers/received';
import { longInvoice } from '../helpers/received-invoices';

/** The rule worker processes of this process (children running rules-worker), with their scheduler state. */
function ruleWorkers(): { pid: number; state: string }[] {
  const children = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return children.flatMap((pid) => {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('rules-worker')) return [];
      const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0]!;
      return [{ pid: Number(pid), state }];
    } catch {
      return []; // ended meanwhile
    }
  });
}

const INVOICE = {
  type: 'invoice',
  from: 'Harbor Utilities\nPortland, ME',
  to: 'Lighthouse Bakery',
  number: 'PF-1',
  items: [{ name: 'Water, October', quantity: 1, unit_cost: 42.5 }],
};

describe('PDFs first: rule checks held while PDFs print', function () {
  this.timeout(120_000);
  let service: TestService;
  before(async () => (service = await sharedService()));

  it('a long invoice checked while PDFs print: its checker is stopped while they print, and its report comes after', async function () {
    expect(ruleWorkers().length, 'rule worker processes').to.be.at.least(1);
    const long = longInvoice(150);
    const started = performance.now();
    const checked = postReceived(service, long, '/validate').then(async (res) => ({
      status: res.status,
      report: (await res.json()) as Report,
      ms: performance.now() - started,
    }));
    // Let the check start, then print PDFs two at a time for two seconds, sampling the checkers' states.
    await new Promise((r) => setTimeout(r, 300));
    const samples: string[] = [];
    let printing = true;
    const sampler = (async () => {
      while (printing) {
        samples.push(
          ruleWorkers()
            .map((w) => w.state)
            .join(''),
        );
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    let pdfs = 0;
    const until = performance.now() + 2000;
    await Promise.all(
      [0, 1].map(async () => {
        while (performance.now() < until) {
          const res = await post(service, INVOICE);
          expect(res.status).to.equal(200);
          await res.arrayBuffer();
          pdfs++;
        }
      }),
    );
    printing = false;
    await sampler;
    const stopped = samples.filter((s) => s.includes('T')).length;
    console.log(`      ${pdfs} PDFs in 2 s; the checkers were seen stopped in ${stopped} of ${samples.length} samples`);
    expect(pdfs).to.be.above(10);
    // Held while PDFs print, and let run between holds (the schedule itself, held at most 900 ms then run 100 ms, is
    // test/integration/workers/print-first.test.ts's, on mocked timers): seen stopped again and again, and running at
    // least once. How large a share of the samples is stopped depends on how busy the machine is, so it is not asked.
    expect(stopped, 'samples of a checker stopped').to.be.at.least(5);
    expect(samples.length - stopped, 'samples of a checker running').to.be.at.least(1);
    // After the PDFs: nobody is held, and the check ends with its report.
    await new Promise((r) => setTimeout(r, 50));
    expect(
      ruleWorkers()
        .map((w) => w.state)
        .join(''),
    ).not.to.contain('T');
    const { status, report } = await checked;
    expect(status).to.equal(200);
    expect(report.valid).to.equal(true);
    expect(report.errors).to.deep.equal([]);
  });
});
