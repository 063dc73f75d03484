// The logo cache's lifetimes on a clock the test moves (the end-to-end test in test/e2e/logo-cache.test.ts checks
// the same against a real image server and the real clock): clamped freshness, revalidation with validators, a
// changed logo, failures kept for their lifetime, a good logo kept while its host fails, no-store, shared fetches.
import { expect } from 'chai';
import type { LogoFetch, LogoOptions, Validators } from '../../../server/logo/fetch-logo';
import { freshnessMs, LogoCache } from '../../../server/logo/logo-cache';

const OPTS: LogoOptions = { allowPrivate: true, timeoutMs: 1000, maxBytes: 1_000_000 };
const URL_A = 'https://logos.example/a.png';

/** A logo host the test scripts: each call answers with the next of `answers` (the last one repeats). */
function host(answers: ((validators?: Validators) => LogoFetch)[]) {
  const calls: (Validators | undefined)[] = [];
  return {
    calls,
    fetch: async (_url: string, _opts: LogoOptions, validators?: Validators): Promise<LogoFetch> => {
      calls.push(validators);
      return answers[Math.min(calls.length - 1, answers.length - 1)]!(validators);
    },
  };
}

const image = (name: string, cacheControl: string, etag?: string): LogoFetch => ({
  ok: true,
  dataUri: `data:image/png;base64,${name}`,
  headers: { cacheControl, etag },
});

describe('logo cache lifetimes (unit, moved clock)', () => {
  let now = 0;
  const cache = (fetch: ReturnType<typeof host>['fetch'], failureMs = 60_000) =>
    new LogoCache({ minFreshMs: 60_000, maxFreshMs: 86_400_000, failureMs, maxBytes: 1_000_000, now: () => now, fetch });
  beforeEach(() => {
    now = 1_000_000;
  });

  it('keeps a logo for its max-age, clamped between the floor and the ceiling', async () => {
    const h = host([() => image('v1', 'max-age=5')]);
    const c = cache(h.fetch);
    await c.get(URL_A, OPTS);
    now += 59_999; // max-age 5 s, raised to the 60 s floor
    await c.get(URL_A, OPTS);
    expect(h.calls.length).to.equal(1);
    now += 2;
    await c.get(URL_A, OPTS);
    expect(h.calls.length).to.equal(2);
    expect(freshnessMs({ cacheControl: 'public, max-age=31536000' }, now)).to.equal(31_536_000_000);
  });

  it('revalidates a stale logo with its ETag: 304 keeps it, a new image replaces it', async () => {
    const h = host([
      () => image('v1', 'max-age=60', '"v1"'),
      () => ({ ok: true, notModified: true, headers: { cacheControl: 'max-age=60' } }),
      () => image('v2', 'max-age=60', '"v2"'),
    ]);
    const c = cache(h.fetch);
    expect(await c.get(URL_A, OPTS)).to.deep.equal({ ok: true, dataUri: 'data:image/png;base64,v1' });
    now += 61_000;
    expect(await c.get(URL_A, OPTS)).to.deep.equal({ ok: true, dataUri: 'data:image/png;base64,v1' });
    expect(h.calls[1]).to.deep.equal({ etag: '"v1"', lastModified: undefined });
    now += 61_000;
    expect(await c.get(URL_A, OPTS)).to.deep.equal({ ok: true, dataUri: 'data:image/png;base64,v2' });
    expect(c.stats().revalidations).to.equal(2);
  });

  it('remembers a failure for its lifetime, and keeps serving a good logo while its host fails', async () => {
    const failing = host([() => ({ ok: false, reason: 'timeout' })]);
    const c = cache(failing.fetch, 30_000);
    for (let i = 0; i < 5; i++) expect((await c.get(URL_A, OPTS)).ok).to.equal(false);
    expect(failing.calls.length).to.equal(1);
    now += 30_001;
    await c.get(URL_A, OPTS);
    expect(failing.calls.length).to.equal(2);

    const flaky = host([() => image('v1', 'max-age=60', '"v1"'), () => ({ ok: false, reason: 'HTTP 503' })]);
    const d = cache(flaky.fetch, 30_000);
    await d.get(URL_A, OPTS);
    now += 61_000;
    expect(await d.get(URL_A, OPTS)).to.deep.equal({ ok: true, dataUri: 'data:image/png;base64,v1' });
    now += 10_000;
    await d.get(URL_A, OPTS);
    expect(flaky.calls.length, 'the failure is kept for its lifetime too').to.equal(2);
  });

  it('keeps nothing marked no-store, and lets concurrent requests share one fetch', async () => {
    const h = host([() => image('v1', 'no-store')]);
    const c = cache(h.fetch);
    await Promise.all([c.get(URL_A, OPTS), c.get(URL_A, OPTS), c.get(URL_A, OPTS)]);
    expect(h.calls.length, 'three at once: one fetch').to.equal(1);
    await c.get(URL_A, OPTS);
    expect(h.calls.length, 'no-store: fetched again').to.equal(2);
    expect(c.stats().entries).to.equal(0);
  });
});
