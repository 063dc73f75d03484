// The theme studio (development): /studio previews any example type in any theme, locale and page size, as the
// HTML the printer receives and as the PDF, refreshed whenever a template, theme, locale or schema file is saved
// (server-sent events from live reload). /studio/gallery shows every type × theme. No API key: it is off in
// production unless STUDIO=true, and it renders only what the browser posts to it. The examples it offers are read
// once at start-up (http-assets.ts).
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import helmet from 'helmet';
import { projectRoot } from '../config';
import { DOCUMENT_TYPES } from '../documents/model';
import type { LiveReload } from '../dev/live-reload';
import type { DocumentPipeline } from '../pipeline';
import type { Node } from './openapi/schemas';
import { languagePreferences } from './accept-language';
import { otherMethods } from './other-methods';

const STUDIO_DIR = path.join(projectRoot(), 'studio');

/**
 * The paper the printer uses for each page size, in inches, and its margins when a document's CSS has no @page margin
 * (the themes set theirs in themes/base.css, which the studio reads from the HTML it previews). Copies of PAPER and
 * DEFAULT_MARGIN in server/pdf/browser-pool.ts: the HTML preview lays out at this width, so that lines break as in the PDF.
 */
const PAPER = { letter: { width: 8.5, height: 11 }, a4: { width: 8.27, height: 11.7 } } as const;
const PRINTER_MARGIN = { top: '0.55in', right: '0.6in', bottom: '0.75in', left: '0.6in' } as const;

interface PreviewRequest {
  type?: string;
  theme?: string;
  lang?: unknown;
  page_size?: string;
  doc?: unknown;
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
    return pipeline.prepare(doc, pipeline.locale(languagePreferences(typeof body.lang === 'string' ? body.lang : undefined)));
  };

  const shown = Object.fromEntries(
    DOCUMENT_TYPES.map((type) => [type, examples.get(type) ?? { type, from: 'A', to: 'B', items: [{ name: 'Item' }] }]),
  );
  router.get('/api/meta', (_req, res) => {
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
  });
  router.post('/api/html', async (req, res) => {
    const html = await pipeline.renderHtml(await prepare(req));
    res.type('html').send(html.html);
  });
  router.post('/api/pdf', async (req, res) => {
    const { pdf } = await pipeline.renderPdf(await prepare(req));
    res.type('application/pdf').send(Buffer.from(pdf));
  });
  router.get('/api/events', (req, res) => reloadEvents(req, res, streams, reload));
  router.all(['/api/meta', '/api/events'], otherMethods(['GET', 'HEAD']));
  router.all(['/api/html', '/api/pdf'], otherMethods(['POST']));
  router.use(express.static(STUDIO_DIR, { index: 'index.html', extensions: ['html'] }));
  return {
    router,
    close() {
      for (const res of streams) res.end();
    },
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
