// Root hooks of the UI layer (mocha --require, scripts/lib/layers.mjs): the shared workbench window
// (openWorkbench({ shared: true })) closes once every suite has run.
import { closeSharedWorkbench } from './workbench';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeSharedWorkbench();
  },
};
