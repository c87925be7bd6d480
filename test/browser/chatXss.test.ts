/// <reference lib="dom" />
// Hostile model output must never run, never load remote content and never freeze the view.
import { strict as assert } from 'node:assert';
import { chatPageSuite, msg, snapshot, type ChatPage } from '../support/chatPage';

const PWN = 'window.__pwned=1';
const CORPUS = [
  `<script>${PWN}</script>`,
  `<img src=x onerror="${PWN}">`,
  `<svg onload="${PWN}"><script>${PWN}</script></svg>`,
  `<svg><animate onbegin="${PWN}" attributeName="x" dur="1s"/></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${PWN}">`,
  `<iframe src="javascript:${PWN}"></iframe>`,
  `<iframe srcdoc="<script>parent.${PWN.slice(7)}</script>"></iframe>`,
  `<form action="javascript:${PWN}"><button>go</button></form>`,
  `<a href="javascript:${PWN}">click me</a>`,
  `[click](javascript:${PWN})`,
  `[click](JaVaScRiPt:${PWN})`,
  `[click](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)`,
  `[click](vbscript:msgbox)`,
  `[https://good.example](https://evil.example)`,
  `[x](https://example.com "title\\" onmouseover=\\"${PWN}")`,
  `![x](https://evil.example/track.png)`,
  `![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)`,
  `<img src="https://evil.example/pixel.gif">`,
  `<div style="background:url(https://evil.example/css)">css</div>`,
  `<style>body{background:url(https://evil.example/style)}</style>`,
  `<link rel="stylesheet" href="https://evil.example/x.css">`,
  `<object data="javascript:${PWN}"></object><embed src="javascript:${PWN}">`,
  `<details open ontoggle="${PWN}"><summary>x</summary></details>`,
  `<input autofocus onfocus="${PWN}">`,
  `<body onload="${PWN}">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${PWN}">`,
  `<base href="https://evil.example/">`,
  '```html\n<script>' + PWN + '</script>\n```',
  '`<img src=x onerror=' + PWN + '>`',
  `<scr<script>ipt>${PWN}</scr</script>ipt>`,
  `<a href="&#106;avascript:${PWN}">entity</a>`,
  `[entity](&#106;avascript:${PWN})`,
  `<x onclick="${PWN}">custom element</x>`,
  `<template><img src=x onerror="${PWN}"></template>`,
  `<noscript><p title="</noscript><img src=x onerror=${PWN}>">`,
  `\u202eevil\u202c \u200b\u200b zero width \u2066isolate`,
  'x'.repeat(200_000),
];

describe('chat webview: hostile model output (Chromium)', function () {
  this.timeout(120_000);
  let chat: ChatPage;
  const remoteRequests: string[] = [];
  const pages = chatPageSuite(async (chat, serverUrl) => {
    remoteRequests.length = 0;
    chat.page.on('request', (r) => {
      if (!r.url().startsWith(serverUrl) && !r.url().startsWith('data:')) remoteRequests.push(r.url());
    });
    await chat.play({ type: 'snapshot', snapshot: snapshot([msg('u1', 'user', 'q')]) });
  });
  beforeEach(() => {
    chat = pages.chat;
  });

  async function assertInert(): Promise<void> {
    const page = chat.page;
    // Give event handlers, animations and timers a chance to fire.
    await page.mouse.move(50, 100);
    await page.mouse.move(200, 300);
    await page.waitForTimeout(300);
    const state = await page.evaluate(() => {
      const root = document.querySelector('.messages')!;
      const all = Array.from(root.querySelectorAll('.body *, .thinking-text *'));
      return {
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        forbidden: all
          .filter((e) =>
            /^(script|iframe|object|embed|form|style|link|meta|base|svg|math|input|template|noscript|x|body)$/i.test(
              e.tagName,
            ),
          )
          .map((e) => e.tagName),
        handlers: all.flatMap((e) =>
          Array.from(e.attributes)
            .filter((a) => /^on/i.test(a.name) || a.name === 'style' || a.name === 'srcdoc')
            .map((a) => `${e.tagName}.${a.name}`),
        ),
        badLinks: Array.from(root.querySelectorAll('a[href]'))
          .map((a) => a.getAttribute('href')!)
          .filter((h) => !/^https?:\/\//i.test(h)),
        remoteImages: Array.from(root.querySelectorAll('img'))
          .map((i) => i.getAttribute('src') ?? '')
          .filter((s) => !s.startsWith('data:image/png')),
        url: location.href,
      };
    });
    assert.equal(state.pwned, undefined, 'injected script ran');
    assert.deepEqual(state.forbidden, []);
    assert.deepEqual(state.handlers, []);
    assert.deepEqual(state.badLinks, []);
    assert.deepEqual(state.remoteImages, []);
    assert.equal(state.url, pages.serverUrl);
    assert.deepEqual(remoteRequests, [], 'no remote loads');
    assert.deepEqual(
      chat.errors.filter((e) => !e.includes('Content Security Policy')),
      [],
      'no page errors or dialogs',
    );
    // Still responsive: a click on a link is intercepted and the input still takes keys.
    await page.locator('.composer .input').fill('still alive');
    assert.equal(await page.locator('.composer .input').inputValue(), 'still alive');
  }

  it('complete answers: every payload is inert', async () => {
    const messages = CORPUS.map((text, i) => msg(`a${i}`, 'assistant', text));
    await chat.play({ type: 'snapshot', snapshot: snapshot(messages) });
    // Lazy messages render when near the viewport: scroll through all of them.
    for (let i = 0; i < CORPUS.length; i++)
      await chat.page.locator(`.message[data-id="a${i}"]`).scrollIntoViewIfNeeded();
    await assertInert();
    const links = await chat.page
      .locator('.message a')
      .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('title')]));
    assert.ok(
      links.some(([text, title]) => text === 'https://good.example' && title === 'https://evil.example/'),
      'a link shows where it really goes (the exact address that opens)',
    );
    assert.ok((await chat.page.locator('.blocked-image').count()) >= 2, 'remote images are replaced by a note');
    assert.ok(
      (await chat.page.locator('.message').allTextContents()).some((t) => t.includes('<script>')),
      'raw HTML is shown as text',
    );
  });

  it('streamed answers: every payload is inert, also when split at every few characters', async () => {
    const text = CORPUS.slice(0, -1).join('\n\n');
    await chat.play({
      type: 'messageAppended',
      conversationId: 'c1',
      message: msg('s1', 'assistant', '', { status: 'streaming' }),
    });
    for (let at = 0; at < text.length; at += 7) {
      await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 's1', text: text.slice(at, at + 7) });
      if (at % 700 === 0) await chat.page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    }
    await assertInert();
    await chat.play({
      type: 'streamFinished',
      conversationId: 'c1',
      messageId: 's1',
      status: 'complete',
      stopReason: 'end_turn',
    });
    await assertInert();
  });

  it('a 1 MB code block streams and renders without freezing the view', async () => {
    const line = 'const value = someFunction(argument1, argument2); // ' + 'x'.repeat(40) + '\n';
    const code = line.repeat(Math.ceil(1_000_000 / line.length));
    await chat.play({
      type: 'messageAppended',
      conversationId: 'c1',
      message: msg('big', 'assistant', '', { status: 'streaming' }),
    });
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'big', text: 'Here:\n\n```js\n' });
    const chunk = 64 * 1024;
    for (let at = 0; at < code.length; at += chunk)
      await chat.play({
        type: 'streamDelta',
        conversationId: 'c1',
        messageId: 'big',
        text: code.slice(at, at + chunk),
      });
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'big', text: '```\n' });
    await chat.play({
      type: 'streamFinished',
      conversationId: 'c1',
      messageId: 'big',
      status: 'complete',
      stopReason: 'end_turn',
    });
    const length = await chat.page.locator('.message[data-id="big"] pre code').evaluate((c) => c.textContent!.length);
    assert.equal(length, code.length);
    const started = await chat.page.evaluate(() => performance.now());
    await chat.page.locator('.composer .input').fill('typing works');
    assert.equal(await chat.page.locator('.composer .input').inputValue(), 'typing works');
    assert.ok(started > 0);
    await assertInert();
  });
});
