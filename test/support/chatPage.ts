// Loads the real chat bundle (dist/webview/chat.js) in headless Chromium, served from 127.0.0.1 with
// the production CSP, and a fake acquireVsCodeApi that records what the page posts and plays host messages.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import type { ToWebview } from '../../src/shared/protocol/channel';
import type { ChatMessage, ChatShapes, ChatSnapshot, WebviewToHostMessage } from '../../src/shared/protocol/chat';
import { english } from '../../src/shared/l10n';
import { webviewStringTable } from '../../src/shared/webviewStrings';
import { launchChromium } from './browser';
import { ROOT, leasePage, startWebviewPageServer, webviewCsp } from '../support/webviewPage';

/** The last build of this process: the bundle does not change during a run, so suites after the first reuse it. */
let lastBuild: { minify: boolean; done: Promise<void> } | undefined;

/** Builds dist/webview/chat.js (and the codicons next to it) the way esbuild.js does; once per process and flag. */
export function buildChatBundle(minify = false): Promise<void> {
  if (lastBuild?.minify !== minify) {
    const done = buildChatBundleNow(minify);
    lastBuild = { minify, done };
    // A failed build is tried again by the next suite (and fails it with its own error).
    done.catch(() => (lastBuild?.done === done ? (lastBuild = undefined) : undefined));
  }
  return lastBuild!.done;
}

async function buildChatBundleNow(minify: boolean): Promise<void> {
  await build({
    entryPoints: { chat: join(ROOT, 'src/webview/chat/main.ts') },
    outdir: join(ROOT, 'dist/webview'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify,
    sourcemap: minify ? false : 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    loader: { '.ttf': 'file' },
  });
  // The codicons as esbuild.js copies them (a test that measures icon buttons links dist/webview/codicon.css).
  const codicons = join(ROOT, 'node_modules', '@vscode', 'codicons', 'dist');
  mkdirSync(join(ROOT, 'dist/webview'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(join(codicons, f), join(ROOT, 'dist/webview', f));
}

const PAGE = (csp: string, nonce: string) => `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="/media/common.css"><link rel="stylesheet" href="/media/chat.css"><title>Chat</title></head>
<body><div id="root"></div><script nonce="${nonce}" src="/dist/webview/chat.js"></script></body></html>`;

/** A static server for the page, dist/ and media/ (what localResourceRoots allows). */
export function startPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const nonce = 'dGVzdC1ub25jZS0xMjM0NTY=';
  return startWebviewPageServer((origin) => PAGE(webviewCsp(origin, nonce), nonce));
}

export interface ChatPage {
  page: Page;
  /** Page errors, console errors and dialogs (a dialog would mean injected script ran). */
  errors: string[];
  /** A host message: notifications, replies ({ type: 'reply', requestId, result | error }), a string table. */
  play(message: ToWebview<ChatShapes>): Promise<void>;
  posted(): Promise<WebviewToHostMessage[]>;
  close(): Promise<void>;
}

/**
 * Opens the page as VS Code would show it: it says 'ready' and the host answers with the string table (English
 * unless `strings` is given), as src/platform/webviewChannel.ts does.
 */
export async function openChatPage(
  browser: Browser,
  url: string,
  width = 400,
  strings: Record<string, string> = webviewStringTable(english),
): Promise<ChatPage> {
  const { page, errors, release } = await leasePage(browser, { width, height: 700 });
  try {
    await page.goto(url);
    await page
      .waitForFunction(
        () => (globalThis as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'),
        undefined,
        { timeout: 10_000 },
      )
      .catch((e: Error) => {
        throw new Error(`${e.message}\n${errors.join('\n')}`);
      });
    await page.evaluate((m) => (globalThis as unknown as { __play(m: unknown): void }).__play(m), {
      type: 'strings',
      strings,
    });
  } catch (err) {
    await release();
    throw err;
  }
  return {
    page,
    errors,
    play: (message) => page.evaluate((m) => (globalThis as unknown as { __play(m: unknown): void }).__play(m), message),
    posted: () => page.evaluate(() => (globalThis as unknown as { __posted: WebviewToHostMessage[] }).__posted),
    close: release,
  };
}

export { launchChromium };

let shared: Promise<Browser> | undefined;

/**
 * One headless Chromium for every page suite of this mocha process (a launch per suite cost about as much as the
 * suite's tests): each test still gets a document of its own (openChatPage: a new navigation, in a page lent by
 * leasePage), so what tests share is the browser process and a renderer. Launched again if it died; closed by mocha's root `after`.
 */
export async function sharedChromium(): Promise<Browser> {
  const current = shared && (await shared.catch(() => undefined));
  if (!current?.isConnected()) shared = launchChromium();
  return shared!;
}

// Under mocha (not in the bench), the root suite's `after` closes the shared browser once every suite has run.
if (typeof after === 'function')
  after(async () => {
    const browser = shared && (await shared.catch(() => undefined));
    shared = undefined;
    await browser?.close();
  });

/**
 * The chat bundle, a page server and a browser for the enclosing suite (before/after). Call it inside `describe`;
 * read `.serverUrl` and `.browser` in tests.
 */
export function pageServerSuite(): { readonly serverUrl: string; readonly browser: Browser } {
  let browser: Browser | undefined;
  let server: { url: string; close(): Promise<void> } | undefined;
  before(async () => {
    await buildChatBundle();
    server = await startPageServer();
    browser = await sharedChromium();
  });
  after(async () => {
    await server?.close();
  });
  return {
    get serverUrl() {
      return server!.url;
    },
    get browser() {
      return browser!;
    },
  };
}

/**
 * The hooks every chat-page suite needs: pageServerSuite, and a fresh page per test (then `setup`, e.g. a first
 * snapshot), closed after the test; `afterEachCheck` runs on the page first (e.g. no page errors). Call it inside
 * `describe`; read `.chat` in tests.
 */
export function chatPageSuite(
  setup?: (chat: ChatPage, serverUrl: string) => Promise<void>,
  afterEachCheck?: (chat: ChatPage) => Promise<void> | void,
): {
  readonly chat: ChatPage;
  readonly serverUrl: string;
  readonly browser: Browser;
} {
  const suite = pageServerSuite();
  let chat: ChatPage | undefined;
  beforeEach(async () => {
    chat = await openChatPage(suite.browser, suite.serverUrl);
    await setup?.(chat, suite.serverUrl);
  });
  afterEach(async () => {
    const page = chat;
    chat = undefined;
    try {
      if (page) await afterEachCheck?.(page);
    } finally {
      await page?.close();
    }
  });
  return {
    get chat() {
      return chat!;
    },
    get serverUrl() {
      return suite.serverUrl;
    },
    get browser() {
      return suite.browser;
    },
  };
}

export function snapshot(messages: ChatMessage[] = [], extra: Partial<ChatSnapshot> = {}): ChatSnapshot {
  return {
    conversations: [{ id: 'c1', title: 'Test chat', updatedAt: 1, messageCount: messages.length }],
    activeId: 'c1',
    messages,
    settings: { model: 'claude-demo-sonnet', maxTokens: 1024, systemPrompt: '' },
    models: [{ id: 'claude-demo-sonnet' }, { id: 'claude-demo-haiku' }],
    busy: false,
    attachments: [],
    ...extra,
  };
}

export function msg(
  id: string,
  role: 'user' | 'assistant',
  text: string,
  extra: Partial<ChatMessage> = {},
): ChatMessage {
  return { id, role, text, status: 'complete', createdAt: 1, ...extra };
}

/**
 * An agent turn under way, as the host shows it: a busy Agent conversation c1 with the question u1 (`question`) and
 * its streaming answer a1, no tools or steps yet. Tests then play the turn's events.
 */
export async function startAgentTurn(chat: ChatPage, question = 'Go'): Promise<void> {
  await chat.play({
    type: 'snapshot',
    snapshot: snapshot([msg('u1', 'user', question)], { mode: 'agent', agent: { ok: true }, busy: true }),
  });
  await chat.play({
    type: 'messageAppended',
    conversationId: 'c1',
    message: msg('a1', 'assistant', '', { status: 'streaming', agent: { turnId: 'turn-a1', tools: [], steps: [] } }),
  });
}
