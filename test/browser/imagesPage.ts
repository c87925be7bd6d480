// Loads the real image panel bundle in headless Chromium, served from 127.0.0.1 with the production CSP
// and a fake acquireVsCodeApi that records what the page posts and plays host messages.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import type { ToHost, ToWebview } from '../../src/shared/protocol/channel';
import type { ImagesShapes, PanelSnapshot } from '../../src/shared/protocol/images';
import { english } from '../../src/shared/l10n';
import { webviewStringTable } from '../../src/shared/webviewStrings';

type HostToImagesMessage = ToWebview<ImagesShapes>;
type ImagesToHostMessage = ToHost<ImagesShapes>;
import { launchChromium } from '../support/browser';
import { ROOT, leasePage, pageUrl, startWebviewPageServer, webviewCsp } from '../support/webviewPage';

const NONCE = 'aW1hZ2VzLXRlc3Qtbm9uY2U=';

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

const startServer = () => startWebviewPageServer((origin) => PAGE(webviewCsp(origin, NONCE)));

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
  const { page, errors, release } = await leasePage(browser, { width: 1280, height: 720 });
  await page.goto(pageUrl(server.url, initialState ?? undefined));
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
      await release();
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
