// The benchmark's outside contenders: the naive floor (what a team gets with Chromium used the usual way: puppeteer's
// setContent + pdf on reused pages, system fonts, a bare invoice or a bare table of a statement's lines), the
// print-only limit (the service's own Chromium printing a page it has already laid out, again and again: nothing of
// the request, the HTML, the swap or the PDF's finishing, the most this stack can print), the service's Chromium work
// alone (its swap and print of documents in turn, nothing of Node's work around them), and a slow logo host (a local
// image server that answers after 100 ms, counting what it is asked).
import http from 'node:http';
import puppeteer, { type CDPSession, type Page } from 'puppeteer';
import { launchChromium, openPrintPage } from '../../server/pdf/launch';
import { newResidentState, printPage, printParameters, type PrintDocument } from '../../server/pdf/print-page';
import { solidPng } from '../../test/helpers/png';

/** A bare one-page invoice in system fonts: the same content as the service's, none of its typesetting. */
export const BARE_INVOICE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Invoice 1</title><style>
body { font-family: sans-serif; font-size: 12px; margin: 0; color: #222; }
h1 { font-size: 28px; margin: 0 0 4px; text-align: right; }
.top { display: flex; justify-content: space-between; margin: 24px 0; }
table { width: 100%; border-collapse: collapse; }
th { background: #333; color: #fff; text-align: left; padding: 6px; }
td { padding: 6px; border-bottom: 1px solid #ddd; }
.r { text-align: right; }
.totals { margin: 16px 0 0 auto; width: 40%; }
</style></head><body>
<h1>INVOICE</h1><p class="r"># 1</p>
<div class="top"><div><b>Nikolaus Ltd</b><br>VAT ID: 1234<p>Bill To:<br><b>Foster Moen</b><br>VAT ID: 4567</p></div>
<div class="r">Date: Feb 9, 2015<br>Payment Terms: Charged - Do Not Pay<br><b>Balance Due: $106.92</b></div></div>
<table><tr><th>Item</th><th class="r">Quantity</th><th class="r">Rate</th><th class="r">Amount</th></tr>
<tr><td>Starter Plan Monthly</td><td class="r">1</td><td class="r">$99.00</td><td class="r">$99.00</td></tr></table>
<table class="totals"><tr><td>Subtotal:</td><td class="r">$99.00</td></tr><tr><td>VAT (8%):</td><td class="r">$7.92</td></tr>
<tr><td><b>Total:</b></td><td class="r"><b>$106.92</b></td></tr></table>
<p>Notes:<br>Thanks for being an awesome customer!</p><p>Terms:<br>No need to submit payment. You will be auto-billed for this invoice.</p>
</body></html>`;

/** A statement's lines as a bare table in system fonts: what a naive service prints for them. */
export function bareStatement(
  lines: { date: string; reference: string; name: string; quantity?: number; unit_cost?: number; payment?: number }[],
): string {
  let balance = 0;
  const rows = lines.map((line) => {
    const charge = (line.quantity ?? 0) * (line.unit_cost ?? 0);
    balance += charge - (line.payment ?? 0);
    const money = (n: number) => (n === 0 ? '' : `$${n.toFixed(2)}`);
    return `<tr><td>${line.date}</td><td>${line.reference}</td><td>${line.name}</td><td class="r">${money(charge)}</td><td class="r">${money(line.payment ?? 0)}</td><td class="r">$${balance.toFixed(2)}</td></tr>`;
  });
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Statement</title><style>
body { font-family: sans-serif; font-size: 12px; margin: 0; color: #222; }
h1 { font-size: 28px; margin: 0 0 16px; text-align: right; }
table { width: 100%; border-collapse: collapse; }
th { background: #333; color: #fff; text-align: left; padding: 6px; }
td { padding: 6px; border-bottom: 1px solid #ddd; }
.r { text-align: right; }
</style></head><body><h1>STATEMENT</h1>
<table><thead><tr><th>Date</th><th>Reference</th><th>Description</th><th class="r">Charge</th><th class="r">Payment</th><th class="r">Balance</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></body></html>`;
}

export interface PrintOnly {
  /** Prints the worker's page (one per worker, the document written once) again. */
  print(worker: number): Promise<void>;
  /** The browser's main process (its tree is all of this contender's Chromium). */
  pid: number;
  close(): Promise<void>;
}

/**
 * The print-only limit: Chromium launched and its pages opened as the service does (launch.ts), `html` written once
 * into each, then only the print, again and again, with the service's paper, margins, backgrounds and tagging:
 * through puppeteer's page.pdf() (`via: 'page.pdf'`, as most services print: it waits for the fonts and reads the
 * PDF as a stream), or as the service itself asks, one Page.printToPDF with the bytes in its reply (`'devtools'`).
 */
export async function startPrintOnly(
  executablePath: string,
  sandbox: boolean,
  workers: number,
  html: string,
  via: 'page.pdf' | 'devtools',
): Promise<PrintOnly> {
  const browser = await launchChromium({ executablePath, sandbox, rendererProcessLimit: 2 * workers + 2 });
  const pages = await Promise.all(
    Array.from({ length: workers }, async () => {
      const page = await openPrintPage(browser);
      const session = await page.createCDPSession();
      await printPage(page, session, html, newResidentState(), { format: 'letter' });
      return { page, session };
    }),
  );
  const parameters = printParameters('letter');
  const inches = (n: number | undefined) => `${n}in`;
  const pdfOptions = {
    width: inches(parameters.paperWidth),
    height: inches(parameters.paperHeight),
    margin: {
      top: inches(parameters.marginTop),
      right: inches(parameters.marginRight),
      bottom: inches(parameters.marginBottom),
      left: inches(parameters.marginLeft),
    },
    printBackground: parameters.printBackground,
    tagged: parameters.generateTaggedPDF,
  };
  const printOnce = async ({ page, session }: { page: Page; session: CDPSession }): Promise<number> =>
    via === 'page.pdf'
      ? (await page.pdf(pdfOptions)).length
      : Buffer.from((await session.send('Page.printToPDF', parameters)).data, 'base64').length;
  return {
    async print(worker) {
      if ((await printOnce(pages[worker % pages.length]!)) < 1000) throw new Error('print-only: no PDF');
    },
    pid: browser.process()!.pid!,
    close: () => browser.close(),
  };
}

/**
 * The service's Chromium work alone: its pages (launch.ts) given `docs` in turn as the service gives a document
 * (print-page.ts printPage: the swap into the resident frame, then the print, asked together), and nothing else: no
 * HTTP, no checks, no HTML, no PDF/A. What the service would print if Node's work around each print cost nothing.
 */
export async function startSwapOnly(executablePath: string, sandbox: boolean, workers: number, docs: PrintDocument[]): Promise<PrintOnly> {
  const browser = await launchChromium({ executablePath, sandbox, rendererProcessLimit: 2 * workers + 2 });
  const pages = await Promise.all(
    Array.from({ length: workers }, async () => {
      const page = await openPrintPage(browser);
      return { page, session: await page.createCDPSession(), state: newResidentState(), printed: 0 };
    }),
  );
  return {
    async print(worker) {
      const slot = pages[worker % pages.length]!;
      const doc = docs[slot.printed++ % docs.length]!;
      if ((await printPage(slot.page, slot.session, doc, slot.state, { format: 'letter' })).length < 1000)
        throw new Error('swap-only: no PDF');
    },
    pid: browser.process()!.pid!,
    close: () => browser.close(),
  };
}

export interface NaiveFloor {
  /** Prints `html` on the worker's own page (one per worker, reused), as most services do. */
  print(worker: number, html: string): Promise<void>;
  close(): Promise<void>;
}

export async function startNaiveFloor(executablePath: string, sandbox: boolean, workers: number): Promise<NaiveFloor> {
  const browser = await puppeteer.launch({ executablePath, headless: 'shell', args: sandbox ? [] : ['--no-sandbox'] });
  const pages: Page[] = await Promise.all(Array.from({ length: workers }, () => browser.newPage()));
  return {
    async print(worker, html) {
      const page = pages[worker % pages.length]!;
      await page.setContent(html);
      const pdf = await page.pdf({ format: 'letter', printBackground: true });
      if (pdf.length < 1000) throw new Error('naive floor: no PDF');
    },
    close: () => browser.close(),
  };
}

export interface ImageServer {
  url: string;
  /** Requests answered so far (every one, revalidations included). */
  requests(): number;
  close(): Promise<void>;
}

/** A logo host that answers after `delayMs`, with a lifetime (max-age) and an ETag, as a real one would. */
export async function startSlowImageServer(delayMs: number, maxAgeSeconds: number): Promise<ImageServer> {
  const png = solidPng(240, 80, [30, 90, 160]);
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    setTimeout(() => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"', 'cache-control': `public, max-age=${maxAgeSeconds}` }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png', etag: '"v1"', 'cache-control': `public, max-age=${maxAgeSeconds}` }).end(png);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/logo.png`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
