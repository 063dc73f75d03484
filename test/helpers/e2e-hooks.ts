// Mocha root hooks of the e2e and integration shards (scripts/test-e2e.ts requires this file as well as
// root-hooks.ts): the official rules pool held for the whole run, so that the services the files start one after
// another share its workers (each loads every rule set, seconds of CPU) instead of starting their own. The services
// still acquire and release it as in production; a worker a test kills is replaced by the pool as it would be there.
import { loadConfig } from '../../server/config';
import { acquireRulesPool, type RulesPoolRef } from '../../server/einvoice/rules/rules-pool';

let rules: RulesPoolRef | undefined;

export const mochaHooks = {
  beforeAll(): void {
    // Rules that cannot be loaded fail the tests that need them, in their own words, not the whole shard here.
    try {
      rules = acquireRulesPool(loadConfig({ NODE_ENV: 'test' }));
      rules.pool.ready().catch(() => undefined);
    } catch {
      rules = undefined;
    }
  },
  async afterAll(): Promise<void> {
    await rules?.release();
  },
};
