/// <reference lib="dom" />
// The composer's @-mentions in real Chromium (the chat bundle with the production CSP, a fake host): the list opens
// on `@` at the start or after a space, typing asks the host (debounced), the keyboard chooses and attaches, Escape
// closes without stopping an answer; chips show name, size in tokens and a cut note, and are removed by keyboard.
import { strict as assert } from 'node:assert';
import type { ChatAttachment, MentionOption, WebviewToHostMessage } from '../../src/shared/protocol/chat';
import { chatPageSuite, snapshot, type ChatPage } from '../support/chatPage';

type Posted = WebviewToHostMessage & { requestId: string };

describe('chat @-mentions (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(async (page) => page.play({ type: 'snapshot', snapshot: snapshot() }));
  beforeEach(() => {
    chat = pages.chat;
  });

  const posted = async (type: string) => (await chat.posted()).filter((m) => m.type === type) as Posted[];
  /** The next request of this type beyond the `seen` ones (the list asks after its debounce). */
  async function nextRequest(type: string, seen: number): Promise<Posted> {
    for (let i = 0; i < 100; i++) {
      const all = await posted(type);
      if (all.length > seen) return all[all.length - 1];
      await chat.page.waitForTimeout(20);
    }
    throw new Error(`no ${type} request`);
  }
  /** The search for the whole `query`: on a busy machine the debounce can pass mid-word and ask for a prefix first. */
  async function searchFor(query: string): Promise<Posted> {
    for (let i = 0; i < 250; i++) {
      const hit = (await posted('mentionSearch')).reverse().find((m) => (m as { query: string }).query === query);
      if (hit) return hit;
      await chat.page.waitForTimeout(20);
    }
    throw new Error(`no mentionSearch for "${query}"`);
  }
  const options: MentionOption[] = [
    { kind: 'problems', detail: '2 errors, 0 warnings in the workspace' },
    { kind: 'file', path: 'src/chat/composer.ts', detail: 'src/chat', tokens: 1234 },
    { kind: 'folder', path: 'src/chat', detail: 'src' },
    { kind: 'file', path: '.env', detail: '.env matches the secrets ignore list (.env*)', unavailable: true },
  ];
  const input = () => chat.page.locator('.composer .input');
  const list = () => chat.page.locator('.mention-list');
  const selected = () => chat.page.locator('.mention-option[aria-selected="true"] .mention-label').textContent();

  it('`@` after a space opens the list; typing filters through the host; arrows choose; Enter attaches, not sends', async () => {
    await input().click();
    await input().pressSequentially('Explain @');
    assert.equal(await list().isVisible(), true, 'open at once, "Searching…" until the host answers');
    await input().pressSequentially('comp');
    // Typing goes on while the host is asked: the reply that counts is the one for the whole query.
    let search = await nextRequest('mentionSearch', 0);
    while ((search as { query: string }).query !== 'comp')
      search = await nextRequest('mentionSearch', (await posted('mentionSearch')).length);
    await chat.play({ type: 'reply', requestId: search.requestId, result: options });
    await chat.page.locator('.mention-option').first().waitFor();
    assert.deepEqual(await chat.page.locator('.mention-option .mention-label').allTextContents(), [
      'Problems',
      'composer.ts',
      'chat/',
      '.env',
    ]);
    assert.equal(
      await chat.page.locator('.mention-option').nth(1).locator('.mention-tokens').textContent(),
      '~1,234 tokens',
    );
    assert.equal(await chat.page.locator('.mention-option.unavailable .codicon-lock').count(), 1);
    assert.equal(await selected(), 'Problems');
    await input().press('ArrowDown');
    assert.equal(await selected(), 'composer.ts');
    assert.equal(
      await input().getAttribute('aria-activedescendant'),
      await chat.page.locator('.mention-option[aria-selected="true"]').getAttribute('id'),
      'the input names the chosen entry for screen readers',
    );
    await input().press('ArrowUp');
    await input().press('ArrowUp');
    assert.equal(await selected(), '.env', 'wraps around');
    await input().press('ArrowDown');
    await input().press('ArrowDown');
    await input().press('Enter');
    const [add] = await posted('addMention');
    assert.deepEqual(
      { kind: (add as { kind: string }).kind, path: (add as { path?: string }).path },
      {
        kind: 'file',
        path: 'src/chat/composer.ts',
      },
    );
    assert.equal(
      await input().inputValue(),
      'Explain @src/chat/composer.ts ',
      'the typed @query becomes the reference: the sentence keeps what it is about',
    );
    assert.equal(await list().isVisible(), false);
    assert.equal((await posted('send')).length, 0, 'Enter attached, it did not send');
    assert.equal(await input().evaluate((e) => document.activeElement === e), true, 'focus stays in the input');
  });

  it('Tab attaches a named kind; Escape closes without stopping a running answer; `@` inside a word opens nothing', async () => {
    await chat.play({ type: 'busy', busy: true });
    await input().click();
    await input().pressSequentially('mail me at a@b');
    await chat.page.waitForTimeout(200);
    assert.equal(await list().isVisible(), false, 'an e-mail address is not a mention');
    assert.equal((await posted('mentionSearch')).length, 0);
    await input().fill('');
    await input().pressSequentially('@prob');
    const search = await searchFor('prob');
    await chat.play({ type: 'reply', requestId: search.requestId, result: [options[0]] });
    await chat.page.locator('.mention-option').first().waitFor();
    await input().press('Escape');
    assert.equal(await list().isVisible(), false);
    assert.equal((await posted('stop')).length, 0, 'Escape closed the list; it did not stop the answer');
    await input().pressSequentially('l');
    await chat.page.waitForTimeout(200);
    assert.equal(await list().isVisible(), false, 'stays closed for this @ while typing on');
    const seen = (await posted('mentionSearch')).length;
    await input().pressSequentially(' @');
    assert.equal(await list().isVisible(), true, 'a new @ opens it again');
    const again = await nextRequest('mentionSearch', seen);
    await chat.play({ type: 'reply', requestId: again.requestId, result: [options[0]] });
    await chat.page.locator('.mention-option').first().waitFor();
    await input().press('Tab');
    const [add] = await posted('addMention');
    assert.equal((add as { kind: string }).kind, 'problems');
    assert.equal((add as { path?: string }).path, undefined);
    assert.equal(await input().inputValue(), '@probl @problems ');
    // The host refuses (a secret file, no shell integration): its words show above the composer.
    await chat.play({ type: 'reply', requestId: add.requestId, error: 'No terminal is open.' });
    await chat.page.locator('.composer .notice', { hasText: 'No terminal is open.' }).waitFor();
  });

  it('mentions stay in the sentence: "Check @problems and @changes please" is what is sent', async () => {
    await input().click();
    await input().pressSequentially('Check @prob');
    let search = await searchFor('prob');
    await chat.play({ type: 'reply', requestId: search.requestId, result: [options[0]] });
    await chat.page.locator('.mention-option').first().waitFor();
    await input().press('Enter');
    await input().pressSequentially('and @cha');
    search = await searchFor('cha');
    await chat.play({ type: 'reply', requestId: search.requestId, result: [{ kind: 'changes', detail: '2 files' }] });
    await chat.page.locator('.mention-option').first().waitFor();
    await input().press('Tab');
    await input().pressSequentially('please');
    assert.deepEqual(
      (await posted('addMention')).map((m) => (m as { kind: string }).kind),
      ['problems', 'changes'],
    );
    await input().press('Enter');
    const [send] = await posted('send');
    assert.equal((send as { text: string }).text, 'Check @problems and @changes please');
  });

  it('a click on an entry attaches it; a chip shows name, ~tokens, the cut note and the full path', async () => {
    await input().click();
    await input().pressSequentially('@');
    const search = await nextRequest('mentionSearch', 0);
    assert.equal((search as { query: string }).query, '', 'a bare @ lists everything');
    await chat.play({ type: 'reply', requestId: search.requestId, result: options });
    await chat.page.locator('.mention-option').nth(2).click();
    const [add] = await posted('addMention');
    assert.deepEqual([(add as { kind: string }).kind, (add as { path?: string }).path], ['folder', 'src/chat']);
    const attachments: ChatAttachment[] = [
      { id: 'a1', kind: 'folder', path: 'src/chat', languageId: 'plaintext', text: 'x', tokens: 52 },
      {
        id: 'a2',
        kind: 'file',
        path: 'src/big/bundle.js',
        languageId: 'js',
        text: 'y',
        tokens: 66_700,
        truncated: true,
      },
      { id: 'a3', kind: 'terminal', path: 'bash', languageId: 'console', text: 'z', tokens: 9 },
    ];
    await chat.play({ type: 'attachments', attachments });
    const chips = chat.page.locator('.composer .chip');
    assert.deepEqual(await chips.locator('.chip-label').allTextContents(), ['chat/', 'bundle.js', 'Terminal: bash']);
    assert.deepEqual(await chips.locator('.chip-tokens').allTextContents(), [
      '~52 tokens',
      '~66,700 tokens',
      '~9 tokens',
    ]);
    assert.equal(await chips.nth(1).locator('.chip-cut').textContent(), 'cut');
    assert.match((await chips.nth(1).getAttribute('title')) ?? '', /^src\/big\/bundle\.js · ~66,700 tokens · Cut to/);
    assert.equal(await chips.nth(0).locator('.codicon-folder').count(), 1);
    assert.equal(await chips.nth(2).locator('.codicon-terminal').count(), 1);
  });

  it('chips are removed by keyboard: Enter on the focused remove button, or Backspace in the empty input', async () => {
    const attachments: ChatAttachment[] = [
      { id: 'a1', kind: 'problems', path: 'problems', languageId: 'plaintext', text: 'x', tokens: 5 },
      { id: 'a2', kind: 'changes', path: 'ws', languageId: 'diff', text: 'y', tokens: 7 },
    ];
    await chat.play({ type: 'attachments', attachments });
    const remove = chat.page.locator('.composer .chip button[data-action="removeAttachment"]');
    await remove.first().focus();
    assert.equal(await remove.first().getAttribute('aria-label'), 'Remove Problems');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(
      (await posted('removeAttachment')).map((m) => (m as { attachmentId: string }).attachmentId),
      ['a1'],
    );
    assert.equal(await input().evaluate((e) => document.activeElement === e), true, 'focus goes back to the input');
    await input().pressSequentially('x');
    await input().press('Backspace');
    assert.equal((await posted('removeAttachment')).length, 1, 'Backspace deletes text first');
    await input().press('Backspace');
    assert.deepEqual(
      (await posted('removeAttachment')).map((m) => (m as { attachmentId: string }).attachmentId),
      ['a1', 'a2'],
      'then the last chip',
    );
  });
});
