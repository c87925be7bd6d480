// Loads the real image panel bundle in headless Chromium, served from 127.0.0.1 with the production CSP
// and a fake acquireVsCodeApi that records what the page posts and plays host messages.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import type { ToHost, ToWebview } from '../../src/shared/protocol/channel';
import type { ImagesShapes, PanelSnapshot } from '../../src/shared/protocol/images';
import { english } from '../../src/shared/l10n';
import { webviewStringTable } from '../../src/shared/webviewStrings';

type HostToImagesMessage = ToWebview<ImagesShapes>;
type ImagesToHostMessage = ToHost<ImagesShapes>;
import { launchChromium } from '../support/browser';

const ROOT = join(__dirname, '..', '..');
const NONCE = 'aW1hZ2VzLXRlc3Qtbm9uY2U=';

/** The policy of src/platform/webviewHtml.ts (which imports vscode, so it is restated here). */
function csp(origin: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${NONCE}'`,
    `style-src ${origin}`,
    `font-src ${origin}`,
    `img-src ${origin} data:`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export async function buildImagesBundle(): Promise<void> {
  await build({
    entryPoints: { images: join(ROOT, 'src/webview/images/main.ts') },
    outdir: join(ROOT, 'dist/webview'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: 'linked',
    logLevel: 'warning',
    loader: { '.ttf': 'file' },
  });
}

const PAGE = (policy: string) => `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<link rel="stylesheet" href="/media/common.css"><link rel="stylesheet" href="/media/images.css"><title>Images</title></head>
<body><div id="root"></div><script nonce="${NONCE}" src="/dist/webview/images.js"></script></body></html>`;

async function startServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]));
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/')
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(csp(`http://${req.headers.host}`)));
    if (!path.startsWith('/dist/') && !path.startsWith('/media/')) return void res.writeHead(404).end();
    try {
      const type = path.endsWith('.js')
        ? 'text/javascript'
        : path.endsWith('.css')
          ? 'text/css'
          : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(readFileSync(join(ROOT, path)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const FAKE_VSCODE_API = `
  window.__posted = [];
  window.__state = window.__initialState;
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => void window.__posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => window.__state,
    setState: (s) => void (window.__state = s),
  });
  window.__play = (m) => window.dispatchEvent(new MessageEvent('message', { data: m }));
`;

export interface ImagesPage {
  page: Page;
  errors: string[];
  play(message: HostToImagesMessage): Promise<void>;
  posted(): Promise<ImagesToHostMessage[]>;
  state(): Promise<unknown>;
  close(): Promise<void>;
}

/** Opens the page; after its 'ready' the host's string table arrives (English unless `strings` is given). */
export async function openImagesPage(
  browser: Browser,
  initialState?: unknown,
  strings: Record<string, string> = webviewStringTable(english),
): Promise<ImagesPage> {
  const server = await startServer();
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.addInitScript(
    `window.__initialState = ${JSON.stringify(initialState ?? null) === 'null' ? 'undefined' : JSON.stringify(initialState)};${FAKE_VSCODE_API}`,
  );
  await page.goto(server.url);
  await page.waitForFunction(() =>
    (globalThis as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'),
  );
  await page.evaluate((m) => (globalThis as unknown as { __play(m: unknown): void }).__play(m), {
    type: 'strings',
    strings,
  });
  await page.waitForSelector('.images');
  return {
    page,
    errors,
    play: (message) => page.evaluate((m) => (globalThis as unknown as { __play(m: unknown): void }).__play(m), message),
    posted: () => page.evaluate(() => (globalThis as unknown as { __posted: ImagesToHostMessage[] }).__posted),
    state: () => page.evaluate(() => (globalThis as unknown as { __state: unknown }).__state),
    close: async () => {
      await page.close();
      await server.close();
    },
  };
}

export { launchChromium };

/**
 * The panel's first snapshot as the host sends it (generate form, a few models and sizes; the qualities follow the
 * model); `extra` overrides.
 */
export function panelSnapshot(extra: Partial<PanelSnapshot> = {}): PanelSnapshot {
  return {
    models: ['gpt-image-demo', 'flux-demo-schnell'],
    sizes: ['1024x1024', '1536x1024', '512x512'],
    form: {
      mode: 'generate',
      prompt: '',
      model: 'gpt-image-demo',
      size: '1024x1024',
      quality: 'auto',
      n: 1,
      references: [],
    },
    gallery: [],
    tasks: [],
    requestMode: 'async',
    folderName: 'ws',
    outputFolder: 'images',
    ...extra,
  };
}
