// The operations' routes, open without a key: GET /healthz (liveness), GET /readyz (readiness: the browser, the key
// store and the XSD worker answer, with the renderer's figures) and GET /metrics (Prometheus, metrics.ts). Must not
// render or count anything.
import express from 'express';
import type { SigningStatus } from '../pdf-signing';
import type { KeyStore } from '../keys/key-store';
import type { PoolStats } from '../pdf/renderer';
import type { Metrics } from './metrics';
import { otherMethods } from './other-methods';

export interface OperationsDeps {
  keys: KeyStore;
  /** Commits and releases of usage waiting for the key store to come back (quota.ts). */
  quota: { unsettled(): number };
  metrics: Metrics;
  isReady: () => boolean;
  /** Whether received e-invoices are read (the official rule sets are installed). */
  rules: boolean;
  xsdReady?: () => Promise<boolean>;
  poolStats: () => PoolStats | Promise<PoolStats>;
  signing?: () => SigningStatus;
}

export function operationRoutes(deps: OperationsDeps): express.Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const { ready, body } = await readiness(deps);
    if (!ready) res.set('Retry-After', '5');
    res.status(ready ? 200 : 503).json(body);
  });
  router.get('/metrics', async (_req, res) => {
    res.set('Content-Type', deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  router.all(['/healthz', '/readyz', '/metrics'], otherMethods(['GET', 'HEAD']));
  return router;
}

/**
 * Ready when the browser answers, the key store answers (and is still the file opened) and the XSD worker
 * validates; the schemas are loaded, or the service would not have started.
 */
async function readiness(deps: OperationsDeps): Promise<{ ready: boolean; body: Record<string, unknown> }> {
  const [pool, keyStore, xsd] = await Promise.all([
    deps.poolStats(),
    deps.keys.check().catch(() => false),
    deps.xsdReady?.() ?? Promise.resolve(true),
  ]);
  const browser = deps.isReady();
  const ready = browser && keyStore && xsd;
  const body = {
    status: ready ? 'ready' : 'not ready',
    browser: browser ? 'connected' : 'disconnected',
    keyStore: keyStore ? 'ok' : 'unavailable',
    // Documents answered whose count (or a refused one's release) waits for the key store; 0 once it is back.
    unsettledUsage: deps.quota.unsettled(),
    xsd: xsd ? 'ok' : 'unavailable',
    // Received e-invoices: the official rule sets (an instance without them is ready for everything else).
    rules: deps.rules ? 'ok' : 'not installed',
    queueDepth: pool.queued,
    activeRenders: pool.active,
    idlePages: pool.idlePages,
    rendersCompleted: pool.renders,
    browserRestarts: pool.browserRestarts,
    pagesReplaced: pool.pagesReplaced,
    // PAdES signing: its level, the signer, the certificate's end, and a warning when it has expired or soon will.
    signing: deps.signing?.() ?? 'off',
  };
  return { ready, body };
}
