// The API description and its reference page: GET /openapi.json (built and serialized once at start-up; each answer
// puts the request's own origin in as the server URL) and GET /docs, a Redoc page rendered in the browser from /openapi.json. Redoc's standalone
// bundle is served from node_modules under /docs/assets: no CDN, nothing fetched from elsewhere. Only these routes
// get the looser Content-Security-Policy Redoc needs (inline styles, a blob: worker); the API keeps helmet's strict one.
import path from 'node:path';
import express, { type Request } from 'express';
import helmet from 'helmet';
import type { SchemaRegistry } from '../documents/schema-registry';
import { buildOpenApi, DEFAULT_ORIGIN, type OpenApiFiles, type OpenApiOptions } from './openapi';
import { otherMethods } from './other-methods';

const REDOC_BUNDLES = path.dirname(require.resolve('redoc/bundles/redoc.standalone.js'));

/** A host header as a browser or a proxy sends it (name or address, optional port); anything else is not echoed. */
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function originOf(req: Request): string {
  const host = req.get('host');
  return host && HOST.test(host) ? `${req.protocol}://${host}` : DEFAULT_ORIGIN;
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Document generation service: API reference</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="/openapi.json" hide-download-button="false" expand-responses="200" path-in-middle-panel="true"></redoc>
<script src="/docs/assets/redoc.standalone.js"></script>
</body>
</html>
`;

export function apiReference(registry: SchemaRegistry, files: OpenApiFiles, options: OpenApiOptions = {}): express.Router {
  // The origin goes where this marker stands; originOf() only gives letters, digits and `.-:[]/`, nothing JSON escapes.
  const marker = 'http://origin.invalid';
  const [before, after] = JSON.stringify(buildOpenApi(registry, files, { ...options, origin: marker })).split(`"${marker}"`);
  if (after === undefined) throw new Error('the OpenAPI description has no server URL to fill in');
  const router = express.Router();
  router.get('/openapi.json', (req, res) => {
    res.type('json').send(`${before}${JSON.stringify(originOf(req))}${after}`);
  });
  // Redoc styles itself with inline <style> elements (styled-components), runs its search index in a blob: worker
  // and shows data: images; scripts come from this origin only, and nothing may frame the page.
  const csp = helmet.contentSecurityPolicy({
    useDefaults: true,
    directives: {
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'worker-src': ["'self'", 'blob:'],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
  });
  router.get('/docs', csp, (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(PAGE);
  });
  router.use('/docs/assets', csp, express.static(REDOC_BUNDLES, { index: false, fallthrough: true, maxAge: '1d' }));
  router.all(['/openapi.json', '/docs'], otherMethods(['GET', 'HEAD']));
  return router;
}
