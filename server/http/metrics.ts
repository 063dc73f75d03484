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

type PoolStats = ReturnType<PdfRenderer['stats']>;

export function createMetrics(poolStats: () => PoolStats): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const middleware = requestMetrics(registry);
  const observeRender = renderMetrics(registry);
  poolMetrics(registry, poolStats);
  return { registry, middleware, observeRender };
}

/** Requests by route, status and document type, and their durations by route: counted when the answer is sent. */
function requestMetrics(registry: Registry): RequestHandler {
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
  return (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      const route = routeLabel(req);
      end({ route });
      requests.inc({ route, status: String(res.statusCode), type: String(res.locals.documentType ?? '') });
    });
    next();
  };
}

/** The render and queue-wait histograms; the returned function is Metrics.observeRender. */
function renderMetrics(registry: Registry): Metrics['observeRender'] {
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
  return (queueWaitMs, renderMs) => {
    queueWait.observe(queueWaitMs / 1000);
    renderSeconds.observe(renderMs / 1000);
  };
}

/**
 * The browser pool's figures, read at each scrape: a gauge shows the pool's figure as it is; a counter mirrors a count
 * the pool keeps (reset and set to it).
 */
const POOL_METRICS: readonly { kind: 'gauge' | 'counter'; name: string; help: string; pick: (s: PoolStats) => number }[] = [
  { kind: 'gauge', name: 'docgen_pool_active_renders', help: 'Renders in progress', pick: (s) => s.active },
  { kind: 'gauge', name: 'docgen_pool_queued_renders', help: 'Renders waiting for a page', pick: (s) => s.queued },
  { kind: 'gauge', name: 'docgen_pool_idle_pages', help: 'Idle browser pages', pick: (s) => s.idlePages },
  {
    kind: 'counter',
    name: 'docgen_pool_browser_restarts_total',
    help: 'Browser relaunches (crash, disconnect, recycling)',
    pick: (s) => s.browserRestarts,
  },
  {
    kind: 'counter',
    name: 'docgen_pool_renderers_killed_total',
    help: 'Renderer processes killed for going over RENDERER_MAX_RSS_MB',
    pick: (s) => s.renderersKilled,
  },
  {
    kind: 'counter',
    name: 'docgen_pool_pages_replaced_total',
    help: 'Pages replaced by fresh ones (after PAGE_MAX_RENDERS renders, or holding too many fonts)',
    pick: (s) => s.pagesReplaced,
  },
  {
    kind: 'counter',
    name: 'docgen_pool_frames_written_total',
    help: "Theme frames written into resident pages (a page's first document, or a change of theme)",
    pick: (s) => s.framesWritten,
  },
  { kind: 'gauge', name: 'docgen_pool_renders_total', help: 'Renders completed since start', pick: (s) => s.renders },
];

function poolMetrics(registry: Registry, poolStats: () => PoolStats): void {
  for (const { kind, name, help, pick } of POOL_METRICS) {
    if (kind === 'gauge')
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(pick(poolStats()));
        },
      });
    else
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(pick(poolStats()));
        },
      });
  }
}
