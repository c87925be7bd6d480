// Headless Debian Chromium through playwright-core for the scripts (test layers, npm start's check, the activation
// bench), with the flags that work offline on these machines. The TypeScript tests have the same in
// test/support/browser.ts (CommonJS tests cannot import this ES module).
import { chromium } from 'playwright-core';

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

/** Launches headless Chromium (MG_CHROMIUM or Debian's); the caller closes it. */
export function launchChromium(options = {}) {
  return chromium.launch({
    executablePath: process.env.MG_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}
