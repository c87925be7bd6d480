// What the chat page and the image panel page share in the browser layer: the production content security
// policy, a static server for the page, dist/ and media/ (what localResourceRoots allows), and the fake
// acquireVsCodeApi that records what the page posts and plays host messages.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
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
