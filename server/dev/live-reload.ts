// Live reload for development (npm run dev): watches templates/, themes/, locales/ and schemas/, reloads every data
// file when one changes, and swaps the result into the pipeline. A broken file keeps the last good set and is
// reported to the listeners (the studio shows it). Never enabled in production unless asked for.
import fs from 'node:fs';
import path from 'node:path';
import type { Limits } from '../config';
import { loadAssets, type Assets } from '../assets';
import type { DocumentPipeline } from '../pipeline';

export interface ReloadEvent {
  version: number;
  ok: boolean;
  problems: string[];
  changed: string;
}

export interface LiveReload {
  version(): number;
  subscribe(listener: (event: ReloadEvent) => void): () => void;
  close(): void;
}

const WATCHED = ['templates', 'themes', 'locales', 'schemas'];

/** One reload, numbered `version`: the data files `load` reads handed to `replace`, or, when either throws, the
 * problems that kept the last good set (a StartupError's list, else the error's message). */
export function reloadOnce(version: number, changed: string, load: () => Assets, replace: (assets: Assets) => void): ReloadEvent {
  try {
    replace(load());
    return { version, ok: true, problems: [], changed };
  } catch (err) {
    return { version, ok: false, problems: (err as { problems?: string[] }).problems ?? [(err as Error).message], changed };
  }
}

export function startLiveReload(root: string, limits: Limits, pipeline: DocumentPipeline): LiveReload {
  const listeners = new Set<(event: ReloadEvent) => void>();
  let version = 0;
  let timer: NodeJS.Timeout | undefined;
  let changed = '';
  const reload = () => {
    const event = reloadOnce(
      ++version,
      changed,
      () => loadAssets(root, limits),
      (assets) => pipeline.replaceAssets(assets),
    );
    for (const l of listeners) l(event);
  };
  // Editors write a file in several steps (truncate, write, rename): wait for the burst to settle.
  const schedule = (file: string) => {
    changed = file;
    clearTimeout(timer);
    timer = setTimeout(reload, 40);
  };
  const watchers = WATCHED.map((dir) =>
    fs.watch(path.join(root, dir), { recursive: true }, (_event, name) => schedule(path.join(dir, String(name ?? '')))),
  );
  return {
    version: () => version,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
