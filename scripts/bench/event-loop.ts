// The bench's section on the service's event loop: its longest delay (prom-client's nodejs_eventloop_lag_max_seconds,
// from /metrics, whose histogram every scrape resets) while it makes long documents and reads received PDFs, beside a
// canary thread in this process that runs no work (how late this machine made any thread: the loop's own delay is the
// part above it). Rounds, each on the built service as its own process:
//   1,000-line statement    one at a time, then 50 at once of 630 lines (about 40 pages each);
//   1,000-line /cii and /ubl one at a time (the XML written; /ubl prints its PDF too);
//   received                a 1,000-line Factur-X PDF and its CII checked by /validate, and shown as a PDF (POST /);
//   hostile PDF             a 1.6 MB received PDF whose catalogue lists 60,000 file specifications without streams.
// The budget (docs/operating.md, Event loop): no delay of the service's loop over 100 ms above the machine's own.
import { E_INVOICE } from '../../test/helpers/e-invoice-request';
import { MachineNoise } from '../../test/helpers/loop-monitor';
import { fmt } from './measure';
import { postTo, startService, type BenchService } from './service';

const statement = (lines: number) => ({
  type: 'statement',
  from: 'Harbor Utilities\nPortland, ME',
  to: 'Lighthouse Bakery',
  number: `ST-${lines}`,
  items: Array.from({ length: lines }, (_, i) =>
    i % 10 === 9
      ? { date: '2026-10-15', reference: `PAY-${i}`, name: `Payment ${i}`, payment: 100 }
      : { date: '2026-10-01', reference: `INV-${i}`, name: `Charge ${i}`, quantity: 1, unit_cost: 12.5 },
  ),
});

const longInvoice = {
  from: 'Harbor Utilities',
  to: 'Lighthouse Bakery',
  number: 'F-1000',
  currency: 'EUR',
  tax: 21,
  e_invoice: E_INVOICE,
  items: Array.from({ length: 1000 }, (_, i) => ({
    name: `Line ${i}: a service with a longer description`,
    quantity: 2,
    unit_cost: 12.345,
  })),
};

/** A received PDF whose catalogue lists 60,000 file specifications without streams, after a valid Factur-X's own. */
function hostilePdf(facturX: Buffer): Buffer {
  const text = facturX.toString('latin1');
  const catalogRef = /\/Root (\d+) 0 R/.exec(text.slice(text.lastIndexOf('trailer')) || text)?.[1] ?? /\/Root (\d+) 0 R/.exec(text)![1]!;
  const objects = [...text.matchAll(new RegExp(`(?:^|\\n)${catalogRef} 0 obj\\s*(<<[\\s\\S]*?>>)\\s*endobj`, 'g'))];
  const catalog = objects.at(-1)![1]!;
  const specs = Array.from({ length: 60_000 }, (_, i) => `<< /Type /Filespec /F (f${i}.txt) /UF (f${i}.txt) >>`).join(' ');
  const changed = /\/AF\s*\[/.test(catalog) ? catalog.replace(/\/AF\s*\[/, `/AF [${specs} `) : catalog.replace(/>>$/, `/AF [${specs}] >>`);
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
  const size = Number(/\/Size (\d+)/.exec(text.slice(text.lastIndexOf('/Size')))![1]);
  const offset = facturX.length + 1;
  const body = `\n${catalogRef} 0 obj\n${changed}\nendobj\n`;
  const xref = `xref\n${catalogRef} 1\n${String(offset).padStart(10, '0')} 00000 n \n`;
  const trailer = `trailer\n<< /Size ${size} /Root ${catalogRef} 0 R /Prev ${startxref} >>\nstartxref\n${offset + body.length - 1}\n%%EOF\n`;
  return Buffer.concat([facturX, Buffer.from(body + xref + trailer, 'latin1')]);
}

async function lagMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^nodejs_eventloop_lag_max_seconds\s+([0-9.e+-]+)$/m.exec(text);
  if (!m) throw new Error('no nodejs_eventloop_lag_max_seconds in /metrics');
  return Number(m[1]) * 1000;
}

export interface LoopRound {
  name: string;
  /** The service's longest event-loop delay (ms) over the round, and the canary's over the same time. */
  loopMs: number;
  machineMs: number;
  statuses: string;
}

/** The event-loop rounds against the built service in `root` (its dist/), each `repeat` times; the worst of each. */
export async function benchEventLoop(root: string, repeat = 3): Promise<LoopRound[]> {
  const service: BenchService = await startService(root, { RENDER_CONCURRENCY: '2' });
  const post = postTo(service.url, service.key);
  const noise = new MachineNoise();
  const rounds: LoopRound[] = [];
  const round = async (name: string, send: () => Promise<number[]>): Promise<void> => {
    let loopMs = 0;
    let machineMs = 0;
    const statuses = new Map<number, number>();
    for (let i = 0; i < repeat; i++) {
      await lagMaxMs(service.url);
      noise.reset();
      for (const s of await send()) statuses.set(s, (statuses.get(s) ?? 0) + 1);
      loopMs = Math.max(loopMs, await lagMaxMs(service.url));
      machineMs = Math.max(machineMs, noise.read());
    }
    rounds.push({ name, loopMs, machineMs, statuses: [...statuses].map(([s, n]) => `${n} × ${s}`).join(', ') });
    console.log(
      `  ${name.padEnd(44)} loop ${fmt(loopMs).padStart(7)} ms   machine ${fmt(machineMs).padStart(6)} ms   (${rounds.at(-1)!.statuses})`,
    );
  };
  try {
    const st1000 = JSON.stringify(statement(1000));
    const st630 = JSON.stringify(statement(630));
    const inv = JSON.stringify(longInvoice);
    // Warm: every path once.
    for (const r of ['/', '/cii', '/ubl']) await post(r, r === '/' ? st1000 : inv);
    const facturX = (await post('/factur-x', inv)).body;
    const cii = (await post('/cii', inv)).body.toString('utf8');
    const hostile = hostilePdf(facturX);
    console.log(`event loop (${repeat} × each round; the worst):`);
    await round('1,000-line statement, one at a time', async () => [(await post('/', st1000)).status]);
    await round('630-line statements, 50 at once', async () =>
      (await Promise.all(Array.from({ length: 50 }, () => post('/', st630)))).map((r) => r.status),
    );
    const batch = JSON.stringify({ documents: Array.from({ length: 20 }, (_, i) => ({ ...statement(100), number: `ST-${i}` })) });
    await round('/batch of 20 × 100 lines, one merged PDF', async () => [
      (await post('/batch', batch, 'application/json', { accept: 'application/pdf' })).status,
    ]);
    await round('/batch of 20 × 100 lines, a ZIP', async () => [
      (await post('/batch', batch, 'application/json', { accept: 'application/zip' })).status,
    ]);
    await round('1,000-line /cii, one at a time', async () => [(await post('/cii', inv)).status]);
    await round('1,000-line /ubl (with its PDF), one at a time', async () => [(await post('/ubl', inv)).status]);
    await round('1,000-line /cii, 10 at once', async () =>
      (await Promise.all(Array.from({ length: 10 }, () => post('/cii', inv)))).map((r) => r.status),
    );
    await round('received 1,000-line CII: /validate', async () => [(await post('/validate', cii, 'application/xml')).status]);
    await round('received 1,000-line CII shown as a PDF', async () => [(await post('/', cii, 'application/xml')).status]);
    await round('received 1,000-line Factur-X PDF: /validate', async () => [(await post('/validate', facturX, 'application/pdf')).status]);
    await round(`received PDF, 60,000 file specifications (${(hostile.length / 1e6).toFixed(1)} MB)`, async () => [
      (await post('/validate', hostile, 'application/pdf')).status,
    ]);
  } finally {
    await noise.stop();
    await service.stop();
  }
  return rounds;
}
