// The data files, loaded once: code lists, schemas, label catalogues, the API's counted messages, fonts, templates
// and themes, each named by its wire id.
// A broken file stops start-up with every problem of every loader listed at once (StartupError).
import fs from 'node:fs';
import path from 'node:path';
import type { Limits } from './config';
import { loadCountedMessages, type CountedMessages } from './messages';
import { loadCodeLists } from './documents/code-lists';
import { loadSchemas, type SchemaRegistry } from './documents/schema-registry';
import { loadCatalogues, type Catalogues } from './render/catalogues';
import { loadFonts } from './render/fonts';
import { loadHtmlRenderer, type HtmlRenderer } from './render/html';

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
  const schemas = codes && attempt(() => loadSchemas(path.join(root, 'schemas'), limits, codes));
  const catalogues = attempt(() => loadCatalogues(path.join(root, 'locales')));
  const messages = attempt(() => loadCountedMessages(path.join(root, 'locales', 'api')));
  const fonts = attempt(() => loadFonts(path.join(root, 'themes', 'fonts.json'), (name) => require.resolve(name, { paths: [root] })));
  const themes = themeIds(path.join(root, 'schemas', 'common.json'));
  const html =
    fonts &&
    attempt(() => loadHtmlRenderer({ templatesDir: path.join(root, 'templates'), themesDir: path.join(root, 'themes'), themes, fonts }));
  if (problems.length > 0 || !schemas || !catalogues || !messages || !html) throw new StartupError(problems);
  return { schemas, catalogues, html, messages };
}

/** The theme ids the schema offers (each needs a themes/<id>.css), read even when other schema files are broken. */
function themeIds(commonSchemaFile: string): string[] {
  try {
    const common = JSON.parse(fs.readFileSync(commonSchemaFile, 'utf8')) as {
      definitions?: { document?: { properties?: { theme?: { enum?: string[] } } } };
    };
    return common.definitions?.document?.properties?.theme?.enum ?? ['classic'];
  } catch {
    return ['classic'];
  }
}
