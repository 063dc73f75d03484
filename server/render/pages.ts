// The account pages (sign up, sign in, developer settings): Handlebars templates in templates/account/, compiled
// once at start-up, rendered on the server. Handlebars escapes every value.
import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';

export interface PageRenderer {
  render(name: string, data: Record<string, unknown>): string;
}

export function loadPages(dir: string): PageRenderer {
  const hbs = Handlebars.create();
  const layout = fs.readFileSync(path.join(dir, 'layout.hbs'), 'utf8');
  hbs.registerPartial('layout', layout);
  const pages = new Map<string, HandlebarsTemplateDelegate>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.hbs') && f !== 'layout.hbs')) {
    pages.set(file.slice(0, -4), hbs.compile(fs.readFileSync(path.join(dir, file), 'utf8'), { strict: false }));
  }
  return {
    render(name, data) {
      const page = pages.get(name);
      if (!page) throw new Error(`no account page ${name}`);
      return page(data);
    },
  };
}
