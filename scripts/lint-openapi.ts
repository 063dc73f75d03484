// npm run lint:openapi: writes the OpenAPI description the service serves (built by server/http/openapi.ts from
// schemas/ with the default configuration) to a temporary file and runs Redocly's recommended rules on it (one option
// set in scripts/redocly.yaml, which says why). Exits with Redocly's status: non-zero when a rule reports an error
// (warnings are printed and allowed).
// Must not start the service: the description is built exactly as at start-up, without Chromium or a key store.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, projectRoot } from '../server/config';
import { loadSchemas } from '../server/documents/schema-registry';
import { loadHttpAssets } from '../server/http/http-assets';
import { buildOpenApi } from '../server/http/openapi';

const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
const registry = loadSchemas(path.join(projectRoot(), 'schemas'), config.limits);
const description = buildOpenApi(registry, loadHttpAssets(projectRoot()), { maxBatchDocuments: config.limits.maxBatchDocuments });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-openapi-'));
const file = path.join(dir, 'openapi.json');
fs.writeFileSync(file, JSON.stringify(description, null, 2));
const redocly = path.join(projectRoot(), 'node_modules', '.bin', 'redocly');
const rules = path.join(projectRoot(), 'scripts', 'redocly.yaml');
const run = spawnSync(redocly, ['lint', '--config', rules, '--extends', 'recommended', '--format', 'stylish', file], { stdio: 'inherit' });
fs.rmSync(dir, { recursive: true, force: true });
process.exit(run.status ?? 1);
