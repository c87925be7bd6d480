// Headless Debian Chromium through playwright-core, with the flags that work offline on these machines
// (docs/testing.md#browser-and-workbench-helpers). Used by the webview bundle tests (test/browser) and by workbench.ts;
// the scripts have the same in scripts/lib/chromium.mjs.
import * as fs from 'node:fs';
import * as path from 'node:path';
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

/** A browser whose own output and end are kept in a log file (the workbench's: its cause of death must show). */
export interface LoggedBrowser {
  browser: Browser;
  /** Appends a line to the browser's log (page events, who closed what). */
  log(line: string): void;
  /** Closes the browser on purpose (not logged as a loss). */
  close(): Promise<void>;
}

const openLogs = new Set<(line: string) => void>();

/** Appends a line to the log of every browser still running (why the test process is about to end them). */
export function logToOpenBrowsers(line: string): void {
  for (const log of openLogs) log(line);
}

/**
 * Headless Chromium as a server process this side can watch: its stderr (Chromium's own log, e.g. a renderer
 * killed for memory), its exit code and signal, and the moment the connection to it was lost, each line time-stamped
 * into `logFile`. A loss nobody asked for is also said on the test output, with the log's path.
 */
export async function launchLoggedChromium(logFile: string, options: LaunchOptions = {}): Promise<LoggedBrowser> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = (line: string): void => {
    try {
      fs.appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // A log that cannot be written must not fail a test.
    }
  };
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
  const child = server.process();
  log(`launched pid ${child.pid} (${CHROMIUM_PATH} ${[...CHROMIUM_ARGS, ...(options.args ?? [])].join(' ')})`);
  for (const [name, stream] of [
    ['out', child.stdout],
    ['err', child.stderr],
  ] as const) {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) log(`[${name}] ${line}`);
    });
  }
  let closing = false;
  let exit = 'still running';
  child.on('exit', (code, signal) => {
    exit = `exit code ${code ?? '-'}, signal ${signal ?? '-'}`;
    log(`browser process ended: ${exit}${closing ? ' (closed by the test)' : ''}`);
  });
  openLogs.add(log);
  child.once('exit', () => openLogs.delete(log));
  const browser = await chromium.connect(server.wsEndpoint());
  browser.on('disconnected', () => {
    log(`disconnected${closing ? ' (closed by the test)' : `: NOT asked for; the browser process: ${exit}`}`);
    if (!closing) console.warn(`    (the browser went away unasked: ${exit}; its log: ${logFile})`);
  });
  return {
    browser,
    log,
    close: async () => {
      closing = true;
      await browser.close().catch(() => undefined);
      await server.close();
    },
  };
}
