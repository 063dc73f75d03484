// The data files of the HTTP edge, read once at start-up (service.ts calls loadHttpAssets once): the account pages'
// templates (account/pages.ts), the request examples in examples/ (the OpenAPI description's and the studio's; the
// received e-invoices of examples/received/ the description's POST /validate), and
// the package's version (the description's info.version). A missing or broken file stops start-up with every problem
// listed at once, as server/assets.ts does for the core's files (the same StartupError). Must not read a file after
// start-up, nor load the core's data files (assets.ts owns those, and live reload reloads only them).
import fs from 'node:fs';
import path from 'node:path';
import { startupLoaders, StartupError } from '../assets';
import { projectRoot } from '../config';
import { loadPages, type PageRenderer } from './account/pages';
import type { Node } from './openapi/schemas';

export interface HttpAssets {
  /** The account pages, compiled. */
  pages: PageRenderer;
  /** examples/<type>.json by type: the documents the description and the studio show. */
  examples: Map<string, Node>;
  /** examples/received/*.xml by file name: the received e-invoices the description shows POST /validate. */
  receivedExamples: Map<string, string>;
  /** package.json's version. */
  version: string;
}

/**
 * Loads the edge's data files under `root` (package.json from the code's own folder: a data root copied for tests
 * has none); throws one StartupError listing every problem.
 */
export function loadHttpAssets(root: string, codeRoot = projectRoot()): HttpAssets {
  const { problems, attempt } = startupLoaders();
  const pages = attempt(() => loadPages(path.join(root, 'templates', 'account')));
  const examples = attempt(() => loadDocumentExamples(path.join(root, 'examples')));
  const receivedExamples = attempt(() => loadReceivedExamples(path.join(root, 'examples', 'received')));
  const version = attempt(() => packageVersion(path.join(codeRoot, 'package.json')));
  if (problems.length > 0 || !pages || !examples || !receivedExamples || version === undefined) throw new StartupError(problems);
  return { pages, examples, receivedExamples, version };
}

/** Every file of `dir` ending in `ext`, read by `read` under its name; none when the folder is absent. Throws naming
 * every file `read` refuses (`label`: the folder as problems name it). */
function readExampleFiles<T>(dir: string, ext: string, label: string, read: (text: string) => T): Map<string, T> {
  const out = new Map<string, T>();
  if (!fs.existsSync(dir)) return out;
  const problems: string[] = [];
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()) {
    try {
      out.set(file, read(fs.readFileSync(path.join(dir, file), 'utf8')));
    } catch (err) {
      problems.push(`${label}/${file}: ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) throw new StartupError(problems);
  return out;
}

/** Every examples/*.json by its name (without .json); none when the folder is absent. Throws naming every file that is
 * not JSON. */
export function loadDocumentExamples(dir: string): Map<string, Node> {
  const files = readExampleFiles(dir, '.json', 'examples', (text) => JSON.parse(text) as Node);
  return new Map([...files].map(([file, doc]) => [path.basename(file, '.json'), doc]));
}

/** Every examples/received/*.xml by its file name; none when the folder is absent. Throws naming a file that is not
 * XML text (its first characters are not an XML declaration). */
export function loadReceivedExamples(dir: string): Map<string, string> {
  return readExampleFiles(dir, '.xml', 'examples/received', (text) => {
    if (!text.startsWith('<?xml ')) throw new Error('not XML (it must start with an XML declaration)');
    return text;
  });
}

function packageVersion(file: string): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch (err) {
    throw new Error(`package.json: ${(err as Error).message}`, { cause: err });
  }
}
