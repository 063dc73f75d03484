// Mocha root hooks: close the shared service (and its Chromium) after the whole run.
import { closeSharedService } from './service';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeSharedService();
  },
};
