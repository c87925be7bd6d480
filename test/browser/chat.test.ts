/// <reference lib="dom" />
// The chat webview bundle in real headless Chromium, fed host messages by a fake acquireVsCodeApi.
import { strict as assert } from 'node:assert';
import { chatPageSuite, openChatPage, msg, snapshot, type ChatPage } from '../support/chatPage';

describe('chat webview (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite();
  beforeEach(() => {
    chat = pages.chat;
  });

  const posted = async (type: string) => (await chat.posted()).filter((m) => m.type === type);
  const frame = () =>
    chat.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  it('asks for a snapshot on load and renders it: messages, model, attachments', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot(
        [
          msg('u1', 'user', 'What is **2+2**?'),
          msg('a1', 'assistant', '**Four.**', {
            usage: { input: 5, output: 2, cacheRead: 0, cacheWrite: 0 },
            stopReason: 'end_turn',
            model: 'claude-demo-sonnet',
          }),
        ],
        {
          attachments: [
            {
              id: 'att1',
              kind: 'selection',
              path: 'src/a.ts',
              languageId: 'typescript',
              text: 'x',
              startLine: 3,
              endLine: 4,
            },
          ],
        },
      ),
    });
    const page = chat.page;
    assert.equal(
      await page.locator('.message.user .user-text').textContent(),
      'What is **2+2**?',
      'questions are shown as typed',
    );
    assert.equal(await page.locator('.message.assistant .body strong').textContent(), 'Four.');
    assert.match(
      (await page.locator('.message.assistant .meta').textContent()) ?? '',
      /claude-demo-sonnet · tokens: in 5 · out 2 · finished/,
    );
    assert.equal(await page.locator('.composer .model').inputValue(), 'claude-demo-sonnet');
    await page.locator('.composer .chip button[data-action="removeAttachment"]').click();
    assert.deepEqual(
      (await posted('removeAttachment')).map((m) => (m as { attachmentId: string }).attachmentId),
      ['att1'],
    );
  });

  it("a page that shows another conversation than the host's active one asks for the whole state again", async () => {
    const conversations = [
      { id: 'c1', title: 'Test chat', updatedAt: 1, messageCount: 1 },
      { id: 'c2', title: 'New chat', updatedAt: 2, messageCount: 1 },
    ];
    await chat.play({ type: 'conversations', conversations, activeId: 'c2' });
    assert.equal((await posted('ready')).length, 1, 'before any snapshot the state is on its way: no second ready');
    await chat.play({ type: 'snapshot', snapshot: snapshot([msg('u1', 'user', 'Hi')]) });
    await chat.play({ type: 'conversations', conversations, activeId: 'c1' });
    assert.equal((await posted('ready')).length, 1, 'in step: nothing asked');
    // A snapshot went missing: the host's active conversation is c2, the page still shows c1.
    await chat.play({ type: 'conversations', conversations, activeId: 'c2' });
    assert.equal((await posted('ready')).length, 2);
  });

  it('Enter sends, Shift+Enter adds a line, Escape stops while busy', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot() });
    const input = chat.page.locator('.composer .input');
    await input.click();
    await input.pressSequentially('line one');
    await input.press('Shift+Enter');
    await input.pressSequentially('line two');
    assert.equal((await posted('send')).length, 0);
    await input.press('Enter');
    const sends = await posted('send');
    assert.deepEqual(
      sends.map((m) => (m as { text: string }).text),
      ['line one\nline two'],
    );
    assert.equal(await input.inputValue(), '');
    await chat.play({ type: 'busy', busy: true });
    await input.press('Escape');
    assert.equal((await posted('stop')).length, 1);
    assert.equal(await chat.page.locator('button[data-action="stop"]').isVisible(), true);
    await input.pressSequentially('queued text');
    await input.press('Enter');
    assert.equal((await posted('send')).length, 1, 'no send while busy');
  });

  it('renders a stream incrementally: finished blocks stay the same nodes, the open code fence grows in place', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot([msg('u1', 'user', 'q')]) });
    await chat.play({
      type: 'messageAppended',
      conversationId: 'c1',
      message: msg('a1', 'assistant', '', { status: 'streaming' }),
    });
    await chat.play({
      type: 'streamDelta',
      conversationId: 'c1',
      messageId: 'a1',
      text: '# Title\n\nFirst paragraph.\n\n',
    });
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: 'Second' });
    await frame();
    const page = chat.page;
    await page.evaluate(() => {
      (document.querySelector('.message.assistant h1') as HTMLElement & { __mark?: boolean }).__mark = true;
    });
    await chat.play({
      type: 'streamDelta',
      conversationId: 'c1',
      messageId: 'a1',
      text: ' paragraph.\n\n```python\nprint(1)\n',
    });
    await frame();
    await page.evaluate(() => {
      (document.querySelector('.message.assistant .tail pre') as HTMLElement & { __mark?: boolean }).__mark = true;
    });
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: 'print(2)\n' });
    await frame();
    const state = await page.evaluate(() => ({
      h1Kept: (document.querySelector('.message.assistant h1') as HTMLElement & { __mark?: boolean }).__mark === true,
      preKept:
        (document.querySelector('.message.assistant .tail pre') as HTMLElement & { __mark?: boolean })?.__mark === true,
      code: document.querySelector('.message.assistant .tail pre code')?.textContent,
      paragraphs: Array.from(document.querySelectorAll('.message.assistant p')).map((p) => p.textContent),
    }));
    assert.ok(state.h1Kept, 'the finished heading was not re-rendered');
    assert.ok(state.preKept, 'the open code block grew in place');
    assert.equal(state.code, 'print(1)\nprint(2)\n');
    assert.deepEqual(state.paragraphs, ['First paragraph.', 'Second paragraph.']);
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: '```\n\nDone.' });
    await chat.play({
      type: 'streamFinished',
      conversationId: 'c1',
      messageId: 'a1',
      status: 'stopped',
      usage: { input: 1, output: 9, cacheRead: 0, cacheWrite: 0 },
    });
    await frame();
    assert.equal(await page.locator('.message.assistant .badge.stopped').count(), 1);
    assert.equal(await page.locator('.message.assistant code.hljs').count(), 1, 'highlighted once finished');
    assert.ok(
      (await page.locator('[aria-live="polite"]').textContent())?.includes('First paragraph.'),
      'finished blocks are announced',
    );
    await page.locator('button[data-action="continue"]').click();
    assert.equal((await posted('continue')).length, 1);
  });

  it('thinking is collapsible and streams into its block', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'q'), msg('a1', 'assistant', '', { status: 'streaming' })]),
    });
    await chat.play({
      type: 'streamDelta',
      conversationId: 'c1',
      messageId: 'a1',
      thinking: 'Let me think.',
      text: 'Answer',
    });
    await frame();
    const details = chat.page.locator('.message.assistant details.thinking');
    assert.equal(await details.isVisible(), true);
    assert.equal(await details.getAttribute('open'), null, 'collapsed by default');
    assert.equal(await details.locator('.thinking-text').textContent(), 'Let me think.');
  });

  it('links, code actions, message actions and error actions become host requests', async () => {
    const text = 'See [docs](https://example.com/docs).\n\n```ts\nconst a = 1;\n```';
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([
        msg('u1', 'user', 'q'),
        msg('a1', 'assistant', text, {
          status: 'cutOff',
          error: {
            title: 'Server failed (503)',
            detail: 'Retry when ready.',
            actions: ['retry', 'showLog'],
            status: 503,
            requestId: 'req_7',
          },
        }),
      ]),
    });
    const page = chat.page;
    await page.locator('.message.assistant a').click();
    assert.equal(page.url(), pages.serverUrl, 'no navigation');
    assert.deepEqual(
      (await posted('openLink')).map((m) => (m as { href: string }).href),
      ['https://example.com/docs'],
    );
    await page.locator('button[data-action="copyCode"]').click();
    await page.locator('button[data-action="insertCode"]').click();
    await page.locator('button[data-action="openCode"]').click();
    assert.equal(((await posted('copy'))[0] as { text: string }).text, 'const a = 1;\n');
    assert.deepEqual(await posted('insertCode').then((m) => m.map((x) => (x as { languageId?: string }).languageId)), [
      'typescript',
    ]);
    assert.equal((await posted('openCodeInEditor')).length, 1);
    assert.match(
      (await page.locator('.error-card').textContent()) ?? '',
      /Server failed \(503\).*HTTP 503 · request id req_7/,
    );
    assert.equal(await page.locator('.badge.cutoff').count(), 1);
    await page.locator('.error-card button', { hasText: 'Retry' }).click();
    assert.deepEqual(
      (await posted('errorAction')).map((m) => (m as { action: string }).action),
      ['retry'],
    );
    await page.locator('button[data-action="regenerate"]').click();
    assert.equal((await posted('regenerate')).length, 1);
  });

  it('edit and resend a question in place', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'old question'), msg('a1', 'assistant', 'answer')]),
    });
    await chat.page.locator('button[data-action="edit"]').click();
    const editor = chat.page.locator('textarea.edit');
    await editor.fill('new question');
    await editor.press('Enter');
    assert.deepEqual(
      (await posted('editAndResend')).map((m) => m as { text: string; messageId: string }),
      [
        {
          type: 'editAndResend',
          messageId: 'u1',
          text: 'new question',
          requestId: (await posted('editAndResend'))[0].requestId,
        },
      ],
    );
    await chat.play({ type: 'messagesTruncated', conversationId: 'c1', fromMessageId: 'u1' });
    assert.equal(await chat.page.locator('.message').count(), 0);
  });

  it('a 429 card counts down', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'q'), msg('a1', 'assistant', '', { status: 'queued' })]),
    });
    await chat.play({
      type: 'errorCard',
      conversationId: 'c1',
      messageId: 'a1',
      card: {
        title: 'Rate limited (429)',
        detail: 'Waiting.',
        actions: [],
        retryAfterMs: 5000,
        queuedUntil: Date.now() + 5000,
      },
    });
    assert.match((await chat.page.locator('.countdown').textContent()) ?? '', /again automatically in [45] s/);
  });

  it('conversation list: search goes to the host, results render, select and delete post requests', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([], {
        conversations: [
          { id: 'c1', title: 'Rust lifetimes', updatedAt: 2, messageCount: 2 },
          { id: 'c2', title: 'Python typing', updatedAt: 1, messageCount: 4 },
        ],
      }),
    });
    // The view title bar's Show Conversations (the host posts showConversations).
    await chat.play({ type: 'showConversations' });
    assert.equal(await chat.page.locator('.conversation-open').count(), 2);
    await chat.page.locator('.conversations .search').fill('python');
    const [search] = await posted('searchConversations');
    await chat.play({
      type: 'reply',
      requestId: search.requestId,
      result: [{ id: 'c2', title: 'Python typing', updatedAt: 1, messageCount: 4 }],
    });
    assert.deepEqual(await chat.page.locator('.conversation-open').allTextContents(), ['Python typing']);
    await chat.page.locator('button[data-action="deleteConversation"]').click();
    await chat.page.locator('.conversation-open').click();
    assert.deepEqual(
      (await posted('selectConversation')).map((m) => (m as { conversationId: string }).conversationId),
      ['c2'],
    );
    assert.deepEqual(
      (await posted('deleteConversation')).map((m) => (m as { conversationId: string }).conversationId),
      ['c2'],
    );
  });

  it('conversation list from the title bar only: no second New chat or Conversations button in the page; Escape and a second press close it', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([], { conversations: [{ id: 'c1', title: 'Rust lifetimes', updatedAt: 2, messageCount: 2 }] }),
    });
    const page = chat.page;
    assert.equal(await page.locator('.header').innerText(), 'Rust lifetimes', 'the header names the conversation');
    assert.equal(await page.locator('.header button').count(), 0, 'no buttons in the header');
    for (const label of ['New chat', 'Conversations', 'Show Conversations'])
      assert.equal(await page.locator(`button[aria-label="${label}"], button[title="${label}"]`).count(), 0, label);
    const list = page.locator('.conversations');
    const input = page.locator('.composer .input');
    const search = page.locator('.conversations .search');
    // Keyboard: the title bar's action (or the palette) opens the list with the search focused; Escape closes it and
    // gives the keyboard back to the composer.
    await chat.play({ type: 'showConversations' });
    assert.equal(await list.isVisible(), true);
    assert.equal(await search.evaluate((e) => e === document.activeElement), true, 'the search has the focus');
    await page.keyboard.press('Escape');
    assert.equal(await list.isVisible(), false, 'Escape closes the list');
    assert.equal(await input.evaluate((e) => e === document.activeElement), true, 'the composer has the focus');
    assert.equal((await posted('stop')).length, 0, 'Escape in the list stops nothing');
    // The title bar's button pressed twice: the second press (toggle) closes the list; from the palette it stays open.
    await chat.play({ type: 'showConversations', toggle: true });
    assert.equal(await list.isVisible(), true);
    await chat.play({ type: 'showConversations' });
    assert.equal(await list.isVisible(), true, 'showing again leaves it open');
    await chat.play({ type: 'showConversations', toggle: true });
    assert.equal(await list.isVisible(), false, 'a second press of the button closes it');
    assert.equal(await input.evaluate((e) => e === document.activeElement), true);
  });

  it('works at a narrow width', async () => {
    await chat.close();
    chat = await openChatPage(pages.browser, pages.serverUrl, 220);
    await chat.play({ type: 'snapshot', snapshot: snapshot([msg('a1', 'assistant', 'x'.repeat(5000))]) });
    const overflow = await chat.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no horizontal overflow (${overflow}px)`);
    assert.equal(await chat.page.locator('button[data-action="send"]').isVisible(), true);
  });
});
