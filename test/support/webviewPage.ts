// What the chat page and the image panel page share in the browser layer: the production content security
// policy, a static server for the page, dist/ and media/ (what localResourceRoots allows), and the fake
// acquireVsCodeApi that records what the page posts and plays host messages.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Browser, ConsoleMessage, Dialog, Page } from 'playwright-core';
import { join, normalize } from 'node:path';
import { webviewStringTable } from '../../src/shared/webviewStrings';
import { listenLocally, type LocalServer } from './httpServer';

export const ROOT = join(__dirname, '..', '..');

/** The policy of src/platform/webviewHtml.ts (which imports vscode, so it is restated here). */
export function webviewCsp(origin: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${origin}`,
    `font-src ${origin}`,
    `img-src ${origin} data:`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Serves `page(origin)` at / (and /index.html), and the files under dist/ and media/; `url` ends with a slash. */
export async function startWebviewPageServer(page: (origin: string) => string): Promise<LocalServer> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]));
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/' || path === '/index.html') {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(`http://${req.headers.host}`));
    }
    if (!path.startsWith('/dist/') && !path.startsWith('/media/')) return void res.writeHead(404).end();
    try {
      const body = readFileSync(join(ROOT, path));
      const type = path.endsWith('.js')
        ? 'text/javascript'
        : path.endsWith('.css')
          ? 'text/css'
          : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  const local = await listenLocally(server);
  return { ...local, url: `${local.url}/` };
}

/**
 * Installed before the bundle runs: the webview's view of VS Code, its state starting as `window.__initialState`
 * (a string: tsx would inject helpers into a function).
 */
export const FAKE_VSCODE_API = `
  window.__posted = [];
  window.__state = window.__initialState;
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => void window.__posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => window.__state,
    setState: (s) => void (window.__state = s),
  });
  window.__play = (m) => window.dispatchEvent(new MessageEvent('message', { data: m }));
`;

/** The pages' string table in Simplified Chinese, from l10n/bundle.l10n.zh-cn.json, as vscode.l10n gives it in a zh-cn VS Code. */
export function chineseStringTable(): Record<string, string> {
  const zh = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
  return webviewStringTable({
    t: (message, ...args) =>
      (zh[message] ?? message).replace(/\{(\d+)\}/g, (w, i: string) =>
        Number(i) < args.length ? String(args[Number(i)]) : w,
      ),
  });
}

/** A page of the pool lent to one test: its own errors, listeners and document; release() hands it back. */
export interface PageLease {
  page: Page;
  /** Page errors, console errors and dialogs of this lease's documents (a dialog would mean injected script ran). */
  errors: string[];
  release(): Promise<void>;
}

/** Pages handed back, per browser, to lend again. */
const idlePages = new WeakMap<Browser, Page[]>();

/**
 * A page for one test: a fresh document of its own (the test navigates it), in a page kept from an earlier test when
 * one is free. A new page costs a new context and renderer process, 0.9 core-s measured, where a navigation in a
 * kept one costs 0.2: with about 90 page tests that was a minute of a core of every run. What a test could leave
 * behind goes with the lease: its listeners, any other page it opened (a popup), its document (about:blank on
 * release, so no timer of it runs on). Every document starts with FAKE_VSCODE_API, `window.__initialState` read
 * from the URL's `#mg-state=` (JSON) when the test gives one (pageUrl).
 */
export async function leasePage(browser: Browser, viewport: { width: number; height: number }): Promise<PageLease> {
  const pool = idlePages.get(browser) ?? [];
  idlePages.set(browser, pool);
  let page = pool.pop();
  while (page?.isClosed()) page = pool.pop();
  if (page) await page.setViewportSize(viewport);
  else {
    page = await (await browser.newContext({ viewport })).newPage();
    await page.addInitScript({ content: INITIAL_STATE_FROM_URL + FAKE_VSCODE_API });
  }
  const leased = page;
  const errors: string[] = [];
  const onPageError = (e: Error): void => void errors.push(e.message);
  const onConsole = (m: ConsoleMessage): void => {
    if (m.type() === 'error') errors.push(m.text());
  };
  const onDialog = (d: Dialog): void => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  };
  leased.on('pageerror', onPageError);
  leased.on('console', onConsole);
  leased.on('dialog', onDialog);
  return {
    page: leased,
    errors,
    release: async () => {
      for (const other of leased.context().pages()) if (other !== leased) await other.close().catch(() => undefined);
      try {
        await leased.goto('about:blank');
        pool.push(leased);
      } catch {
        // A page that cannot navigate any more (crashed, closed by the test) is not lent again.
        await leased
          .context()
          .close()
          .catch(() => undefined);
      } finally {
        leased.off('pageerror', onPageError);
        leased.off('console', onConsole);
        leased.off('dialog', onDialog);
      }
    },
  };
}

/** `url` with the document's initial webview state (what getState() returns first), read by the lent pages' script. */
export function pageUrl(url: string, initialState?: unknown): string {
  return initialState === undefined ? url : `${url}#mg-state=${encodeURIComponent(JSON.stringify(initialState))}`;
}

const INITIAL_STATE_FROM_URL = `
  {
    const m = /^#mg-state=(.*)$/.exec(location.hash);
    if (m) window.__initialState = JSON.parse(decodeURIComponent(m[1]));
  }
`;
