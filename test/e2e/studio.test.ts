/// <reference lib="dom" />
// The studio in real headless Chromium: it renders, switching type and theme changes the preview, and a CSS file saved
// on disk changes the preview without a reload of the server (timed); the HTML preview lays out at the printed page's
// width. The gallery shows every type × theme, each thumbnail inside its card at any viewport width. The theme pane
// edits a theme's files unsaved (checked as a folder is), shows the PDF as page images and exports the folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { projectRoot } from '../../server/config';
import { pdfText } from '../helpers/pdf';
import { copyProjectData, sharedService, startTestService, type TestService } from '../helpers/service';
import { THEMES } from '../helpers/themes';
import { sharedPartialNames } from '../../server/render/html';
import { loadThemes } from '../../server/render/themes';

/** Text and table-header colour of the HTML preview (a same-origin srcdoc frame). */
async function preview(page: Page): Promise<{ text: string; bar: string }> {
  return page.evaluate(() => {
    const doc = (document.getElementById('html') as HTMLIFrameElement).contentDocument;
    const th = doc?.querySelector('.doc-items th');
    return { text: doc?.body?.innerText ?? '', bar: th ? getComputedStyle(th).backgroundColor : '' };
  });
}

/** The printed content width in CSS px: the paper's width less the page side margins (documents/paper.ts: 0.6in each). */
const PX_PER_IN = 96;
const CONTENT_WIDTH = { letter: (8.5 - 1.2) * PX_PER_IN, a4: (210 / 25.4 - 1.2) * PX_PER_IN };

/** How the HTML preview lays out: the body's content width and the items table's, in the frame's own CSS px. */
async function layout(page: Page): Promise<{ body: number; items: number; text: string }> {
  return page.evaluate(() => {
    const doc = (document.getElementById('html') as HTMLIFrameElement).contentDocument;
    const body = doc?.body;
    if (!body) return { body: 0, items: 0, text: '' };
    const style = getComputedStyle(body);
    const width =
      body.getBoundingClientRect().width -
      parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight) -
      parseFloat(style.borderLeftWidth) -
      parseFloat(style.borderRightWidth);
    return { body: width, items: doc.querySelector('.doc-items')?.getBoundingClientRect().width ?? 0, text: body.innerText };
  });
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
interface CardBoxes {
  title: string;
  card: Box;
  thumb: Box;
  frame: Box;
  thumbAspect: number;
  frameAspect: number;
}

/** Every gallery card, its thumbnail and the thumbnail's scaled frame, as the browser lays them out (after a frame). */
async function galleryBoxes(page: Page): Promise<CardBoxes[]> {
  return page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return [...document.querySelectorAll('.card')].map((card) => {
      const thumb = card.querySelector('.thumb')!;
      const frame = thumb.querySelector('iframe')!;
      // (Plain rects: a helper function here would be renamed by the test's TypeScript transform, unknown in the page.)
      const [c, t, f] = [card, thumb, frame].map((e) => e.getBoundingClientRect());
      const [cb, tb, fb] = [c!, t!, f!].map((r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }));
      return {
        title: card.querySelector('h3')?.textContent ?? '',
        card: cb!,
        thumb: tb!,
        frame: fb!,
        thumbAspect: t!.height / t!.width,
        frameAspect: f!.height / f!.width,
      };
    });
  });
}

/** What of `inner` lies outside `outer` (beyond half a pixel of rounding), as text; empty when nothing does. */
function outside(inner: Box, outer: Box): string {
  const out: string[] = [];
  if (inner.left < outer.left - 0.5) out.push(`left by ${(outer.left - inner.left).toFixed(1)}px`);
  if (inner.top < outer.top - 0.5) out.push(`top by ${(outer.top - inner.top).toFixed(1)}px`);
  if (inner.right > outer.right + 0.5) out.push(`right by ${(inner.right - outer.right).toFixed(1)}px`);
  if (inner.bottom > outer.bottom + 0.5) out.push(`bottom by ${(inner.bottom - outer.bottom).toFixed(1)}px`);
  return out.join(', ');
}

/** A notes paragraph long enough to wrap a few times at either paper's width. */
const NOTES =
  'Thank you for your business. Payment is due within thirty days of the invoice date; late payments accrue interest at one and a half ' +
  'percent per month, compounded monthly, as set out in our master services agreement of March 2024, section 7.2. Please quote the ' +
  'invoice number on every remittance so that we can match it.';

/** The lines of the preview's text block that contains `marker`, as the browser broke them. */
async function previewLines(page: Page, marker: string): Promise<string[]> {
  return page.evaluate((marker) => {
    const doc = (document.getElementById('html') as HTMLIFrameElement).contentDocument!;
    // The block of text itself (a paragraph of the notes, inside their .doc-multiline), whose first child is the text.
    const block = [...doc.querySelectorAll('.doc-multiline, .doc-note__para')].find(
      (e) => e.textContent?.includes(marker) && e.firstChild?.nodeType === Node.TEXT_NODE,
    );
    const node = block?.firstChild;
    if (!node) return [];
    const text = node.textContent ?? '';
    const range = doc.createRange();
    const lines: string[] = [];
    let top = NaN;
    let line = '';
    for (let i = 0; i < text.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect && Math.abs(rect.top - top) > 3 && line.trim()) {
        lines.push(line.replace(/\s+/g, ' ').trim());
        line = '';
      }
      if (rect) top = rect.top;
      line += text[i];
    }
    lines.push(line.replace(/\s+/g, ' ').trim());
    return lines;
  }, marker);
}

/** Polls until `ok` (the page has re-rendered), for as long as a test may take: a busy machine is slow, not wrong. */
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 45000): Promise<T> {
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
    browser = await puppeteer.launch({
      executablePath: service.config.chromiumPath,
      headless: 'shell',
      args: ['--no-sandbox', '--disable-gpu'],
    });
  });
  after(async function () {
    await browser?.close();
    await service?.close();
  });

  it('renders, follows type and theme, and shows a saved CSS change without a server reload', async function () {
    const page = await browser.newPage();
    await page.setViewport({ width: 1500, height: 950 });
    await page.goto(`${service.url}/studio`);
    let p = await until(
      () => preview(page),
      (v) => v.text.includes('INVOICE'),
    );
    expect(p.text).to.contain('INVOICE');
    expect(p.text).to.contain('Consulting');

    await page.select('#type', 'quote');
    p = await until(
      () => preview(page),
      (v) => v.text.includes('QUOTE'),
    );
    expect(p.text).to.contain('Quote # Q-55');

    await page.select('#theme', 'slate');
    p = await until(
      () => preview(page),
      (v) => v.bar === 'rgb(51, 65, 85)',
    );
    expect(p.bar).to.equal('rgb(51, 65, 85)');

    const pdfSrc = await page.$eval('#pdf', (f) => (f as HTMLIFrameElement).src);
    expect(pdfSrc).to.match(/^blob:/);
    fs.mkdirSync(path.join(projectRoot(), 'test', '.artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(projectRoot(), 'test', '.artifacts', 'studio.png') });

    // Save a new bar colour in the theme file: the preview follows, the server keeps running.
    const css = path.join(root, 'themes', 'slate', 'theme.css');
    const original = fs.readFileSync(css, 'utf8');
    const startedAt = Date.now();
    fs.writeFileSync(css, original.replace('--color-bar-bg: #334155;', '--color-bar-bg: #b91c1c;'));
    p = await until(
      () => preview(page),
      (v) => v.bar === 'rgb(185, 28, 28)',
    );
    const ms = Date.now() - startedAt;
    console.log(`      CSS save → updated preview: ${ms} ms`);
    // The preview followed the saved file (until() waited for it); how soon is printed, not bounded.
    expect(p.bar).to.equal('rgb(185, 28, 28)');
    fs.writeFileSync(css, original);
    await until(
      () => preview(page),
      (v) => v.bar === 'rgb(51, 65, 85)',
    );

    // A broken template is reported, and the last good version keeps serving.
    const partial = path.join(root, 'templates', 'partials', 'notes.hbs');
    const good = fs.readFileSync(partial, 'utf8');
    fs.writeFileSync(partial, '{{#if view.notes}} unclosed');
    const problems = await until(
      () => page.$eval('#problems', (e) => ((e as HTMLElement).hidden ? '' : (e.textContent ?? ''))),
      (t) => t.includes('notes.hbs'),
    );
    expect(problems).to.contain('notes.hbs');
    fs.writeFileSync(partial, good);
    await until(
      () => page.$eval('#problems', (e) => (e as HTMLElement).hidden),
      (h) => h === true,
    );
  });

  it('the gallery shows every type in every theme, each thumbnail inside its card at any width', async function () {
    const page = await browser.newPage();
    await page.setViewport({ width: 1260, height: 1000 });
    await page.goto(`${service.url}/studio/gallery`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    const cards = await page.$$eval('.card h3', (hs) => hs.map((h) => h.textContent));
    expect(cards).to.have.length(12 * THEMES.length);
    expect(cards).to.include('packing_slip · slate');
    // The thumbnails are the printed page: the frame lays out at letter width (8.5in at 96 px/in), with the margins.
    const frame = await page.$eval('.thumb iframe', (f) => {
      const doc = (f as HTMLIFrameElement).contentDocument!;
      return { width: (f as HTMLIFrameElement).offsetWidth, body: doc.body.getBoundingClientRect().width };
    });
    expect(frame.width).to.equal(816);
    expect(frame.body).to.be.closeTo(CONTENT_WIDTH.letter, 2);

    for (const width of [1260, 700, 360]) {
      await page.setViewport({ width, height: 1000 });
      const boxes = await galleryBoxes(page);
      expect(boxes).to.have.length(12 * THEMES.length);
      const problems = boxes.flatMap((b) => {
        const list: string[] = [];
        const thumb = outside(b.thumb, b.card);
        const frame = outside(b.frame, b.card);
        const inThumb = outside(b.frame, b.thumb);
        if (thumb) list.push(`${b.title}: thumbnail outside its card (${thumb})`);
        if (frame) list.push(`${b.title}: page outside its card (${frame})`);
        if (inThumb) list.push(`${b.title}: page outside its thumbnail (${inThumb})`);
        if (Math.abs(b.thumbAspect - 11 / 8.5) > 0.02)
          list.push(`${b.title}: thumbnail aspect ${b.thumbAspect.toFixed(3)}, not letter's ${(11 / 8.5).toFixed(3)}`);
        if (Math.abs(b.frameAspect - 11 / 8.5) > 0.01)
          list.push(`${b.title}: page aspect ${b.frameAspect.toFixed(3)}, not letter's ${(11 / 8.5).toFixed(3)}`);
        if (b.thumb.right - b.thumb.left < 100) list.push(`${b.title}: thumbnail only ${(b.thumb.right - b.thumb.left).toFixed(0)}px wide`);
        return list;
      });
      expect(problems, `at a ${width}px wide viewport`).to.deep.equal([]);
      // The page does not scroll sideways either.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `horizontal overflow at ${width}px`).to.be.at.most(0);
    }
    await page.setViewport({ width: 1260, height: 1000 });
    await galleryBoxes(page);
    await page.screenshot({ path: path.join(projectRoot(), 'test', '.artifacts', 'gallery.png'), fullPage: true });
  });

  it('the stamp, gross-price and footer controls write their fields into the request, and the preview follows', async function () {
    const page = await browser.newPage();
    await page.setViewport({ width: 1500, height: 950 });
    await page.goto(`${service.url}/studio`);
    await page.waitForSelector('body[data-renders]', { timeout: 30000 });
    await page.select('#stamp', 'paid');
    await page.click('#gross');
    await page.click('#footer');
    const request = JSON.parse(await page.$eval('#doc', (t) => (t as HTMLTextAreaElement).value)) as Record<string, unknown>;
    expect(request).to.include({ stamp: 'paid', prices_include_tax: true });
    expect(request.footer).to.match(/^Sitz der Gesellschaft/);
    const p = await until(
      () => preview(page),
      (v) => v.text.includes('PAID') && v.text.includes('Net amount'),
    );
    expect(p.text).to.contain('PAID').and.contain('Net amount');
    // Unchecked, the field leaves the request again; an edited request sets the controls.
    await page.click('#gross');
    expect(await page.$eval('#doc', (t) => (t as HTMLTextAreaElement).value)).to.not.contain('prices_include_tax');
    await page.$eval('#doc', (t) => {
      const area = t as HTMLTextAreaElement;
      area.value = area.value.replace('"paid"', '"void"');
      area.dispatchEvent(new Event('input'));
    });
    expect(await page.$eval('#stamp', (s) => (s as HTMLSelectElement).value)).to.equal('void');
  });

  it("the theme pane: a theme's files, a draft previewed at once (checked like a folder), pages as images, the folder exported", async function () {
    const api = (route: string, body: unknown) =>
      fetch(`${service.url}/studio/api/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const files = (await (await fetch(`${service.url}/studio/api/theme/modern`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(files.css).to.equal(fs.readFileSync(path.join(root, 'themes', 'modern', 'theme.css'), 'utf8'));
    expect(Object.keys(files.partials)).to.deep.equal(['header']);
    expect(files.shared).to.have.property('totals');
    expect((await fetch(`${service.url}/studio/api/theme/nope`)).status).to.equal(404);

    // A draft: the band in red, previewed in the PDF without a file saved.
    const css = String(files.css).replace('--color-band-bg: #312e81;', '--color-band-bg: #b91c1c;');
    const doc = { type: 'invoice', theme: 'modern', lang: 'en-US', doc: { from: 'A', to: 'B', items: [{ name: 'x', unit_cost: 1 }] } };
    const pdf = Buffer.from(await (await api('pdf', { ...doc, draft: { css } })).arrayBuffer());
    const ppm = execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-x', '400', '-y', '48', '-W', '1', '-H', '1', '-'], {
      input: pdf,
    });
    expect([...ppm.subarray(ppm.length - 3)]).to.deep.equal([185, 28, 28]);
    // Checked as a folder is: what reaches beyond the page, a partial that replaces nothing.
    const bad = await api('html', {
      ...doc,
      draft: { css: `${css} .doc { background: url(https://example.com/x.png) }`, partials: { nope: '<p></p>' } },
    });
    expect(bad.status).to.equal(400);
    const { problems } = (await bad.json()) as { problems: string[] };
    expect(problems).to.deep.equal([
      'theme.css reaches beyond the page: url(https://example.com/x.png) (only data: URLs: the page loads nothing)',
      'partials/nope.hbs replaces no shared partial',
    ]);

    // Pages as images (any browser shows them): one PNG per page.
    const long = { ...doc, doc: { ...doc.doc, items: Array.from({ length: 50 }, (_, i) => ({ name: `Item ${i}`, unit_cost: 1 })) } };
    const { pages } = (await (await api('pages', long)).json()) as { pages: string[] };
    const longPdf = Buffer.from(await (await api('pdf', long)).arrayBuffer());
    const count = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: longPdf }).toString())![1]);
    expect(count).to.be.greaterThan(1);
    expect(pages).to.have.length(count);
    for (const png of pages) expect(Buffer.from(png.split(',')[1]!, 'base64').subarray(1, 4).toString()).to.equal('PNG');

    // Exported, the folder is a theme: dropped into a themes folder, it loads with the draft and its own partials only.
    const header = String(files.partials.header).replace('doc-header--band', 'doc-header--band doc-header--ocean');
    const zip = await api('export', {
      id: 'ocean',
      from: 'modern',
      draft: { css, partials: { header, totals: files.shared.totals, '../../evil': '<p>x</p>' } },
    });
    expect(zip.headers.get('content-type')).to.equal('application/zip');
    const themes = fs.mkdtempSync(path.join(os.tmpdir(), 'exported-'));
    fs.copyFileSync(path.join(root, 'themes', 'base.css'), path.join(themes, 'base.css'));
    fs.cpSync(path.join(root, 'themes', 'classic'), path.join(themes, 'classic'), { recursive: true });
    fs.writeFileSync(path.join(themes, 'ocean.zip'), Buffer.from(await zip.arrayBuffer()));
    execFileSync('unzip', ['-q', path.join(themes, 'ocean.zip'), '-d', themes]);
    fs.rmSync(path.join(themes, 'ocean.zip'));
    expect(fs.existsSync(path.join(themes, '..', 'evil.hbs')), 'no name outside the shared ones becomes a path').to.equal(false);
    expect(fs.readdirSync(path.join(themes, 'ocean', 'partials'))).to.deep.equal(['header.hbs']);
    const loaded = loadThemes(themes, sharedPartialNames(path.join(root, 'templates')));
    const ocean = loaded.themes.find((t) => t.id === 'ocean')!;
    expect(ocean.css).to.equal(css);
    expect([...ocean.partials.keys()]).to.deep.equal(['header']); // totals was the shared one: not exported
    expect(ocean.name).to.equal('ocean');

    // An account's brand previewed as PUT /brand would set it: its font and footer in the PDF; a bad colour named.
    const branded = Buffer.from(
      await (await api('pdf', { ...doc, brand: { accent_color: '#0e7490', font: 'Arimo', footer: 'Studio Brand Ltd' } })).arrayBuffer(),
    );
    expect(execFileSync('pdffonts', ['-'], { input: branded }).toString()).to.contain('Arimo-Regular');
    expect(pdfText(branded)).to.contain('Studio Brand Ltd');
    const unreadable = await api('pdf', { ...doc, brand: { accent_color: '#ffff00' } });
    expect(unreadable.status).to.equal(400);
    expect(((await unreadable.json()) as { details: { field: string }[] }).details.map((d) => d.field)).to.deep.equal(['accent_color']);

    // In the page: editing theme.css in the pane changes the preview; the pages toggle shows images.
    const page = await browser.newPage();
    await page.setViewport({ width: 1600, height: 950 });
    await page.goto(`${service.url}/studio`);
    await page.waitForSelector('body[data-renders]', { timeout: 30000 });
    await page.select('#theme', 'modern');
    await until(
      () => page.$eval('#theme-source', (t) => (t as HTMLTextAreaElement).value),
      (v) => v.includes('--color-band-bg'),
    );
    await page.$eval(
      '#theme-source',
      (t, next) => {
        (t as HTMLTextAreaElement).value = next;
        t.dispatchEvent(new Event('input'));
      },
      css,
    );
    const band = await until(
      () =>
        page.evaluate(() => {
          const header = (document.getElementById('html') as HTMLIFrameElement).contentDocument?.querySelector('.doc-header--band');
          return header ? getComputedStyle(header).backgroundColor : '';
        }),
      (v) => v === 'rgb(185, 28, 28)',
    );
    expect(band).to.equal('rgb(185, 28, 28)');
    await page.click('#as-images');
    const shown = await until(
      () => page.$$eval('#pages img', (imgs) => imgs.length),
      (n) => n > 0,
    );
    expect(shown).to.be.greaterThan(0);
    await page.screenshot({ path: path.join(projectRoot(), 'test', '.artifacts', 'studio-theme-pane.png') });
  });

  it('lays the HTML preview out at the printed width, for letter and A4, breaking lines as the PDF does', async function () {
    const page = await browser.newPage();
    await page.setViewport({ width: 1500, height: 950 });
    await page.goto(`${service.url}/studio`);
    await page.waitForSelector('body[data-renders]', { timeout: 30000 });
    let l = await until(
      () => layout(page),
      (v) => v.text.includes('INVOICE') && Math.abs(v.body - CONTENT_WIDTH.letter) < 2,
    );
    expect(l.body).to.be.closeTo(CONTENT_WIDTH.letter, 2); // 8.5in − 2 × 0.6in = 700.8px
    expect(l.items).to.be.closeTo(CONTENT_WIDTH.letter, 2);

    await page.select('#page', 'a4');
    l = await until(
      () => layout(page),
      (v) => Math.abs(v.body - CONTENT_WIDTH.a4) < 2,
    );
    expect(l.body).to.be.closeTo(CONTENT_WIDTH.a4, 2); // 210mm − 2 × 0.6in ≈ 678.5px
    expect(l.items).to.be.closeTo(CONTENT_WIDTH.a4, 2);

    // The frame is the whole page width scaled down into the pane: nothing of it is cut off at the side.
    const fit = await until(
      () =>
        page.evaluate(() => {
          const frame = document.getElementById('html')!.getBoundingClientRect();
          const view = document.getElementById('html-view')!;
          const v = view.getBoundingClientRect();
          return {
            frameWidth: frame.width,
            viewWidth: view.clientWidth,
            frameLeft: frame.left,
            viewLeft: v.left + view.clientLeft,
            layoutWidth: (document.getElementById('html') as HTMLIFrameElement).offsetWidth,
          };
        }),
      (v) => Math.abs(v.layoutWidth - (210 / 25.4) * PX_PER_IN) < 2,
    );
    expect(fit.layoutWidth).to.be.closeTo((210 / 25.4) * PX_PER_IN, 2);
    expect(fit.frameWidth).to.be.closeTo(fit.viewWidth, 1);
    expect(fit.frameLeft).to.be.closeTo(fit.viewLeft, 1);

    // A paragraph that wraps: the preview breaks its lines where the PDF of the same request does, on both papers.
    const doc = JSON.parse(await page.$eval('#doc', (t) => (t as HTMLTextAreaElement).value)) as Record<string, unknown>;
    doc.notes = NOTES;
    await page.$eval(
      '#doc',
      (t, v) => {
        (t as HTMLTextAreaElement).value = v;
        t.dispatchEvent(new Event('input'));
      },
      JSON.stringify(doc, null, 2),
    );
    for (const size of ['a4', 'letter'] as const) {
      if (size !== 'a4') await page.select('#page', size);
      l = await until(
        () => layout(page),
        (v) => v.text.includes('can match it.') && Math.abs(v.body - CONTENT_WIDTH[size]) < 2,
      );
      expect(l.body).to.be.closeTo(CONTENT_WIDTH[size], 2);
      const htmlLines = await previewLines(page, 'thirty days');
      expect(htmlLines.length, `${size}: the notes wrap`).to.be.at.least(3);
      const res = await fetch(`${service.url}/studio/api/pdf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'invoice', theme: 'classic', lang: 'en-US', page_size: size, doc }),
      });
      const pdfLines = pdfText(new Uint8Array(await res.arrayBuffer()))
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim());
      const first = pdfLines.findIndex((line) => line.startsWith(NOTES.slice(0, 20)));
      expect(pdfLines.slice(first, first + htmlLines.length), `${size}: lines of the HTML preview and of the PDF`).to.deep.equal(htmlLines);
    }

    // The frame is as tall as the document, at least a page: it grows with a long one and shrinks back.
    const frameHeight = () => page.$eval('#html', (f) => (f as HTMLIFrameElement).offsetHeight);
    const setDoc = (value: unknown) =>
      page.$eval(
        '#doc',
        (t, v) => {
          (t as HTMLTextAreaElement).value = v;
          t.dispatchEvent(new Event('input'));
        },
        JSON.stringify(value, null, 2),
      );
    const items = doc.items as unknown[];
    await setDoc({ ...doc, items: Array.from({ length: 40 }, () => items[0]) });
    expect(await until(frameHeight, (h) => h > 2 * 11 * PX_PER_IN)).to.be.above(2 * 11 * PX_PER_IN);
    await setDoc(doc);
    expect(await until(frameHeight, (h) => Math.abs(h - 11 * PX_PER_IN) < 1)).to.be.closeTo(11 * PX_PER_IN, 1);
  });

  it('offers the languages of the locale catalogues', async function () {
    const meta = (await (await fetch(`${service.url}/studio/api/meta`)).json()) as { languages: string[] };
    // A catalogue is a file named by its language (locales/units.json and item-schemes.json are not languages).
    const files = fs.readdirSync(path.join(root, 'locales')).filter((f) => /^[a-z]{2,3}\.json$/.test(f));
    expect(meta.languages).to.have.length(files.length);
    expect(meta.languages).to.include.members(['en-US', 'fr-FR', 'de-DE', 'es-ES', 'th-TH']);
  });

  it('answers a hostile preview request with a 400, never a 500: lang not text, a body nested 100,000 deep, a list for doc', async function () {
    const preview = (route: string, body: string) =>
      fetch(`${service.url}/studio/api/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const doc = { from: 'A', to: 'B', items: [{ name: 'x' }] };
    for (const route of ['html', 'pdf']) {
      for (const lang of [['x'], { a: 1 }, 42]) {
        const res = await preview(route, JSON.stringify({ lang, doc }));
        expect(res.status, `${route} lang ${JSON.stringify(lang)}`).to.equal(200);
      }
      const deep = await preview(
        route,
        `{"doc":{"from":"A","to":"B","items":[{"name":"x","description":${'['.repeat(100000)}${']'.repeat(100000)}}]}}`,
      );
      expect(deep.status, `${route} deep`).to.equal(400);
      expect(((await deep.json()) as { code: string }).code).to.equal('malformed_json');
      const put = await fetch(`${service.url}/studio/api/${route}`, { method: 'PUT' });
      expect([put.status, put.headers.get('allow')]).to.deep.equal([405, 'POST, OPTIONS']);
      expect(((await put.json()) as { error: string }).error).to.contain(`PUT is not allowed on /studio/api/${route}`);
      const list = await preview(route, JSON.stringify({ doc: [doc] }));
      expect(list.status, `${route} list`).to.equal(400);
      expect(((await list.json()) as { code: string }).code).to.equal('validation_failed');
    }
  });

  it('is off unless enabled', async function () {
    const shared = await sharedService();
    expect(shared.config.studio).to.equal(false);
    expect((await fetch(`${shared.url}/studio`)).status).to.equal(404);
    expect((await fetch(`${shared.url}/studio/api/meta`)).status).to.equal(404);
  });
});
