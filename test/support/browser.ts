// Headless Debian Chromium through playwright-core, with the flags that work offline on these machines
// (docs/testing.md#browser-and-workbench-helpers). Used by the webview bundle tests (test/browser) and by workbench.ts;
// the scripts have the same in scripts/lib/chromium.mjs.
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Chromium binary: MG_CHROMIUM or Debian's. */
export const CHROMIUM_PATH = process.env.MG_CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Launches headless Chromium; the caller closes it. */
export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}
