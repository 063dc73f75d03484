// Prometheus metrics (prom-client), served at GET /metrics: requests by route, status and document type, render and
// queue-wait histograms, and the browser pool's gauges and restarts. One registry per app (tests start several).
import type { Request, RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PdfRenderer } from '../pdf/renderer';

export interface Metrics {
  registry: Registry;
  middleware: RequestHandler;
  /** Called by the browser pool after each render. */
  observeRender(queueWaitMs: number, renderMs: number): void;
}

/**
 * The label of a request's route: the template it matched (`/account/keys/:id/revoke`), never the path it was sent to,
 * so that the label set stays as small as the route table whatever clients send (20,000 random key ids once made
 * 20,000 series). Paths that matched no route share `other`.
 */
export function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (!route || typeof route.path !== 'string') return 'other';
  return `${req.baseUrl}${route.path}` || '/';
}

export function createMetrics(poolStats: () => ReturnType<PdfRenderer['stats']>): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'docgen_http_requests_total',
    help: 'HTTP requests by route, status and document type',
    labelNames: ['route', 'status', 'type'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'docgen_http_request_duration_seconds',
    help: 'Time from request to response, by route',
    labelNames: ['route'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const renderSeconds = new Histogram({
    name: 'docgen_render_duration_seconds',
    help: 'Time Chromium took to print one document (HTML to PDF bytes)',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const queueWait = new Histogram({
    name: 'docgen_render_queue_wait_seconds',
    help: 'Time a render waited for a free page',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const stat = (name: string, help: string, pick: (s: ReturnType<PdfRenderer['stats']>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pick(poolStats()));
      },
    });
  stat('docgen_pool_active_renders', 'Renders in progress', (s) => s.active);
  stat('docgen_pool_queued_renders', 'Renders waiting for a page', (s) => s.queued);
  stat('docgen_pool_idle_pages', 'Idle browser pages', (s) => s.idlePages);
  // The pool keeps these counts; the metrics mirror them at each scrape.
  const mirrored = (name: string, help: string, pick: (s: ReturnType<PdfRenderer['stats']>) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(pick(poolStats()));
      },
    });
  mirrored('docgen_pool_browser_restarts_total', 'Browser relaunches (crash, disconnect, recycling)', (s) => s.browserRestarts);
  mirrored('docgen_pool_renderers_killed_total', 'Renderer processes killed for going over RENDERER_MAX_RSS_MB', (s) => s.renderersKilled);
  mirrored(
    'docgen_pool_pages_replaced_total',
    'Pages replaced by fresh ones (after PAGE_MAX_RENDERS renders, or holding too many fonts)',
    (s) => s.pagesReplaced,
  );
  mirrored(
    'docgen_pool_frames_written_total',
    "Theme frames written into resident pages (a page's first document, or a change of theme)",
    (s) => s.framesWritten,
  );
  stat('docgen_pool_renders_total', 'Renders completed since start', (s) => s.renders);

  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      const route = routeLabel(req);
      end({ route });
      requests.inc({ route, status: String(res.statusCode), type: String(res.locals.documentType ?? '') });
    });
    next();
  };
  return {
    registry,
    middleware,
    observeRender(queueWaitMs, renderMs) {
      queueWait.observe(queueWaitMs / 1000);
      renderSeconds.observe(renderMs / 1000);
    },
  };
}
