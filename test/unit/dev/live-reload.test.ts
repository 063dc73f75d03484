// Live reload for development (dev/live-reload.ts): one reload swaps the data files in, or keeps the last good set
// and reports every problem; a change in a watched folder is reloaded once its burst of writes settles, numbered, and
// told to the listeners still subscribed (the folder here is a temp one whose data files are broken, so the reload
// reports problems and swaps nothing in); nothing is told once closed. Waits for events, never for a time.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Assets } from '../../../server/assets';
import { StartupError } from '../../../server/assets';
import { loadConfig } from '../../../server/config';
import { reloadOnce, startLiveReload, type ReloadEvent } from '../../../server/dev/live-reload';
import type { DocumentPipeline } from '../../../server/pipeline';
import { tempDir } from '../../helpers/service';

const ASSETS = { marker: 'assets' } as unknown as Assets;

describe('live reload', function () {
  describe('reloadOnce', function () {
    it('swaps the loaded files in and reports a good reload', function () {
      const swapped: Assets[] = [];
      expect(
        reloadOnce(
          3,
          'themes/a.json',
          () => ASSETS,
          (a) => void swapped.push(a),
        ),
      ).to.deep.equal({
        version: 3,
        ok: true,
        problems: [],
        changed: 'themes/a.json',
      });
      expect(swapped).to.deep.equal([ASSETS]);
    });

    it("keeps the last good set when loading fails, reporting a StartupError's every problem, else the message", function () {
      const swapped: Assets[] = [];
      const replace = (a: Assets) => void swapped.push(a);
      const startup = reloadOnce(
        4,
        'x',
        () => {
          throw new StartupError(['templates/a.hbs: bad', 'themes/b.json: bad']);
        },
        replace,
      );
      expect(startup).to.deep.equal({ version: 4, ok: false, problems: ['templates/a.hbs: bad', 'themes/b.json: bad'], changed: 'x' });
      const plain = reloadOnce(
        5,
        'y',
        () => {
          throw new Error('disk gone');
        },
        replace,
      );
      expect(plain.problems).to.deep.equal(['disk gone']);
      expect(swapped).to.deep.equal([]);
    });

    it('reports a swap that fails as a failed reload', function () {
      const event = reloadOnce(
        1,
        'z',
        () => ASSETS,
        () => {
          throw new Error('pipeline refused');
        },
      );
      expect(event).to.include({ ok: false });
      expect(event.problems).to.deep.equal(['pipeline refused']);
    });
  });

  describe('startLiveReload', function () {
    function project(): string {
      const root = tempDir('live-reload');
      for (const dir of ['templates', 'themes', 'locales', 'schemas']) fs.mkdirSync(path.join(root, dir, 'sub'), { recursive: true });
      return root;
    }
    const pipeline = (swaps: unknown[]) => ({ replaceAssets: (a: unknown) => void swaps.push(a) }) as unknown as DocumentPipeline;
    const limits = loadConfig({}).limits;

    it('reloads a burst of writes in a watched folder as fewer events, numbered, naming a changed file; broken files swap nothing in', async function () {
      const root = project();
      const swaps: unknown[] = [];
      const reload = startLiveReload(root, limits, pipeline(swaps));
      try {
        const events: ReloadEvent[] = [];
        const first = new Promise<void>((resolve) => reload.subscribe((e) => (events.push(e), resolve())));
        expect(reload.version()).to.equal(0);
        const writes = 6;
        for (let i = 0; i < writes; i++) fs.writeFileSync(path.join(root, 'themes', 'sub', 'brand.json'), `{"n": ${i}}`);
        await first;
        expect(events[0]!.version).to.equal(1);
        expect(events[0]!.ok).to.equal(false);
        expect(events[0]!.problems.length).to.be.greaterThan(0);
        expect(events[0]!.changed).to.equal(path.join('themes', 'sub', 'brand.json'));
        expect(swaps).to.deep.equal([]);
        const second = new Promise<void>((resolve) => reload.subscribe(() => resolve()));
        fs.writeFileSync(path.join(root, 'locales', 'xx.json'), '{');
        await second;
        expect(events.length, 'a burst of writes is reloaded fewer times than written').to.be.lessThan(writes);
        expect(events.at(-1)!.changed).to.equal(path.join('locales', 'xx.json'));
        expect(reload.version()).to.equal(events.at(-1)!.version);
        expect(events.map((e) => e.version)).to.deep.equal(events.map((_, i) => i + 1));
      } finally {
        reload.close();
      }
    });

    it('tells only the listeners still subscribed', async function () {
      const root = project();
      const reload = startLiveReload(root, limits, pipeline([]));
      try {
        const gone: ReloadEvent[] = [];
        const unsubscribe = reload.subscribe((e) => void gone.push(e));
        unsubscribe();
        const told = new Promise<ReloadEvent>((resolve) => reload.subscribe(resolve));
        fs.writeFileSync(path.join(root, 'schemas', 'a.json'), '{}');
        expect((await told).changed).to.equal(path.join('schemas', 'a.json'));
        expect(gone).to.deep.equal([]);
      } finally {
        reload.close();
      }
    });

    it('throws at start when a watched folder is missing', function () {
      const root = tempDir('live-reload-missing');
      expect(() => startLiveReload(root, limits, pipeline([]))).to.throw(/ENOENT/);
    });
  });
});
