// The print pages of one browser (server/pdf/page-set.ts) against a stand-in for puppeteer's Browser and Page (no
// Chromium): pages opened locked down (JavaScript off, every request but data: URIs refused), lent one render at a
// time preferring the page that holds the render's frame, replaced after their render limit or when their fonts grow
// too large, and a page whose renderer crashed, whose target closed or which does not answer lost and replaced.
// The same with real renderers killed and stopped is test/e2e/renderer-liveness.test.ts's.
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { PageSet } from '../../../server/pdf/page-set';

/** A page as PageSet uses it; `stopped`: its renderer never answers. */
class FakePage extends EventEmitter {
  closed = false;
  stopped = false;
  javaScript = true;
  intercepting = false;
  constructor(
    readonly owner: FakeBrowser,
    readonly url: string,
  ) {
    super();
  }
  isClosed(): boolean {
    return this.closed;
  }
  browser(): FakeBrowser {
    return this.owner;
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
  createCDPSession() {
    return Promise.resolve({
      send: (method: string) => {
        if (method !== 'Runtime.evaluate') return Promise.reject(new Error(`unexpected ${method}`));
        return this.stopped ? new Promise(() => undefined) : Promise.resolve({ result: { value: 0 } });
      },
    });
  }
  setJavaScriptEnabled(on: boolean): Promise<void> {
    this.javaScript = on;
    return Promise.resolve();
  }
  setRequestInterception(on: boolean): Promise<void> {
    this.intercepting = on;
    return Promise.resolve();
  }
}

/** A browser whose targets are fake pages, opened as launch.ts opens them (Target.createTarget, then waitForTarget). */
class FakeBrowser {
  readonly pages: FakePage[] = [];
  target() {
    return {
      createCDPSession: () =>
        Promise.resolve({
          send: (_method: string, params: { url: string }) => {
            this.pages.push(new FakePage(this, params.url));
            return Promise.resolve({ targetId: params.url });
          },
        }),
    };
  }
  waitForTarget(matches: (t: { url(): string }) => boolean) {
    const page = this.pages.find((p) => matches({ url: () => p.url }))!;
    return Promise.resolve({ url: () => page.url, page: () => Promise.resolve(page) });
  }
  get open(): FakePage[] {
    return this.pages.filter((p) => !p.closed);
  }
}

const asBrowser = (b: FakeBrowser) => b as unknown as Browser;
const fake = (p: Page) => p as unknown as FakePage;
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

async function pageSet(size: number, maxRenders = 0) {
  const browser = new FakeBrowser();
  const events: string[] = [];
  const set = new PageSet(
    size,
    maxRenders,
    () => asBrowser(browser),
    (event) => events.push(event),
  );
  await set.fill(asBrowser(browser));
  return { browser, set, events };
}

describe('PageSet (pages of one browser, with a stand-in browser)', function () {
  it('fills to its size with pages locked down: JavaScript off, requests intercepted', async function () {
    const { browser, set } = await pageSet(3);
    expect(set.idleCount()).to.equal(3);
    expect(browser.pages.map((p) => [p.javaScript, p.intercepting])).to.deep.equal([
      [false, true],
      [false, true],
      [false, true],
    ]);
    await set.fill(asBrowser(browser));
    expect(browser.pages).to.have.length(3);
  });

  it('refuses every request a page makes but its own data: URIs, and counts them', async function () {
    const { browser, set } = await pageSet(1);
    const outcome: string[] = [];
    const request = (url: string) => ({
      url: () => url,
      continue: () => (outcome.push(`continue ${url}`), Promise.resolve()),
      abort: (reason: string) => (outcome.push(`abort ${url} ${reason}`), Promise.resolve()),
    });
    const page = browser.pages[0]!;
    page.emit('request', request('data:font/woff2;base64,AAAA'));
    page.emit('request', request('https://example.com/x.png'));
    page.emit('request', request('file:///etc/passwd'));
    expect(outcome).to.deep.equal([
      'continue data:font/woff2;base64,AAAA',
      'abort https://example.com/x.png blockedbyclient',
      'abort file:///etc/passwd blockedbyclient',
    ]);
    expect(set.counters.blockedRequests).to.equal(2);
  });

  it('lends each page to one render at a time, preferring one holding the render’s frame; opens another when none is idle', async function () {
    const { browser, set } = await pageSet(2);
    const a = await set.take(asBrowser(browser), undefined);
    const b = await set.take(asBrowser(browser), undefined);
    expect(b).to.not.equal(a);
    set.stateOf(a).frame = 'classic';
    set.stateOf(b).frame = 'slate';
    set.giveBack(a);
    set.giveBack(b);
    // b came back last, yet a holds the classic frame.
    expect(await set.take(asBrowser(browser), 'classic')).to.equal(a);
    set.giveBack(a);
    expect(await set.take(asBrowser(browser), 'slate')).to.equal(b);
    expect(await set.take(asBrowser(browser), 'classic')).to.equal(a);
    const other = b;
    const third = await set.take(asBrowser(browser), undefined);
    expect([a, b]).to.not.include(third);
    set.giveBack(a);
    set.giveBack(other);
    set.giveBack(third);
    expect(set.idleCount(), 'one more than the set keeps is closed').to.equal(2);
    expect(fake(third).closed).to.equal(true);
  });

  it('replaces a page after maxRendersPerPage renders, not before', async function () {
    const { browser, set } = await pageSet(1, 3);
    const first = await set.take(asBrowser(browser), undefined);
    for (let i = 0; i < 2; i++) {
      set.giveBack(first);
      expect(await set.take(asBrowser(browser), undefined)).to.equal(first);
    }
    set.giveBack(first);
    await settle();
    expect(fake(first).closed).to.equal(true);
    expect(set.counters.pagesReplaced).to.equal(1);
    expect(set.idleCount()).to.equal(1);
    expect(await set.take(asBrowser(browser), undefined)).to.not.equal(first);
  });

  it('replaces a page whose fonts grew past the bound', async function () {
    const { browser, set } = await pageSet(1);
    const page = await set.take(asBrowser(browser), undefined);
    set.stateOf(page).fontBytes = 25 * 1024 * 1024;
    set.giveBack(page);
    await settle();
    expect(fake(page).closed).to.equal(true);
    expect(set.counters.pagesReplaced).to.equal(1);
    expect(browser.open).to.have.length(1);
  });

  it('a discarded page is closed and a fresh one takes its place', async function () {
    const { browser, set } = await pageSet(2);
    const page = await set.take(asBrowser(browser), undefined);
    set.discard(page);
    await settle();
    expect(fake(page).closed).to.equal(true);
    expect(set.idleCount()).to.equal(2);
    expect(browser.open).to.have.length(2);
  });

  it('a page whose renderer crashes, or whose target closes, is lost and replaced at once, idle or lent', async function () {
    const { browser, set, events } = await pageSet(2);
    const [crashed, closed] = browser.pages;
    crashed!.emit('error', new Error('Page crashed!'));
    closed!.emit('close');
    await settle();
    expect(set.counters.pagesLost).to.equal(2);
    expect(events.filter((e) => e === 'page_lost')).to.have.length(2);
    expect(set.idleCount()).to.equal(2);
    expect(browser.open.map((p) => p.url)).to.not.include.members([crashed!.url, closed!.url]);
    const lent = await set.take(asBrowser(browser), undefined);
    fake(lent).emit('error', new Error('Page crashed!'));
    await settle();
    expect(set.counters.pagesLost).to.equal(3);
    expect(set.idleCount()).to.equal(2);
  });

  it('check(): an idle page that does not answer within the probe’s time is lost and replaced', async function () {
    this.timeout(10_000);
    const { browser, set } = await pageSet(2);
    const stopped = browser.pages[0]!;
    stopped.stopped = true;
    // The probe's own deadline is what ends check() on a page that never answers (mocha's timeout catches a hang).
    await set.check();
    await settle();
    expect(stopped.closed).to.equal(true);
    expect(browser.pages[1]!.closed, 'the page that answered is kept').to.equal(false);
    expect(set.counters.pagesLost).to.equal(1);
    expect(set.idleCount()).to.equal(2);
  });

  it('a page handed back after its browser was replaced is closed, not kept', async function () {
    let current = new FakeBrowser();
    const set = new PageSet(1, 0, () => asBrowser(current));
    await set.fill(asBrowser(current));
    const page = await set.take(asBrowser(current), undefined);
    const old = current;
    current = new FakeBrowser();
    set.giveBack(page);
    expect(fake(page).closed).to.equal(true);
    expect(old.open).to.have.length(0);
    expect(set.idleCount()).to.equal(0);
  });
});
