// HTML for a document: the Handlebars templates (templates/ + partials, a theme's own partials in their place) with a
// theme's CSS (render/themes.ts) and the inlined fonts, as a whole page and as the parts a resident print page swaps
// in (the theme's frame stays loaded; the title, the document's style, missing fonts and the body change). The only
// module that compiles the documents' templates (themes.ts only parses a theme's partials; the account pages compile
// their own small templates).
// Templates and themes are read and compiled once at start-up; a missing or broken file stops start-up with every
// problem listed. Must not compute or format values.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import type { PrintDocument } from '../pdf/renderer';
import type { FontSet, PageFonts } from './fonts/fonts';
import { blockLanguage } from './fonts/script-language';
import { needsOwnDirection } from './fonts/own-direction';
import { cssReaches, markupReaches, type Theme, type ThemeSet } from './themes';
import type { Cell, DocumentView } from './view/view-model';
import { PAGE_MARGIN_IN } from '../documents/paper';

export type ThemeInfo = Pick<Theme, 'id' | 'name' | 'description' | 'pageSize'>;

export class TemplateLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(`The templates or themes could not be loaded:\n  - ${problems.join('\n  - ')}`);
    this.name = 'TemplateLoadError';
  }
}

export interface RenderedHtml {
  /** The whole page (built when first asked for: the preview and the command line want it, printing does not). */
  readonly html: string;
  /** The parts a resident print page swaps in (its theme's frame stays loaded). */
  parts: PrintDocument;
  /** For the PDF's document information. */
  title: string;
  author: string;
}

/** How many studio drafts stay compiled at once. */
const MAX_DRAFTS = 8;

/** A theme being edited in the studio: its CSS and partials in place of the saved ones (the others as saved). */
export interface ThemeDraft {
  css?: string;
  partials?: Readonly<Record<string, string>>;
}

export interface HtmlRenderer {
  /** The theme ids (render/themes.ts), the default first. */
  themes: readonly string[];
  /** Each theme's manifest: its name, description and preferred paper. */
  themeInfo: readonly ThemeInfo[];
  /** The shipped families that draw Latin text: what a brand may lead the page's fonts with. */
  latinFamilies: readonly string[];
  /** `draft`: the studio's edits of `theme`, checked as a theme folder is (a TemplateLoadError names its problems). */
  render(view: DocumentView, theme: string, draft?: ThemeDraft): RenderedHtml;
  /** A saved theme's files: theme.css and its own partials, and the shared partials it may replace. */
  themeFiles(theme: string): { css: string; partials: Record<string, string>; shared: Record<string, string> } | undefined;
}

function readAll(dir: string, ext: string, problems: string[]): Map<string, string> {
  const out = new Map<string, string>();
  try {
    for (const f of fs.readdirSync(dir)) {
      if (f.endsWith(ext)) out.set(f.slice(0, -ext.length), fs.readFileSync(path.join(dir, f), 'utf8'));
    }
  } catch (err) {
    problems.push(`cannot read ${dir}: ${(err as Error).message}`);
  }
  return out;
}

/** Every distinct string value in the view, for choosing font subsets (a string's faces do not depend on how often
 * it occurs: a long document repeats its units, dates and labels on every line). */
function collectText(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    if (!value.startsWith('data:')) out.add(value);
  } else if (Array.isArray(value)) value.forEach((v) => collectText(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => collectText(v, out));
}

function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ')}"`;
}

/** `Page {{page}} of {{pages}}` → `"Page " counter(page) " of " counter(pages)`, for an @page margin box. */
export function pageCounterCss(pageOf: string): string {
  return pageOf
    .split(/(\{\{pages?\}\})/)
    .filter((part) => part !== '')
    .map((part) => (part === '{{page}}' ? 'counter(page)' : part === '{{pages}}' ? 'counter(pages)' : cssString(part)))
    .join(' ');
}

export function loadHtmlRenderer(opts: { templatesDir: string; themes: ThemeSet; fonts: FontSet }): HtmlRenderer {
  const problems: string[] = [];
  const sources = readTemplates(opts.templatesDir, problems);
  // The shared set (its problems reported once), and one per theme with partials of its own in their place.
  const shared = compileSet(sources, undefined, problems);
  const sets = new Map(opts.themes.themes.map((t) => [t.id, t.partials.size > 0 ? compileSet(sources, t, problems) : shared] as const));
  if (problems.length > 0) throw new TemplateLoadError(problems);
  const themeCss = new Map(opts.themes.themes.map((t) => [t.id, `${opts.themes.base}\n${t.css}`]));
  const frames = themeFrames(themeCss, (theme) => sets.get(theme)!.page!);
  const drafts = draftKeeper(opts.themes, sources, { sets, themeCss, frames });
  const whole = (parts: PrintDocument, theme: string): string =>
    sets.get(theme)!.page!({
      ...parts,
      themeCss: themeCss.get(theme),
      documentCss: parts.css,
      fontCss: parts.fonts.map((f) => f.css).join('\n'),
    });

  return {
    themes: opts.themes.themes.map((t) => t.id),
    themeInfo: opts.themes.themes.map(({ id, name, description, pageSize }) => ({ id, name, description, pageSize })),
    latinFamilies: opts.fonts.latinFamilies,
    themeFiles(theme) {
      const saved = opts.themes.themes.find((t) => t.id === theme);
      if (!saved) return undefined;
      return { css: saved.css, partials: Object.fromEntries(saved.partials), shared: Object.fromEntries(sources.partials) };
    },
    render(view, theme, draft) {
      const id = draft ? drafts.use(theme, draft) : theme;
      const parts = documentParts(view, sets.get(id) as Required<TemplateSet>, frames.get(id)!, opts.fonts);
      let html: string | undefined;
      return {
        get html() {
          return (html ??= whole(parts, id));
        },
        parts,
        title: view.title,
        author: view.author,
      };
    },
  };
}

/** What the renderer keeps per theme id: its templates, its CSS and its page frame. */
interface ThemeMaps {
  sets: Map<string, TemplateSet>;
  themeCss: Map<string, string>;
  frames: Map<string, PrintDocument['frame']>;
}

/** The studio's drafts, each compiled once into `maps` under an id of its own; the last MAX_DRAFTS are kept (a studio
 * session makes one per edit). */
function draftKeeper(themes: ThemeSet, sources: TemplateSources, maps: ThemeMaps): { use(theme: string, draft: ThemeDraft): string } {
  const kept: string[] = [];
  return {
    use(theme, draft) {
      const edited = draftTheme(themes, sources, theme, draft);
      if (!kept.includes(edited.id)) kept.push(edited.id);
      for (const old of kept.splice(0, Math.max(0, kept.length - MAX_DRAFTS))) {
        for (const m of [maps.sets, maps.themeCss, maps.frames]) m.delete(old);
      }
      maps.sets.set(edited.id, edited.set);
      maps.themeCss.set(edited.id, edited.css);
      maps.frames.set(edited.id, themeFrames(new Map([[edited.id, edited.css]]), () => edited.set.page!).get(edited.id)!);
      return edited.id;
    },
  };
}

/** One document's parts as a page takes them: its frame, its own style (font stack, page counter, margins, QR-bill
 * page, footer, brand), its font faces and its body. */
function documentParts(view: DocumentView, set: Required<TemplateSet>, frame: PrintDocument['frame'], fontSet: FontSet): PrintDocument {
  const fonts = fontsFor(view, fontSet);
  return {
    frame,
    lang: view.lang,
    title: view.title,
    author: view.author,
    css: set.style({
      fontStack: fonts.stack,
      pageOfCss: pageCounterCss(view.pageOf),
      margin: PAGE_MARGIN_IN,
      qrBill: view.qrBill !== undefined,
      footer: view.footer,
      brand: view.brand && brandCss(view.brand),
    }),
    fonts: fonts.faces,
    bodyClass: `doc doc--${view.type}`,
    body: set.body({ view }),
  };
}

/** The studio's draft of `theme` as a set of its own, named by its content (so pages keep a frame per version); its
 * problems (a partial that is not shared or does not compile, CSS or markup that reaches beyond the page) thrown at
 * once. */
function draftTheme(
  themes: ThemeSet,
  sources: TemplateSources,
  theme: string,
  draft: ThemeDraft,
): { id: string; set: TemplateSet; css: string } {
  const saved = themes.themes.find((t) => t.id === theme);
  const problems: string[] = [];
  if (!saved) throw new TemplateLoadError([`theme ${theme} does not exist`]);
  const css = draft.css ?? saved.css;
  for (const reach of cssReaches(css)) problems.push(`theme.css reaches beyond the page: ${reach}`);
  const partials = new Map(saved.partials);
  for (const [name, source] of Object.entries(draft.partials ?? {})) {
    if (!sources.partials.has(name)) problems.push(`partials/${name}.hbs replaces no shared partial`);
    for (const reach of markupReaches(source)) problems.push(`partials/${name}.hbs reaches beyond the page: ${reach}`);
    partials.set(name, source);
  }
  const id = `${theme}~${createHash('sha256')
    .update(JSON.stringify([css, [...partials]]))
    .digest('base64url')
    .slice(0, 12)}`;
  const set = problems.length > 0 ? {} : compileSet(sources, { id: theme, partials }, problems);
  if (problems.length > 0) throw new TemplateLoadError(problems);
  return { id, set, css: `${themes.base}\n${css}` };
}

/** The names of the shared partials (templates/partials/*.hbs), which a theme's partials may replace. */
export function sharedPartialNames(templatesDir: string): Set<string> {
  try {
    return new Set(
      fs
        .readdirSync(path.join(templatesDir, 'partials'))
        .filter((f) => f.endsWith('.hbs'))
        .map((f) => f.slice(0, -4)),
    );
  } catch {
    return new Set();
  }
}

/** The three top-level templates: the page (document.hbs), its body and the document's own style. */
interface TemplateSet {
  page?: HandlebarsTemplateDelegate;
  body?: HandlebarsTemplateDelegate;
  style?: HandlebarsTemplateDelegate;
}

/** The template files as read: the shared partials and the top-level templates. */
interface TemplateSources {
  partials: Map<string, string>;
  top: Map<string, string>;
}

/** Reads templates/ and its partials; a top-level template that uses a partial that is missing is a problem. */
function readTemplates(templatesDir: string, problems: string[]): TemplateSources {
  const partials = readAll(path.join(templatesDir, 'partials'), '.hbs', problems);
  const top = readAll(templatesDir, '.hbs', problems);
  for (const name of ['document', 'body', 'document-style'])
    for (const used of (top.get(name) ?? '').matchAll(/{{>\s*([\w-]+)/g)) {
      if (!partials.has(used[1]!))
        problems.push(`templates/${name}.hbs uses the partial ${used[1]} but partials/${used[1]}.hbs is missing`);
    }
  return { partials, top };
}

/** The helpers every template set has. */
function registerHelpers(hbs: typeof Handlebars): void {
  // `{{langOf text}}` after a block's other attributes: ` lang="…"` when the text is in another script than the
  // document's language (fonts/script-language.ts), so that the tagged PDF marks the block's language.
  hbs.registerHelper('langOf', (text: unknown, options: Handlebars.HelperOptions) => {
    const lang = blockLanguage(String(text ?? ''), String((options.data as { root: { view: DocumentView } }).root.view.lang));
    return lang ? new hbs.SafeString(` lang="${lang}"`) : '';
  });
  // `{{dirOf text}}`: ` dir="auto"` on a block whose text needs its own direction or clip (fonts/own-direction.ts), and
  // `(ownCell cell)`: an item's cell whose text can be the cell's own content, with no block inside it.
  hbs.registerHelper('dirOf', (text: unknown) => (needsOwnDirection(String(text ?? '')) ? new hbs.SafeString(' dir="auto"') : ''));
  // `(paragraphs text)`: the text's lines, each a paragraph of its own (notes and terms: kept whole when short).
  hbs.registerHelper('paragraphs', (text: unknown) => String(text ?? '').split('\n'));
  hbs.registerHelper('ownCell', (cell: Cell) => !cell.details?.length && !cell.adjustment && !needsOwnDirection(cell.text));
}

/** The templates compiled in a Handlebars of their own: the shared partials (a theme's own in their place) and the
 * top-level templates; problems listed: the shared set's when no theme is given, a theme's own partials' always. */
function compileSet(sources: TemplateSources, theme: Pick<Theme, 'id' | 'partials'> | undefined, problems: string[]): TemplateSet {
  const hbs = Handlebars.create();
  registerHelpers(hbs);
  for (const [name, shared] of sources.partials) {
    const own = theme?.partials.get(name);
    try {
      hbs.precompile(own ?? shared);
      hbs.registerPartial(name, own ?? shared);
    } catch (err) {
      if (own !== undefined) problems.push(`themes/${theme!.id}/partials/${name}.hbs: ${(err as Error).message}`);
      else if (!theme) problems.push(`partials/${name}.hbs: ${(err as Error).message}`);
    }
  }
  const [page, body, style] = ['document', 'body', 'document-style'].map((name) =>
    compile(hbs, `templates/${name}.hbs`, sources.top.get(name), theme ? [] : problems),
  );
  return { page, body, style };
}

function compile(
  hbs: typeof Handlebars,
  name: string,
  source: string | undefined,
  problems: string[],
): HandlebarsTemplateDelegate | undefined {
  if (source === undefined) {
    problems.push(`${name} is missing`);
    return undefined;
  }
  try {
    // precompile parses now: Handlebars' compile() would only report a syntax error at the first render.
    hbs.precompile(source);
    return hbs.compile(source, { preventIndent: true });
  } catch (err) {
    problems.push(`${name}: ${(err as Error).message}`);
    return undefined;
  }
}

/** Each theme's frame: the whole page with no document in it, made once. Its key names its content, not only its
 * theme: pages keep a frame across a reload of the data files (development) or another set of them (tests). */
function themeFrames(
  themeCss: ReadonlyMap<string, string>,
  pageOf: (theme: string) => HandlebarsTemplateDelegate,
): Map<string, PrintDocument['frame']> {
  return new Map(
    [...themeCss].map(([theme, css]) => {
      const html = pageOf(theme)({ lang: '', title: '', author: '', themeCss: css, documentCss: '', fontCss: '', bodyClass: '', body: '' });
      return [theme, { key: `${theme}:${createHash('sha256').update(html).digest('base64url').slice(0, 16)}`, html }];
    }),
  );
}

/** The font faces and stack for every text of the view; the QR-bill's texts also in its own family. */
function fontsFor(view: DocumentView, fonts: FontSet): PageFonts {
  const texts = new Set<string>();
  collectText(view, texts);
  let only: { use: string; text: string } | undefined;
  if (view.qrBill) {
    const billTexts = new Set<string>();
    collectText(view.qrBill, billTexts);
    only = { use: 'qr-bill', text: [...billTexts].join('') };
  }
  return fonts.forText([...texts].join(''), only, view.brand?.font);
}

/** A brand's tokens, set after the theme's: the accent on the bar, the summary and the title, and the text colour
 * (#rrggbb, documents/brand.ts checked them). Its font leads the page's font stack (fontsFor). */
function brandCss(brand: NonNullable<DocumentView['brand']>): string {
  const tokens: string[] = [];
  const colour = (c: string | undefined) => (c && /^#[0-9a-f]{6}$/i.test(c) ? c : undefined);
  const accent = colour(brand.accent);
  if (accent)
    tokens.push(
      `--color-bar-bg: ${accent}`,
      '--color-bar-text: #ffffff',
      `--color-summary-bg: ${accent}`,
      '--color-summary-text: #ffffff',
      `--color-title: ${accent}`,
      `--color-band-bg: ${accent}`,
    );
  const text = colour(brand.text);
  if (text) tokens.push(`--color-text: ${text}`);
  return tokens.length > 0 ? `:root { ${tokens.join('; ')}; }` : '';
}
