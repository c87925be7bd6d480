/// <reference lib="dom" />
// Links in model output, in the real chat bundle in Chromium. VS Code's webview host script listens for clicks on
// the webview's window (bubble phase), ignores defaultPrevented and opens any clicked <a> that has an href; the
// page here installs a listener with those semantics, so a link VS Code would open behind the extension's back
// shows up as a "host-opened" entry.
import { strict as assert } from 'node:assert';
import { chatPageSuite, msg, snapshot, type ChatPage } from '../support/chatPage';

const VSCODE_HOST_CLICK_MODEL = `
  window.__hostOpened = [];
  window.addEventListener('click', (event) => {
    for (const node of event.composedPath()) {
      if (node.tagName && node.tagName.toLowerCase() === 'a' && node.href) { window.__hostOpened.push(String(node.href)); event.preventDefault(); return; }
    }
  });
  window.addEventListener('auxclick', (event) => {
    for (const node of event.composedPath()) {
      if (node.tagName && node.tagName.toLowerCase() === 'a' && node.href) { window.__hostOpened.push('aux:' + String(node.href)); return; }
    }
  });
`;

const ANSWER = [
  'Plain: [docs](https://example.com/docs).',
  'Credentials: [login](https://user:pw@example.com/x) and [gh](http://github.com:x@127.0.0.1/steal).',
  'Look-alike: [apple](https://аpple.com/) and [rtl](https://example.com/\u202Etxt.exe).',
  'Schemes: [cmd](command:workbench.action.terminal.new) [file](file:///etc/passwd) [data](data:text/html,<b>x</b>) [js](javascript:alert(1)) [vs](vscode://vscode.git/clone?url=x).',
  'Autolinks: <https://auto.example/a> and https://bare.example/b and www.www-example.com.',
  'Reference: [ref][r].',
  '',
  '[r]: https://ref.example/c',
  '',
  'Image: ![remote](https://img.example/pixel.png)',
  '',
  'Raw: <a href="https://raw.example/">raw anchor</a>',
].join('\n');

describe('chat webview links (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(async (chat) => {
    await chat.page.evaluate(VSCODE_HOST_CLICK_MODEL);
  });
  beforeEach(() => {
    chat = pages.chat;
  });

  const opened = () => chat.page.evaluate(() => (globalThis as unknown as { __hostOpened: string[] }).__hostOpened);
  const linkPosts = async () =>
    (await chat.posted()).filter((m) => m.type === 'openLink').map((m) => (m as { href: string }).href);
  const body = () => chat.page.locator('.message.assistant .body');

  async function showAnswer(text = ANSWER): Promise<void> {
    await chat.play({ type: 'snapshot', snapshot: snapshot([msg('u1', 'user', 'q'), msg('a1', 'assistant', text)]) });
    await body().locator('a').first().waitFor();
  }

  it('leaves no anchor with an href in rendered model output; real addresses are in titles, in ASCII', async () => {
    await showAnswer();
    assert.equal(
      await chat.page.locator('body [href], body area, body form, body iframe').count(),
      0,
      'nothing VS Code could navigate to',
    );
    const links = await body()
      .locator('a')
      .evaluateAll((as) =>
        as.map((a) => ({
          text: a.textContent,
          cls: a.className,
          href: (a as HTMLElement).dataset.href ?? null,
          title: a.getAttribute('title'),
          role: a.getAttribute('role'),
          tabindex: a.getAttribute('tabindex'),
        })),
      );
    const openable = links.filter((l) => l.cls === 'link');
    assert.deepEqual(
      openable.map((l) => l.href),
      [
        'https://example.com/docs',
        'https://auto.example/a',
        'https://bare.example/b',
        'http://www.www-example.com',
        'https://ref.example/c',
      ],
    );
    for (const l of openable) {
      assert.equal(l.role, 'link');
      assert.equal(l.tabindex, '0');
      assert.match(l.title ?? '', /^https?:\/\/[\x21-\x7e]+$/, 'the title is the ASCII address');
    }
    const refused = links.filter((l) => l.cls === 'link-refused');
    assert.deepEqual(
      refused.map((l) => l.text),
      ['login', 'gh', 'apple', 'rtl', 'cmd', 'file', 'data', 'js', 'vs'],
    );
    for (const l of refused) assert.equal(l.href, null, `${l.text} has no address to open`);
    assert.match(refused.find((l) => l.text === 'login')?.title ?? '', /user name or password/);
    assert.match(refused.find((l) => l.text === 'apple')?.title ?? '', /mixes writing systems/);
    assert.equal(await body().locator('img').count(), 0, 'remote images are not loaded');
    assert.match(await body().innerText(), /\[image not loaded: remote\]/);
    assert.match(await body().innerText(), /<a href="https:\/\/raw.example\/">raw anchor<\/a>/, 'raw HTML is text');
  });

  it('a click posts exactly one request for an accepted link, none for a refused one, and VS Code sees no link', async () => {
    await showAnswer();
    await body().locator('a', { hasText: 'docs' }).click();
    assert.deepEqual(await linkPosts(), ['https://example.com/docs']);
    for (const text of ['login', 'gh', 'apple', 'rtl', 'cmd', 'file', 'data', 'js', 'vs'])
      await body()
        .locator('a', { hasText: new RegExp(`^${text}$`) })
        .click();
    assert.deepEqual(await linkPosts(), ['https://example.com/docs'], 'refused links post nothing');
    assert.match(await chat.page.locator('.notice').innerText(), /Not a link that can be opened/);
    await body().locator('a', { hasText: 'https://bare.example/b' }).dblclick();
    assert.deepEqual(
      await linkPosts(),
      ['https://example.com/docs', 'https://bare.example/b', 'https://bare.example/b'],
      'one request per click (the host drops a second one while it asks)',
    );
    assert.deepEqual(await opened(), [], 'the VS Code host script never saw a link to open');
    assert.equal(chat.page.url(), pages.serverUrl, 'no navigation');
    assert.equal(chat.page.context().pages().length, 1, 'no window opened');
  });

  it('Enter on a focused link and a middle click each post one request; right click posts none', async () => {
    await showAnswer();
    const docs = body().locator('a', { hasText: 'docs' });
    await docs.focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await linkPosts(), ['https://example.com/docs']);
    await body().locator('a', { hasText: 'ref' }).click({ button: 'middle' });
    assert.deepEqual(await linkPosts(), ['https://example.com/docs', 'https://ref.example/c']);
    await docs.click({ button: 'right' });
    await body().locator('a', { hasText: 'login' }).click({ button: 'middle' });
    assert.deepEqual(await linkPosts(), ['https://example.com/docs', 'https://ref.example/c']);
    assert.deepEqual(await opened(), []);
    assert.equal(chat.page.context().pages().length, 1);
  });

  it('links in a streaming answer carry no href either', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'q'), msg('a1', 'assistant', '', { status: 'streaming' })]),
    });
    for (const piece of [
      'See [do',
      'cs](https://example.com/docs) and [x](https://user:pw@',
      'example.com/) and https://bare.example/b\n\n',
      '```\ncode\n```\n\nmore [y](javascript:alert(1))',
    ]) {
      await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: piece });
      await chat.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.equal(await chat.page.locator('body [href]').count(), 0, `after ${JSON.stringify(piece)}`);
    }
    await body().locator('a', { hasText: 'docs' }).click();
    await body().locator('a', { hasText: 'x' }).first().click();
    assert.deepEqual(await linkPosts(), ['https://example.com/docs']);
    assert.deepEqual(await opened(), []);
  });
});
