// The theme studio (development): /studio previews any example type in any theme, locale and page size, as the
// HTML the printer receives and as the PDF, refreshed whenever a template, theme, locale or schema file is saved
// (server-sent events from live reload). /studio/gallery shows every type × theme. No API key: it is off in
// production unless STUDIO=true, and it renders only what the browser posts to it. The examples it offers are read
// once at start-up (http-assets.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ZipFile } from 'yazl';
import express, { type Request, type Response, type Router } from 'express';
import helmet from 'helmet';
import { projectRoot } from '../config';
import { DOCUMENT_TYPES } from '../documents/model';
import type { LiveReload } from '../dev/live-reload';
import type { DocumentPipeline, PreparedDocument } from '../pipeline';
import type { ParsedBody } from '../documents/parse-body';
import { TemplateLoadError, type ThemeDraft } from '../render/html';
import { THEME_ID } from '../documents/theme-ids';
import type { Node } from './openapi/schemas';
import { languagePreferences } from './accept-language';
import { otherMethods } from './other-methods';
import { PAGE_MARGIN_IN, PAPER } from '../documents/paper';

const STUDIO_DIR = path.join(projectRoot(), 'studio');

/** The printer's margins as CSS lengths (documents/paper.ts), for a document whose CSS has none: the HTML preview lays
 * out at the paper's width less these, so that lines break as in the PDF. */
const PRINTER_MARGIN = Object.fromEntries(Object.entries(PAGE_MARGIN_IN).map(([side, inches]) => [side, `${inches}in`]));

interface PreviewRequest {
  type?: string;
  theme?: string;
  lang?: unknown;
  page_size?: string;
  doc?: unknown;
  /** The theme's unsaved edits: its CSS, and partials by name. */
  draft?: unknown;
  /** An account's brand to preview (as PUT /brand takes it). */
  brand?: unknown;
}

const run = promisify(execFile);

/** A draft as sent: text CSS and text partials only. */
function draftOf(sent: unknown): ThemeDraft | undefined {
  if (!isObject(sent)) return undefined;
  const partials = isObject(sent.partials)
    ? Object.fromEntries(Object.entries(sent.partials).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;
  return { css: typeof sent.css === 'string' ? sent.css : undefined, partials };
}

/** The pages of `pdf` as PNG data: URIs (pdftoppm, from poppler-utils, at `dpi`; a process of its own, waited for
 * without holding the event loop). */
async function pageImages(pdf: Uint8Array, dpi: number): Promise<string[]> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'studio-pages-'));
  try {
    await fs.promises.writeFile(path.join(dir, 'doc.pdf'), pdf);
    await run('pdftoppm', ['-png', '-r', String(dpi), path.join(dir, 'doc.pdf'), path.join(dir, 'page')], { timeout: 30_000 });
    const files = (await fs.promises.readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    return Promise.all(
      files.map(async (f) => `data:image/png;base64,${(await fs.promises.readFile(path.join(dir, f))).toString('base64')}`),
    );
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** A theme folder as a ZIP: theme.json, theme.css and its own partials (those that differ from the shared ones). */
async function themeZip(id: string, manifest: Record<string, unknown>, css: string, partials: Record<string, string>): Promise<Buffer> {
  const zip = new ZipFile();
  const chunks: Buffer[] = [];
  zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
  const done = once(zip.outputStream, 'end');
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), `${id}/theme.json`);
  zip.addBuffer(Buffer.from(css), `${id}/theme.css`);
  for (const [name, source] of Object.entries(partials)) zip.addBuffer(Buffer.from(source), `${id}/partials/${name}.hbs`);
  zip.end();
  await done;
  return Buffer.concat(chunks);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface Studio {
  router: Router;
  /** Ends the open event streams, so that the server can close. */
  close(): void;
}

/** The studio's pages: scripts and styles from here, the preview's PDF and images as blob: and data: URLs. */
const STUDIO_CSP = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    frameSrc: ["'self'", 'blob:'],
    objectSrc: ["'self'", 'blob:'],
  },
};

/** `examples`: examples/<type>.json by type, read at start-up (http-assets.ts); a type without one gets a stub. */
export function createStudio(pipeline: DocumentPipeline, examples: Map<string, Node>, reload?: LiveReload): Studio {
  const router = express.Router();
  const streams = new Set<Response>();
  router.use(helmet({ contentSecurityPolicy: STUDIO_CSP }));
  router.use(express.raw({ type: 'application/json', limit: '2mb' }));
  const drafted = draftedMaker(pipeline);
  router.get('/api/meta', metaHandler(pipeline, examples, reload));
  router.post('/api/html', async (req, res) => {
    const html = await drafted(req, res, (p) => pipeline.renderHtml(p));
    if (html) res.type('html').send(html.html);
  });
  router.post('/api/pdf', async (req, res) => {
    const made = await drafted(req, res, (p) => pipeline.renderPdf(p));
    if (made) res.type('application/pdf').send(Buffer.from(made.pdf));
  });
  // The PDF's pages as images, so that the preview works in any browser (headless ones show no PDF).
  router.post('/api/pages', async (req, res) => {
    const made = await drafted(req, res, (p) => pipeline.renderPdf(p));
    if (made) res.json({ pages: await pageImages(made.pdf, 60) });
  });
  // A theme's files to edit: theme.css, its own partials, and the shared partials it may replace.
  router.get('/api/theme/:id', (req, res) => {
    const id = String(req.params.id);
    const files = pipeline.assets.html.themeFiles(id);
    const info = pipeline.assets.html.themeInfo.find((t) => t.id === id);
    if (!files || !info) return res.status(404).json({ error: `no theme ${id}` });
    res.json({ ...info, ...files });
  });
  router.post('/api/export', exportHandler(pipeline));
  router.get('/api/events', (req, res) => reloadEvents(req, res, streams, reload));
  router.all(['/api/meta', '/api/events'], otherMethods(['GET', 'HEAD']));
  router.all(['/api/html', '/api/pdf', '/api/pages', '/api/export'], otherMethods(['POST']));
  router.all('/api/theme/:id', otherMethods(['GET', 'HEAD']));
  router.use(express.static(STUDIO_DIR, { index: 'index.html', extensions: ['html'] }));
  return {
    router,
    close() {
      for (const res of streams) res.end();
    },
  };
}

type Drafted = <T>(req: Request, res: Response, make: (prepared: PreparedDocument) => Promise<T>) => Promise<T | undefined>;

/** Makes something of a preview request: its document prepared under its brand and language, with its theme draft; a
 * draft that cannot be compiled is a 400 listing its problems (and nothing is made). */
function draftedMaker(pipeline: DocumentPipeline): Drafted {
  // Read as the API reads a body (its depth bound and its errors: express.json overflowed the stack on 100,000 nested
  // lists), and only the shapes a preview takes: anything else is left for the schema to name.
  const prepare = async (req: Request) => {
    const parsed: unknown = Buffer.isBuffer(req.body) && req.body.length > 0 ? await pipeline.parse('json', req.body) : {};
    const body = (isObject(parsed) ? parsed : {}) as PreviewRequest;
    const doc = {
      ...(isObject(body.doc) ? body.doc : {}),
      ...(body.type ? { type: body.type } : {}),
      ...(body.theme ? { theme: body.theme } : {}),
      ...(body.page_size ? { page_size: body.page_size } : {}),
    };
    // A brand is checked as PUT /brand checks it (its logo fetched), and lies under the request as an account's does.
    const brand = isObject(body.brand) && Object.keys(body.brand).length > 0 ? await pipeline.brand(body.brand as ParsedBody) : undefined;
    const lang = typeof body.lang === 'string' ? body.lang : undefined;
    const prepared = pipeline.prepare(doc, pipeline.locale(languagePreferences(lang ?? brand?.language)), false, brand);
    return { ...prepared, draft: draftOf(body.draft) };
  };
  return async (req, res, make) => {
    try {
      return await make(await prepare(req));
    } catch (err) {
      if (!(err instanceof TemplateLoadError)) throw err;
      res.status(400).json({ error: 'The theme draft cannot be used', problems: err.problems });
      return undefined;
    }
  };
}

/** GET /api/meta: the types, themes, languages, papers and examples the studio offers, and live reload's state. */
function metaHandler(pipeline: DocumentPipeline, examples: Map<string, Node>, reload?: LiveReload) {
  const shown = Object.fromEntries(
    DOCUMENT_TYPES.map((type) => [type, examples.get(type) ?? { type, from: 'A', to: 'B', items: [{ name: 'Item' }] }]),
  );
  return (_req: Request, res: Response) => {
    res.json({
      types: DOCUMENT_TYPES,
      themes: pipeline.assets.html.themes,
      // Each theme's name, description and preferred paper (its theme.json).
      themeInfo: pipeline.assets.html.themeInfo,
      // One per catalogue in locales/, as the tag the service formats with (`fr` → `fr-FR`).
      languages: pipeline.assets.catalogues.languages.map((language) => pipeline.locale([language]).tag),
      pageSizes: Object.keys(PAPER),
      paper: PAPER,
      printerMargin: PRINTER_MARGIN,
      examples: shown,
      version: reload?.version() ?? 0,
      liveReload: Boolean(reload),
    });
  };
}

/** POST /api/export: the edited theme as a folder to drop into themes/ (a ZIP): theme.json, theme.css and the
 * partials it replaces. */
function exportHandler(pipeline: DocumentPipeline) {
  return async (req: Request, res: Response) => {
    const parsed: unknown = Buffer.isBuffer(req.body) && req.body.length > 0 ? await pipeline.parse('json', req.body) : {};
    const body = isObject(parsed) ? parsed : {};
    const id = typeof body.id === 'string' ? body.id : '';
    const base = pipeline.assets.html.themeFiles(typeof body.from === 'string' ? body.from : '');
    if (!THEME_ID.test(id) || !base)
      return res
        .status(400)
        .json({ error: 'send {id, from, name?, description?, page_size?, draft?}: id a new theme id, from an existing theme' });
    const draft = draftOf(body.draft) ?? {};
    // Only partials that replace a shared one, by its name (no other name becomes a path in the ZIP).
    const partials = Object.fromEntries(
      Object.entries({ ...base.partials, ...draft.partials }).filter(
        ([name, source]) => Object.hasOwn(base.shared, name) && base.shared[name] !== source,
      ),
    );
    const manifest = {
      name: typeof body.name === 'string' && body.name.trim() ? body.name.trim() : id,
      description:
        typeof body.description === 'string' && body.description.trim()
          ? body.description.trim()
          : `Made in the studio from ${String(body.from)}.`,
      ...(body.page_size === 'a4' || body.page_size === 'letter' ? { page_size: body.page_size } : {}),
    };
    const zip = await themeZip(id, manifest, draft.css ?? base.css, partials);
    res.type('application/zip').attachment(`${id}.zip`).send(zip);
  };
}

/** Server-sent events: hello with the assets' version, then one per reload, and a ping every 15 s; `streams` holds it. */
function reloadEvents(req: Request, res: Response, streams: Set<Response>, reload?: LiveReload): void {
  res.set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
  res.write(`event: hello\ndata: ${JSON.stringify({ version: reload?.version() ?? 0 })}\n\n`);
  const unsubscribe = reload?.subscribe((event) => res.write(`event: reload\ndata: ${JSON.stringify(event)}\n\n`));
  const ping = setInterval(() => res.write(': ping\n\n'), 15000);
  streams.add(res);
  req.on('close', () => {
    clearInterval(ping);
    unsubscribe?.();
    streams.delete(res);
  });
}
