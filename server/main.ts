// Entry point of `npm start`: validated config, the service, the development key, and graceful shutdown on SIGTERM.
import v8 from 'node:v8';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { StartupError } from './assets';
import { startService } from './service';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  // V8 sets the heap's growing factor anew after each full collection. Under this service's load it sometimes
  // settled at 1.1, and full collections then came every 100-200 documents, each marking the whole heap again: 4.5-8
  // a thousand documents, 0.58-0.73 ms of Node CPU per document on V8's helper threads (in other starts it chose 2.2
  // or 4.0, and full collections were rare: the cost was bimodal between starts). Twice the kept heap, always: 1-1.7 a thousand
  // documents, 0.30-0.34 ms (the service's resident memory measured no larger).
  if (config.heapGrowthPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
  const logger = createLogger(config.logLevel);
  const started = Date.now();
  let service;
  try {
    service = await startService(config, { logger });
  } catch (err) {
    process.stderr.write(`${err instanceof StartupError ? err.message : (err as Error).message}\n`);
    process.exit(1);
  }

  // Development convenience (docs/decisions.md §5): an empty store gets a local account, and its key is printed once.
  if (!config.production && (await service.keys.countKeys()) === 0) {
    const { key } = await service.keys.createKey('local', 'paid');
    process.stdout.write(
      `\nDevelopment API key for account "local" (shown once; the store keeps only its hash):\n\n    ${key}\n\n` +
        `Try it:\n    curl -s ${service.url}/ -H "Authorization: Bearer ${key}" -d from="Nikolaus Ltd" -d to="Acme, Corp." ` +
        `-d "items[0][name]=Starter plan" -d "items[0][unit_cost]=99" -o invoice.pdf\n\n`,
    );
  }
  logger.info({ url: service.url, ms: Date.now() - started }, 'ready');
  logger.flush(); // at once, not with the next 4 KiB of logs: operators and scripts wait for this line

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    service
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
