// The one place webview HTML is made: strict CSP with a fresh crypto nonce per render,
// resources only from dist/ and media/, no connect-src (webviews never talk to the network).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  /** Bundle name under dist/webview/ (without .js), e.g. 'chat'. */
  script: 'chat' | 'images';
  /** Style sheets under media/ (file names), loaded after the codicons. */
  styles: string[];
  title: string;
  /** Extra attributes on <body> (already safe, fixed strings). */
  bodyAttributes?: string;
}

/** localResourceRoots for every webview of the extension. */
export function webviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** Options every webview of the extension uses. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: webviewResourceRoots(extensionUri) };
}

/** A fresh 128-bit nonce, base64 (never Math.random). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The Content-Security-Policy of every webview page. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function renderWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = createNonce();
  const asset = (...segments: string[]) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
  const styles = [asset('dist', 'webview', 'codicon.css'), ...page.styles.map((s) => asset('media', s))]
    .map((href) => `<link rel="stylesheet" href="${href}">`)
    .join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(webview.cspSource, nonce)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${page.title}</title>
  </head>
  <body ${page.bodyAttributes ?? ''}>
    <div id="root"></div>
    <script nonce="${nonce}" src="${asset('dist', 'webview', `${page.script}.js`)}"></script>
  </body>
</html>`;
}
