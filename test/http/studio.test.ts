// The studio in real headless Chromium: it renders, switching type and theme changes the preview, and a CSS file saved
// on disk changes the preview without a reload of the server (timed). The gallery shows every type × theme.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { projectRoot } from '../../server/config';
import { copyProjectData, sharedService, startTestService, type TestService } from '../helpers/service';

/** Text and table-header colour of the HTML preview (a same-origin srcdoc frame). */
async function preview(page: Page): Promise<{ text: string; bar: string }> {
  return page.evaluate(() => {
    const doc = (document.getElementById('html') as HTMLIFrameElement).contentDocument;
    const th = doc?.querySelector('.doc-items th');
    return { text: doc?.body?.innerText ?? '', bar: th ? getComputedStyle(th).backgroundColor : '' };
  });
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 10000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('studio', function () {
  this.timeout(60000);
  let root: string;
  let service: TestService;
  let browser: Browser;
  before(async function () {
    root = copyProjectData();
    service = await startTestService({ STUDIO: 'true', LIVE_RELOAD: 'true' }, { root });
    browser = await puppeteer.launch({ executablePath: service.config.chromiumPath, headless: 'shell', args: ['--no-sandbox', '--disable-gpu'] });
  });
  after(async function () {
    await browser?.close();
    await service?.close();
  });

  it('renders, follows type and theme, and shows a saved CSS change without a server reload', async function () {
    const page = await browser.newPage();
    await page.setViewport({ width: 1500, height: 950 });
    await page.goto(`${service.url}/studio`);
    let p = await until(() => preview(page), (v) => v.text.includes('INVOICE'));
    expect(p.text).to.contain('INVOICE');
    expect(p.text).to.contain('Consulting');

    await page.select('#type', 'quote');
    p = await until(() => preview(page), (v) => v.text.includes('QUOTE'));
    expect(p.text).to.contain('Quote # Q-55');

    await page.select('#theme', 'slate');
    p = await until(() => preview(page), (v) => v.bar === 'rgb(51, 65, 85)');
    expect(p.bar).to.equal('rgb(51, 65, 85)');

    const pdfSrc = await page.$eval('#pdf', (f) => (f as HTMLIFrameElement).src);
    expect(pdfSrc).to.match(/^blob:/);
    fs.mkdirSync(path.join(projectRoot(), 'test', '.artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(projectRoot(), 'test', '.artifacts', 'studio.png') });

    // Save a new bar colour in the theme file: the preview follows, the server keeps running.
    const css = path.join(root, 'themes', 'slate.css');
    const original = fs.readFileSync(css, 'utf8');
    const startedAt = Date.now();
    fs.writeFileSync(css, original.replace('--color-bar-bg: #334155;', '--color-bar-bg: #b91c1c;'));
    p = await until(() => preview(page), (v) => v.bar === 'rgb(185, 28, 28)');
    const ms = Date.now() - startedAt;
    console.log(`      CSS save → updated preview: ${ms} ms`);
    expect(p.bar).to.equal('rgb(185, 28, 28)');
    expect(ms).to.be.lessThan(5000);
    fs.writeFileSync(css, original);
    await until(() => preview(page), (v) => v.bar === 'rgb(51, 65, 85)');

    // A broken template is reported, and the last good version keeps serving.
    const partial = path.join(root, 'templates', 'partials', 'notes.hbs');
    const good = fs.readFileSync(partial, 'utf8');
    fs.writeFileSync(partial, '{{#if view.notes}} unclosed');
    const problems = await until(() => page.$eval('#problems', (e) => (e as HTMLElement).hidden ? '' : e.textContent ?? ''), (t) => t.includes('notes.hbs'));
    expect(problems).to.contain('notes.hbs');
    fs.writeFileSync(partial, good);
    await until(() => page.$eval('#problems', (e) => (e as HTMLElement).hidden), (h) => h === true);
  });

  it('the gallery shows every type in every theme', async function () {
    const page = await browser.newPage();
    await page.goto(`${service.url}/studio/gallery`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    const cards = await page.$$eval('.card h3', (hs) => hs.map((h) => h.textContent));
    expect(cards).to.have.length(24);
    expect(cards).to.include('packing_slip · slate');
    await page.setViewport({ width: 1260, height: 1000 });
    await page.screenshot({ path: path.join(projectRoot(), 'test', '.artifacts', 'gallery.png'), fullPage: true });
  });

  it('is off unless enabled', async function () {
    const shared = await sharedService();
    expect(shared.config.studio).to.equal(false);
    expect((await fetch(`${shared.url}/studio`)).status).to.equal(404);
    expect((await fetch(`${shared.url}/studio/api/meta`)).status).to.equal(404);
  });
});
