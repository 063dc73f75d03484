// The account pages (sign up, sign in, developer settings, revoke, error): Handlebars templates in
// templates/account/, read and compiled once at start-up (http-assets.ts), rendered on the server. Handlebars escapes
// every value. A missing or broken template stops start-up with every problem listed; must not decide what a page
// shows (the routes in account.ts pass its data).
import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { StartupError } from '../../assets';

export interface PageRenderer {
  render(name: string, data: Record<string, unknown>): string;
}

/** The pages the account routes render; each is templates/account/<name>.hbs inside layout.hbs. */
export const ACCOUNT_PAGES = ['sign-up', 'sign-in', 'settings', 'revoke', 'error'] as const;

/** Reads and compiles every page of `dir`; throws one StartupError naming every missing or unparsable template. */
export function loadPages(dir: string): PageRenderer {
  const problems: string[] = [];
  const hbs = Handlebars.create();
  const read = (file: string): string | undefined => {
    const source = readTemplate(path.join(dir, file), problems);
    try {
      // precompile parses now: Handlebars' compile() would only report a syntax error at the first render.
      if (source !== undefined) hbs.precompile(source);
      return source;
    } catch (err) {
      problems.push(`templates/account/${file}: ${(err as Error).message}`);
      return undefined;
    }
  };
  const layout = read('layout.hbs');
  if (layout !== undefined) hbs.registerPartial('layout', layout);
  const pages = new Map<string, HandlebarsTemplateDelegate>();
  for (const file of templateFiles(dir, problems)) {
    const source = read(file);
    if (source !== undefined) pages.set(file.slice(0, -4), hbs.compile(source, { strict: false }));
  }
  for (const name of ACCOUNT_PAGES)
    if (!pages.has(name) && !problems.some((p) => p.includes(`/${name}.hbs`))) problems.push(`templates/account/${name}.hbs is missing`);
  if (problems.length > 0) throw new StartupError(problems);
  return {
    render(name, data) {
      const page = pages.get(name);
      if (!page) throw new Error(`no account page ${name}`);
      return page(data);
    },
  };
}

/** The page templates of `dir` (every .hbs but the layout); none when the folder cannot be read (a problem). */
function templateFiles(dir: string, problems: string[]): string[] {
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith('.hbs') && f !== 'layout.hbs');
  } catch (err) {
    problems.push(`cannot read templates/account: ${(err as Error).message}`);
    return [];
  }
}

function readTemplate(file: string, problems: string[]): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    problems.push(`templates/account/${path.basename(file)} is missing`);
    return undefined;
  }
}
