// Mocha root hooks: one XSD validator held for the whole run (the tests and services that acquire one share it, so its
// schemas are compiled once per process, not once per file), and the shared service (and its Chromium) closed after it.
import { loadConfig } from '../../server/config';
import { acquireXsdValidator, type XsdValidatorRef } from '../../server/einvoice/xsd-validator';
import { closeSharedService } from './service';

let xsd: XsdValidatorRef | undefined;

export const mochaHooks = {
  beforeAll(): void {
    xsd = acquireXsdValidator(loadConfig({}));
  },
  async afterAll(): Promise<void> {
    await closeSharedService();
    await xsd?.release();
  },
};
