// Root hooks of the UI layer (mocha --require, scripts/lib/layers.mjs): the shared workbench window
// (openWorkbench({ shared: true })) closes once every suite has run.
import { logToOpenBrowsers } from './browser';
import { closeSharedWorkbench } from './workbench';

// The harness stops this layer with SIGTERM when it is silent too long (MG_UI_IDLE_TIMEOUT_MS: a hang) or an overall
// limit someone set (MG_UI_LAYER_TIMEOUT_MS) runs out. Playwright
// answers SIGTERM by closing its browsers but does not end the process: mocha went on, and the running test and
// every later one failed with "Target page, context or browser has been closed" (reproduced with a 30 s budget),
// which read like a product failure. Registered before Playwright's handler: say why and end at once (Playwright's
// exit handler kills the browsers); the harness reports the layer as stopped by its budget.
process.once('SIGTERM', () => {
  const why = 'SIGTERM: the harness stopped the UI layer (silent too long, or MG_UI_LAYER_TIMEOUT_MS ran out)';
  logToOpenBrowsers(`${why}; the browser ends with the test process`);
  console.error(`[ui] ${why}; later tests do not run`);
  process.exit(143);
});

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeSharedWorkbench();
  },
};
