// The data files, loaded once: code lists, schemas, label catalogues, the API's counted messages, fonts, templates
// and themes (a folder each, render/themes.ts), each named by its wire id.
// A broken file stops start-up with every problem of every loader listed at once (StartupError).
import path from 'node:path';
import type { Limits } from './config';
import { loadCountedMessages, type CountedMessages } from './messages';
import { loadCodeLists } from './documents/code-lists';
import { loadSchemas, type SchemaRegistry } from './documents/schema-registry';
import { loadCatalogues, type Catalogues } from './render/labels/catalogues';
import { loadFonts } from './render/fonts/fonts';
import { loadHtmlRenderer, sharedPartialNames, type HtmlRenderer } from './render/html';
import { loadThemes } from './render/themes';

export class StartupError extends Error {
  constructor(readonly problems: string[]) {
    super(`Start-up failed:\n  - ${problems.join('\n  - ')}`);
    this.name = 'StartupError';
  }
}

export interface Assets {
  schemas: SchemaRegistry;
  catalogues: Catalogues;
  html: HtmlRenderer;
  /** The API's messages with a count in them (locales/api/en.json). */
  messages: CountedMessages;
}

/** Runs loaders, each to the end: `attempt` returns what one loaded, or undefined with its problems (a loader's own
 * list, or its error's message) added to `problems`, for one StartupError that names them all. */
export function startupLoaders(): { problems: string[]; attempt: <T>(load: () => T) => T | undefined } {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (err) {
      const list = (err as { problems?: string[] }).problems;
      problems.push(...(list ?? [(err as Error).message]));
      return undefined;
    }
  };
  return { problems, attempt };
}

/** Loads every data file under `root`; throws one StartupError listing every problem of every loader. */
export function loadAssets(root: string, limits: Limits): Assets {
  const { problems, attempt } = startupLoaders();
  const codes = attempt(() => loadCodeLists(path.join(root, 'codes', 'en16931.json')));
  const templatesDir = path.join(root, 'templates');
  const themes = attempt(() => loadThemes(path.join(root, 'themes'), sharedPartialNames(templatesDir)));
  // The schema's `theme` is one of the themes loaded: a folder dropped in is offered. (Themes that failed to load
  // are listed from their folder, so that the schemas' own problems are reported too.)
  const offered = themes && {
    ids: themes.themes.map((t) => t.id),
    papers: new Map(themes.themes.flatMap((t) => (t.pageSize ? [[t.id, t.pageSize] as const] : []))),
  };
  const schemas = codes && attempt(() => loadSchemas(path.join(root, 'schemas'), limits, codes, offered ?? path.join(root, 'themes')));
  const catalogues = attempt(() => loadCatalogues(path.join(root, 'locales')));
  const messages = attempt(() => loadCountedMessages(path.join(root, 'locales', 'api')));
  const fonts = attempt(() => loadFonts(path.join(root, 'themes', 'fonts.json'), (name) => require.resolve(name, { paths: [root] })));
  // The templates are checked even when a theme is broken, so that every problem is listed at once.
  const html = fonts && attempt(() => loadHtmlRenderer({ templatesDir, themes: themes ?? { base: '', themes: [] }, fonts }));
  if (problems.length > 0 || !schemas || !catalogues || !messages || !html || !themes) throw new StartupError(problems);
  return { schemas, catalogues, html, messages };
}
